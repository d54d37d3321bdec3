package load

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadSSEReplyFindsTheResponse(t *testing.T) {
	const resp = `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}`
	tests := []struct {
		name   string
		stream string
	}{
		{"a single event", "event: message\ndata: " + resp + "\n\n"},
		{"CRLF line endings", "event: message\r\ndata: " + resp + "\r\n\r\n"},
		{"no space after the colon", "data:" + resp + "\n\n"},
		{"after a priming event, a comment and a notification",
			"id: 0\ndata:\n\n: keep-alive\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\nid: 1\ndata: " + resp + "\n\n"},
		{"data split over two lines", "data: {\"jsonrpc\":\"2.0\",\"id\":3,\ndata: \"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}}\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := readSSEReply(strings.NewReader(tt.stream))
			require.NoError(t, err)
			assert.NoError(t, r.checkCall(3, Call{Tool: ToolEcho, Text: "hi"}))
		})
	}
}

func TestReadSSEReplyFailsWithoutAResponse(t *testing.T) {
	tests := []struct {
		name    string
		stream  string
		wantErr string
	}{
		{"empty stream", "", errNoReply.Error()},
		{"only a notification", "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n", errNoReply.Error()},
		{"an unterminated event", "data: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}", errNoReply.Error()},
		{"bad JSON in the data", "data: {oops\n\n", "not a JSON-RPC message"},
		{"an oversized line", "data: " + strings.Repeat("x", 2*maxEventBytes) + "\n\n", "longer than"},
		{"an oversized event", "data: " + strings.Repeat("x", maxEventBytes/2+1) + "\ndata: " + strings.Repeat("x", maxEventBytes/2+1) + "\n\n", "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readSSEReply(strings.NewReader(tt.stream))
			assert.ErrorContains(t, err, tt.wantErr)
		})
	}
	_, err := readSSEReply(strings.NewReader(""))
	assert.ErrorIs(t, err, errNoReply)
}
