package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// These tests pin the pure functions of SEP-2243 header mirroring; the
// HTTP tests in http_stateless_test.go show the same rules on the wire.

func TestDecodeHeaderValue(t *testing.T) {
	tests := []struct {
		name, in, want string
		wantErr        bool
	}{
		{name: "plain text is literal", in: "us-west1", want: "us-west1"},
		{name: "spaces and tabs around are dropped", in: " \tus-west1\t ", want: "us-west1"},
		{name: "inner spaces stay", in: "a b", want: "a b"},
		{name: "the wrapper is decoded", in: "=?base64?SGVsbG8sIOS4lueVjA==?=", want: "Hello, 世界"},
		{name: "the wrapper after trimming", in: "  =?base64?YQ==?= ", want: "a"},
		{name: "an empty payload is the empty string", in: "=?base64??=", want: ""},
		{name: "leading spaces survive inside the wrapper", in: "=?base64?ICB4?=", want: "  x"},
		{name: "missing padding is refused", in: "=?base64?SGVsbG8?=", wantErr: true},
		{name: "characters outside base64 are refused", in: "=?base64?SGV*bG8=?=", wantErr: true},
		{name: "URL-safe base64 is refused", in: "=?base64?-_8=?=", wantErr: true},
		{name: "bytes that are not UTF-8 are refused", in: "=?base64?/w==?=", wantErr: true},
		{name: "without the closing marker it is literal", in: "=?base64?SGVsbG8=", want: "=?base64?SGVsbG8="},
		{name: "without the opening marker it is literal", in: "SGVsbG8=?=", want: "SGVsbG8=?="},
		{name: "markers are case-sensitive", in: "=?BASE64?SGVsbG8=?=", want: "=?BASE64?SGVsbG8=?="},
		{name: "overlapping markers are literal", in: "=?base64?=", want: "=?base64?="},
		{name: "the wrapper must be the whole value", in: "x=?base64?YQ==?=", want: "x=?base64?YQ==?="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeHeaderValue(tt.in)
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestEncodeHeaderValue(t *testing.T) {
	tests := []struct {
		name, in string
		wrapped  bool
	}{
		{name: "visible ASCII stays", in: "us-west1"},
		{name: "inner spaces stay", in: "New York"},
		{name: "punctuation stays", in: "a:b/c?d=e"},
		{name: "non-ASCII is wrapped", in: "Zürich", wrapped: true},
		{name: "a leading space is wrapped", in: " x", wrapped: true},
		{name: "a trailing space is wrapped", in: "x ", wrapped: true},
		{name: "a tab is wrapped", in: "a\tb", wrapped: true},
		{name: "a line break is wrapped", in: "a\r\nb", wrapped: true},
		{name: "DEL is wrapped", in: "a\x7fb", wrapped: true},
		{name: "text that looks like the wrapper is wrapped", in: "=?base64?YQ==?=", wrapped: true},
		{name: "the empty string is wrapped", in: "", wrapped: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := encodeHeaderValue(tt.in)
			if tt.wrapped {
				assert.Regexp(t, `^=\?base64\?[A-Za-z0-9+/=]*\?=$`, enc)
			} else {
				assert.Equal(t, tt.in, enc)
			}
			back, err := decodeHeaderValue(enc)
			require.NoError(t, err)
			assert.Equal(t, tt.in, back, "decoding gives the text back")
		})
	}
}

func TestHeaderParamsCollectsAnnotations(t *testing.T) {
	schema := `{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"count":{"type":"integer","x-mcp-header":"Count"},
		"dry":{"type":["boolean","null"],"x-mcp-header":"Dry-Run"},
		"plain":{"type":"string"},
		"target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}}}}`
	got, err := headerParams(json.RawMessage(schema))
	require.NoError(t, err)
	assert.ElementsMatch(t, []headerParam{
		{Header: "Region", Property: "region", Type: "string", Path: []string{"region"}},
		{Header: "Count", Property: "count", Type: "integer", Path: []string{"count"}},
		{Header: "Dry-Run", Property: "dry", Type: "boolean", Path: []string{"dry"}},
		{Header: "Zone", Property: "target.zone", Type: "string", Path: []string{"target", "zone"}},
	}, got)
}

func TestHeaderParamsWithoutAnnotations(t *testing.T) {
	for _, schema := range []string{``, `{"type":"object"}`, `{"type":"object","properties":{"x-mcp-header":{"type":"string"}}}`} {
		got, err := headerParams(json.RawMessage(schema))
		require.NoError(t, err, schema)
		assert.Empty(t, got, schema)
	}
}

// headerRuleCases are input schemas that break a rule of x-mcp-header, and
// what the error says.
var headerRuleCases = []struct {
	name, schema, errHas string
}{
	{"not JSON", `{`, "not JSON"},
	{"empty name", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}`, `property "a"`},
	{"a space in the name", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"My Header"}}}`, "not an HTTP token"},
	{"a colon in the name", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A:B"}}}`, "not an HTTP token"},
	{"non-ASCII in the name", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Région"}}}`, "not an HTTP token"},
	{"a control character in the name", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A\u0001"}}}`, "not an HTTP token"},
	{"a name that is not a string", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":7}}}`, "must be a string"},
	{"a duplicate name", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"Region"}}}`, "already used"},
	{"a duplicate name in another case", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"REGION"}}}`, `property "a"`},
	{"a number property", `{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}}`, `property "a": the property must have type`},
	{"an object property", `{"type":"object","properties":{"a":{"type":"object","x-mcp-header":"A"}}}`, "must have type"},
	{"an array property", `{"type":"object","properties":{"a":{"type":"array","x-mcp-header":"A"}}}`, "must have type"},
	{"a null property", `{"type":"object","properties":{"a":{"type":"null","x-mcp-header":"A"}}}`, "must have type"},
	{"a property without a type", `{"type":"object","properties":{"a":{"enum":["x"],"x-mcp-header":"A"}}}`, "must have type"},
	{"two types", `{"type":"object","properties":{"a":{"type":["string","integer"],"x-mcp-header":"A"}}}`, "must have type"},
	{"a name spelled with escapes", `{"type":"object","properties":{"a":{"type":"number","x-mcp-\u0068eader":"A"}}}`, `property "a": the property must have type`},
	{"on the root", `{"type":"object","x-mcp-header":"A"}`, "reached from the root"},
	{"under items", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}}`, `"/properties/a/items"`},
	{"under prefixItems", `{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"string","x-mcp-header":"A"}]}}}`, "/prefixItems/0"},
	{"under anyOf", `{"type":"object","anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}`, "/anyOf/0/properties/a"},
	{"under oneOf", `{"type":"object","properties":{"a":{"oneOf":[{"type":"string","x-mcp-header":"A"}]}}}`, "/oneOf/0"},
	{"under allOf", `{"type":"object","allOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}`, "/allOf/0"},
	{"under not", `{"type":"object","not":{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}}`, "/not/properties/a"},
	{"under then", `{"type":"object","if":{},"then":{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}}`, "/then/"},
	{"behind a $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/r"}},"$defs":{"r":{"type":"string","x-mcp-header":"A"}}}`, "/$defs/r"},
	{"under additionalProperties", `{"type":"object","additionalProperties":{"type":"string","x-mcp-header":"A"}}`, "/additionalProperties"},
	{"under patternProperties", `{"type":"object","patternProperties":{"^a":{"type":"string","x-mcp-header":"A"}}}`, "/patternProperties/^a"},
}

func TestHeaderParamsEnforcesTheRules(t *testing.T) {
	for _, tt := range headerRuleCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := headerParams(json.RawMessage(tt.schema))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.errHas)
		})
	}
}

// TestAddToolChecksTheHeaderRulesOnTheSchemaItCompiled: a server reads
// the annotations from the input schema it decoded to compile it, and
// refuses the tool with headerParams's error.
func TestAddToolChecksTheHeaderRulesOnTheSchemaItCompiled(t *testing.T) {
	h := func(context.Context, *CallToolRequest) (*CallToolResult, error) { return &CallToolResult{}, nil }
	for _, tt := range headerRuleCases {
		if tt.name == "not JSON" {
			continue // refused before: the schema does not compile
		}
		t.Run(tt.name, func(t *testing.T) {
			_, want := headerParams(json.RawMessage(tt.schema))
			require.Error(t, want)
			s := NewServer(&Implementation{Name: "t", Version: "1"}, nil)
			err := s.AddTool(&Tool{Name: "t", InputSchema: json.RawMessage(tt.schema)}, h)
			require.Error(t, err)
			assert.Equal(t, `mcp: tool "t": `+want.Error(), err.Error())
		})
	}
}

func TestToolHeadersAreCachedPerRegistration(t *testing.T) {
	s := NewServer(&Implementation{Name: "t", Version: "1"}, nil)
	h := func(context.Context, *CallToolRequest) (*CallToolResult, error) { return &CallToolResult{}, nil }
	require.NoError(t, s.AddTool(&Tool{Name: "geo", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)}, h))
	first := s.toolHeaders("geo")
	require.Len(t, first, 1)
	assert.Equal(t, "Region", first[0].Header)
	assert.Equal(t, &first[0], &s.toolHeaders("geo")[0], "the second lookup is the cached slice")

	require.NoError(t, s.AddTool(&Tool{Name: "geo", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}}`)}, h))
	again := s.toolHeaders("geo")
	require.Len(t, again, 1)
	assert.Equal(t, "Zone", again[0].Header, "a replaced tool is read afresh")
	assert.Nil(t, s.toolHeaders("nope"))
}

