package load

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVerifyCallAcceptsCorrectReplies(t *testing.T) {
	tests := []struct {
		name string
		c    Call
		msg  string
	}{
		{"echo", Call{Tool: ToolEcho, Text: `a "b"`},
			`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a \"b\""}]}}`},
		{"add with structured content", Call{Tool: ToolAdd, A: 1, B: 0.25},
			`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"1.25"}],"structuredContent":{"sum":1.25}}}`},
		{"add without structured content", Call{Tool: ToolAdd, A: 1, B: 2},
			`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"3"}]}}`},
		{"extra members are ignored", Call{Tool: ToolAdd, A: 1, B: 2},
			`{"result":{"resultType":"complete","_meta":{"x":1},"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3}},"id":5,"jsonrpc":"2.0"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.NoError(t, verifyCall([]byte(tt.msg), 5, tt.c))
		})
	}
}

func TestVerifyCallNamesWhatIsWrong(t *testing.T) {
	add := Call{Tool: ToolAdd, A: 1, B: 2}
	echo := Call{Tool: ToolEcho, Text: "hi"}
	tests := []struct {
		name    string
		c       Call
		msg     string
		wantErr string
	}{
		{"wrong id", echo, `{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"hi"}]}}`, "response id 6, want 5"},
		{"string id", echo, `{"jsonrpc":"2.0","id":"5","result":{"content":[{"type":"text","text":"hi"}]}}`, "not the integer"},
		{"missing id", echo, `{"jsonrpc":"2.0","result":{}}`, "without an id"},
		{"wrong version tag", echo, `{"jsonrpc":"1.0","id":5,"result":{"content":[{"type":"text","text":"hi"}]}}`, `jsonrpc is "1.0"`},
		{"error reply", echo, `{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"bad params"}}`, `error reply -32602 "bad params"`},
		{"neither result nor error", echo, `{"jsonrpc":"2.0","id":5}`, "neither result nor error"},
		{"tool error", echo, `{"jsonrpc":"2.0","id":5,"result":{"isError":true,"content":[{"type":"text","text":"boom"}]}}`, "tool error"},
		{"wrong text", echo, `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"ho"}]}}`, `text "ho", want "hi"`},
		{"wrong sum text", add, `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"3.0"}]}}`, `text "3.0", want "3"`},
		{"wrong structured sum", add, `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":4}}}`, "sum 4, want 3"},
		{"structured content without sum", add, `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"3"}],"structuredContent":{"total":3}}}`, "without a numeric sum"},
		{"two content blocks", echo, `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"hi"},{"type":"text","text":"hi"}]}}`, "2 content blocks"},
		{"not text content", echo, `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"image","data":"","mimeType":"image/png"}]}}`, `type "image"`},
		{"a server request", echo, `{"jsonrpc":"2.0","id":5,"method":"roots/list"}`, "sent a request"},
		{"not JSON", echo, `{"jsonrpc":`, "not a JSON-RPC message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := verifyCall([]byte(tt.msg), 5, tt.c)
			require.ErrorContains(t, err, tt.wantErr)
			var re *ReplyError
			require.ErrorAs(t, err, &re)
			assert.Contains(t, err.Error(), "message: {", "the error quotes the message")
		})
	}
}

func TestReplyErrorQuotesAtMostAFewHundredBytes(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 2000) + `"}]}}`
	err := verifyCall([]byte(long), 5, Call{Tool: ToolEcho, Text: "hi"})
	var re *ReplyError
	require.ErrorAs(t, err, &re)
	assert.LessOrEqual(t, len(re.Message), maxQuoted+len("…"))
}

func TestCheckInitializeWantsTheRequestedVersion(t *testing.T) {
	ok := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"bench","version":"1"}}}`
	older := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"bench","version":"1"}}}`
	r, err := parseReply([]byte(ok))
	require.NoError(t, err)
	assert.NoError(t, r.checkInitialize())

	r, err = parseReply([]byte(older))
	require.NoError(t, err)
	assert.ErrorContains(t, r.checkInitialize(), `negotiated protocol "2025-06-18"`)
}
