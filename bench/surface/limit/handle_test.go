package limit_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/bench/surface/limit"
)

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

func TestHandleAnswersEachMessage(t *testing.T) {
	tests := []struct {
		name string
		msg  string
		kind limit.Kind
		want string // JSON, compared as a value; "" for no reply
	}{
		{"initialize echoes a known version", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			limit.Initialize, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1.0.0"}}}`},
		{"initialize answers the latest to an unknown version", `{"jsonrpc":"2.0","id":"x","method":"initialize","params":{"protocolVersion":"1999-01-01"}}`,
			limit.Initialize, `{"jsonrpc":"2.0","id":"x","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1.0.0"}}}`},
		{"notification gets no reply", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, limit.Notification, ""},
		{"ping", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, limit.Answer, `{"jsonrpc":"2.0","id":2,"result":{}}`},
		{"echo keeps the text's bytes", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a\"b\\u00e9 \n"}}}`,
			limit.Answer, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"a\"b\\u00e9 \n"}]}}`},
		{"add with params before method", `{"params":{"arguments":{"b":2.5,"a":1},"name":"add"},"id":4,"jsonrpc":"2.0","method":"tools/call"}`,
			limit.Answer, `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"3.5"}],"structuredContent":{"sum":3.5}}}`},
		{"stateless echo", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},` + meta + `}}`,
			limit.Answer, `{"jsonrpc":"2.0","id":5,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"1.0.0"}},"content":[{"type":"text","text":"hi"}],"resultType":"complete"}}`},
		{"stateless add", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{` + meta + `,"name":"add","arguments":{"a":1e300,"b":-2}}}`,
			limit.Answer, `{"jsonrpc":"2.0","id":6,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"1.0.0"}},"content":[{"type":"text","text":"1e+300"}],"structuredContent":{"sum":1e300},"resultType":"complete"}}`},
		{"unknown tool", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
			limit.Answer, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"unknown tool"}}`},
		{"echo without text", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":1}}}`,
			limit.Answer, `{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"invalid arguments"}}`},
		{"add overflowing", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add","arguments":{"a":1e308,"b":1e308}}}`,
			limit.Answer, `{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"invalid arguments"}}`},
		{"unknown method", `{"jsonrpc":"2.0","id":10,"method":"resources/list"}`,
			limit.Answer, `{"jsonrpc":"2.0","id":10,"error":{"code":-32601,"message":"method not found"}}`},
		{"unknown stateless method", `{"jsonrpc":"2.0","id":11,"method":"resources/list","params":{` + meta + `}}`,
			limit.NotFound, `{"jsonrpc":"2.0","id":11,"error":{"code":-32601,"message":"method not found"}}`},
		{"not JSON", `{"jsonrpc":`, limit.Answer, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, kind := limit.Handle(nil, []byte(tt.msg))
			assert.Equal(t, tt.kind, kind)
			if tt.want == "" {
				assert.Empty(t, out)
				return
			}
			require.True(t, json.Valid(out), "reply is not JSON: %s", out)
			assert.JSONEq(t, tt.want, string(out))
		})
	}
}

func TestHandleListsToolsInBothEras(t *testing.T) {
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`,
	} {
		out, _ := limit.Handle(nil, []byte(msg))
		var reply struct {
			Result struct {
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
				ResultType string `json:"resultType"`
			} `json:"result"`
		}
		require.NoError(t, json.Unmarshal(out, &reply), "%s", out)
		assert.Len(t, reply.Result.Tools, 2)
	}
}

func TestHandleAppendsWithoutAllocating(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},` + meta + `}}`)
	buf := make([]byte, 0, 1024)
	allocs := testing.AllocsPerRun(100, func() { buf, _ = limit.Handle(buf[:0], msg) })
	assert.Zero(t, allocs)
}