// headerCase is one request for checkMirroredHeaders.
type headerCase struct {
	name    string
	headers map[string][]string
	method  string
	params  string
	version string
	errHas  string // "" when the headers are fine
}

func TestCheckStatelessHeaders(t *testing.T) {
	base := func(method string, extra ...string) map[string][]string {
		h := map[string][]string{"MCP-Protocol-Version": {"2026-07-28"}, "Mcp-Method": {method}}
		for i := 0; i+1 < len(extra); i += 2 {
			h[extra[i]] = append(h[extra[i]], extra[i+1])
		}
		return h
	}
	tools := map[string][]headerParam{
		"geo": {
			{Header: "Region", Property: "region", Type: "string", Path: []string{"region"}},
			{Header: "Count", Property: "count", Type: "integer", Path: []string{"count"}},
			{Header: "Dry", Property: "dry", Type: "boolean", Path: []string{"dry"}},
			{Header: "Zone", Property: "target.zone", Type: "string", Path: []string{"target", "zone"}},
		},
	}
	lookup := func(name string) []headerParam { return tools[name] }
	call := func(args string) string { return `{"name":"geo","arguments":` + args + `}` }
	v := "2026-07-28"
	tests := []headerCase{
		{name: "a list with the two headers", headers: base("tools/list"), method: "tools/list", version: v},
		{name: "header names without case", headers: map[string][]string{"mcp-protocol-version": {v}, "MCP-METHOD": {"tools/list"}}, method: "tools/list", version: v},
		{name: "whitespace around values", headers: base(" \ttools/list "), method: "tools/list", version: v},
		{name: "version missing", headers: map[string][]string{"Mcp-Method": {"tools/list"}}, method: "tools/list", version: v, errHas: "Mcp-Protocol-Version: the header is required"},
		{name: "version differs from _meta", headers: base("tools/list"), method: "tools/list", version: "v999.0.0", errHas: "Mcp-Protocol-Version"},
		{name: "no _meta version: not compared", headers: base("tools/list"), method: "tools/list"},
		{name: "method missing", headers: map[string][]string{"Mcp-Protocol-Version": {v}}, method: "tools/list", version: v, errHas: "Mcp-Method: the header is required"},
		{name: "method differs", headers: base("prompts/list"), method: "tools/list", version: v, errHas: "Mcp-Method"},
		{name: "method in another case", headers: base("Tools/List"), method: "tools/list", version: v, errHas: "Mcp-Method"},
		{name: "method twice", headers: base("tools/list", "Mcp-Method", "tools/list"), method: "tools/list", version: v, errHas: "appears 2 times"},
		{name: "a prompt with its name", headers: base("prompts/get", "Mcp-Name", "greet"), method: "prompts/get", params: `{"name":"greet"}`, version: v},
		{name: "a prompt without Mcp-Name", headers: base("prompts/get"), method: "prompts/get", params: `{"name":"greet"}`, version: v, errHas: "Mcp-Name: the header is required"},
		{name: "a prompt with another name", headers: base("prompts/get", "Mcp-Name", "other"), method: "prompts/get", params: `{"name":"greet"}`, version: v, errHas: "Mcp-Name"},
		{name: "a resource with its URI", headers: base("resources/read", "Mcp-Name", "file:///a%20b"), method: "resources/read", params: `{"uri":"file:///a%20b"}`, version: v},
		{name: "a resource URI in the wrapper", headers: base("resources/read", "Mcp-Name", "=?base64?ZmlsZTovLy/DqQ==?="), method: "resources/read", params: `{"uri":"file:///é"}`, version: v},
		{name: "a resource with another URI", headers: base("resources/read", "Mcp-Name", "file:///b"), method: "resources/read", params: `{"uri":"file:///a"}`, version: v, errHas: "Mcp-Name"},
		{name: "a task with its id", headers: base("tasks/update", "Mcp-Name", "t1"), method: "tasks/update", params: `{"taskId":"t1"}`, version: v},
		{name: "a task with another id", headers: base("tasks/cancel", "Mcp-Name", "t2"), method: "tasks/cancel", params: `{"taskId":"t1"}`, version: v, errHas: "differs from the request's taskId"},
		{name: "a method the schemas do not know needs no Mcp-Name", headers: base("acme/run"), method: "acme/run", params: `{"name":"x"}`, version: v},
		{name: "a name in a broken wrapper", headers: base("prompts/get", "Mcp-Name", "=?base64?Z*==?="), method: "prompts/get", params: `{"name":"g"}`, version: v, errHas: "Mcp-Name: the base64 value is malformed"},
		{name: "a tool without header params", headers: base("tools/call", "Mcp-Name", "plain"), method: "tools/call", params: `{"name":"plain","arguments":{"region":"x"}}`, version: v},
		{name: "a tool with every param mirrored", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Region", "us-west1", "Mcp-Param-Count", "42", "Mcp-Param-Dry", "true", "Mcp-Param-Zone", "b"),
			method: "tools/call", params: call(`{"region":"us-west1","count":42,"dry":true,"target":{"zone":"b"}}`), version: v},
		{name: "param header names without case", headers: base("tools/call", "Mcp-Name", "geo", "mcp-param-region", "us-west1"), method: "tools/call", params: call(`{"region":"us-west1"}`), version: v},
		{name: "an absent argument needs no header", headers: base("tools/call", "Mcp-Name", "geo"), method: "tools/call", params: call(`{}`), version: v},
		{name: "a null argument needs no header", headers: base("tools/call", "Mcp-Name", "geo"), method: "tools/call", params: call(`{"region":null,"target":null}`), version: v},
		{name: "no arguments need no header", headers: base("tools/call", "Mcp-Name", "geo"), method: "tools/call", params: `{"name":"geo"}`, version: v},
		{name: "a string argument without its header", headers: base("tools/call", "Mcp-Name", "geo"), method: "tools/call", params: call(`{"region":"us-west1"}`), version: v, errHas: "Mcp-Param-Region: the header is required"},
		{name: "a string argument mismatched", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Region", "eu"), method: "tools/call", params: call(`{"region":"us-west1"}`), version: v, errHas: "Mcp-Param-Region"},
		{name: "a string argument in the wrapper", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Region", "=?base64?WsO8cmljaA==?="), method: "tools/call", params: call(`{"region":"Zürich"}`), version: v},
		{name: "a wrapped value with bad padding", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Region", "=?base64?WsO8cmljaA?="), method: "tools/call", params: call(`{"region":"Zürich"}`), version: v, errHas: "Mcp-Param-Region: the base64 value is malformed"},
		{name: "a partial wrapper is literal", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Region", "=?base64?YQ=="), method: "tools/call", params: call(`{"region":"=?base64?YQ=="}`), version: v},
		{name: "a partial wrapper does not decode", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Region", "=?base64?YQ=="), method: "tools/call", params: call(`{"region":"a"}`), version: v, errHas: "Mcp-Param-Region"},
		{name: "an integer compared numerically", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Count", "42"), method: "tools/call", params: call(`{"count":42.0}`), version: v},
		{name: "an integer in exponent form", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Count", "4.2e1"), method: "tools/call", params: call(`{"count":42}`), version: v},
		{name: "an integer mismatched", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Count", "43"), method: "tools/call", params: call(`{"count":42}`), version: v, errHas: "Mcp-Param-Count"},
		{name: "an integer header that is no number", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Count", "forty-two"), method: "tools/call", params: call(`{"count":42}`), version: v, errHas: "Mcp-Param-Count"},
		{name: "an integer argument without its header", headers: base("tools/call", "Mcp-Name", "geo"), method: "tools/call", params: call(`{"count":0}`), version: v, errHas: "Mcp-Param-Count"},
		{name: "a boolean false", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Dry", "false"), method: "tools/call", params: call(`{"dry":false}`), version: v},
		{name: "a boolean in another case", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Dry", "True"), method: "tools/call", params: call(`{"dry":true}`), version: v, errHas: "Mcp-Param-Dry"},
		{name: "a boolean mismatched", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Dry", "1"), method: "tools/call", params: call(`{"dry":true}`), version: v, errHas: "Mcp-Param-Dry"},
		{name: "a nested argument mismatched", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Zone", "a"), method: "tools/call", params: call(`{"target":{"zone":"b"}}`), version: v, errHas: "target.zone"},
		{name: "an argument of the wrong type compared as JSON", headers: base("tools/call", "Mcp-Name", "geo", "Mcp-Param-Region", `["x"]`), method: "tools/call", params: call(`{"region":["x"]}`), version: v},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, vs := range tt.headers {
				for _, v := range vs {
					h.Add(k, v)
				}
			}
			err := checkMirroredHeaders(h, tt.method, json.RawMessage(tt.params), tt.version, lookup)
			if tt.errHas == "" {
				assert.Nil(t, err)
				return
			}
			require.NotNil(t, err)
			assert.Equal(t, -32020, err.Code)
			assert.Contains(t, err.Message, tt.errHas)
			var re *rpc.Error
			assert.ErrorAs(t, error(err), &re)
		})
	}
}

func TestOnlyASchemaThatSpellsTheNameOrEscapesCanCarryHeaders(t *testing.T) {
	for _, tc := range []struct {
		schema string
		may    bool
	}{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}`, true},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-\u0068eader":"A"}}}`, true},
		{`{"type":"object","description":"a \"quoted\" word"}`, true},
		{`{"type":"object","description":"x-mcp-header"}`, true},
	} {
		assert.Equal(t, tc.may, mayCarryHeaders([]byte(tc.schema)), tc.schema)
	}
	s := NewServer(&Implementation{Name: "t", Version: "1"}, nil)
	h := func(context.Context, *CallToolRequest) (*CallToolResult, error) { return &CallToolResult{}, nil }
	require.NoError(t, s.AddTool(&Tool{Name: "plain", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)}, h))
	assert.Empty(t, s.toolHeaders("plain"))
}
