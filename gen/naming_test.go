package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSchemaNamesBecomeIdiomaticGoNames(t *testing.T) {
	tests := map[string]string{
		"notify_me":       "NotifyMe",
		"eth_getBalance":  "EthGetBalance",
		"tools/call":      "ToolsCall",
		"$/cancelRequest": "CancelRequest",
		"userId":          "UserID",
		"user_ids":        "UserIDs",
		"userIDs":         "UserIDs",
		"Identifier":      "Identifier",
		"HTTPServer":      "HTTPServer",
		"httpServer":      "HTTPServer",
		"xmlHTTPRequest":  "XMLHTTPRequest",
		"oauth_token":     "OAuthToken",
		"jsonrpc":         "JSONRPC",
		"json-rpc":        "JSONRPC",
		"api.key":         "APIKey",
		"_meta":           "Meta",
		"__private":       "Private",
		"type":            "Type",
		"func":            "Func",
		"2fa":             "X2Fa",
		"3d":              "X3D",
		"v1.2":            "V1_2",
		"mime type":       "MIMEType",
		"ttl":             "TTL",
		"ip_address":      "IPAddress",
		"zip":             "Zip",
		"日本":              "X日本",
		"--":              "",
		"BLOCK_NOT_FOUND": "BlockNotFound",
		"TXN_ID":          "TxnID",
		"HTTP_SERVER":     "HTTPServer",
		"FELT":            "FELT",
		"L1_HANDLER":      "L1Handler",
	}
	for in, want := range tests {
		assert.Equal(t, want, exportedName(in), "exportedName(%q)", in)
	}
}

func TestEnumValuesBecomeConstantSuffixes(t *testing.T) {
	tests := map[string]string{
		"user":        "User",
		"ref/prompt":  "RefPrompt",
		"2.0":         "V2_0",
		"2025-11-25":  "V2025_11_25",
		"":            "Empty",
		"in-progress": "InProgress",
		"!":           "",
		"IN_PROGRESS": "InProgress",
		"PENDING":     "PENDING",
	}
	for in, want := range tests {
		assert.Equal(t, want, enumConstSuffix(in), "enumConstSuffix(%q)", in)
	}
}

func TestConfigInitialismsJoinTheBuiltInOnes(t *testing.T) {
	n := newNamer([]string{"SSE", "OAuth2", "GraphQL"})
	for in, want := range map[string]string{
		"sse_url":       "SSEURL",
		"graphql_query": "GraphQLQuery",
		"userId":        "UserID",
		"sseEvents":     "SSEEvents",
		"oauth2":        "OAuth2",
	} {
		assert.Equal(t, want, n.exported(in), "exported(%q)", in)
	}
	assert.Equal(t, "SseURL", exportedName("sse_url"), "the default namer knows only the built-in list")
}
