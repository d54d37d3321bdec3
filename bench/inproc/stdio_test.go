package inproc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEveryServerAnswersToolCallsOverStdioInBothEras(t *testing.T) {
	for _, srv := range servers {
		for _, e := range eras {
			t.Run(srv.name+"/"+e.name, func(t *testing.T) {
				s := startSession(t, srv.serve)
				defer s.close(t)
				begin(t, s, e)
				for i, c := range toolCalls {
					s.send(t, c.request(nil, e, i+1))
					reply := s.recv(t)
					id, wrong := c.check(reply, e)
					assert.Empty(t, wrong, "%s: %s", c.tool, reply)
					assert.Equal(t, i+1, id, "%s: %s", c.tool, reply)
				}
			})
		}
	}
}

func TestCheckRejectsWrongReplies(t *testing.T) {
	add := toolCalls[0]
	handshake, stateless := eras[0], eras[1]
	tests := []struct {
		name  string
		era   era
		reply string
		wrong string
	}{
		{"right handshake reply", handshake, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3}}}`, ""},
		{"right stateless reply", stateless, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3},"resultType":"complete"}}`, ""},
		{"no id", handshake, `{"jsonrpc":"2.0","result":{}}`, "no integer id"},
		{"string id", handshake, `{"jsonrpc":"2.0","id":"7","result":{}}`, "no integer id"},
		{"error", handshake, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"x"}}`, "an error"},
		{"tool error", handshake, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"3"}],"isError":true}}`, "an error"},
		{"stateless without resultType", stateless, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3}}}`, "no resultType complete"},
		{"wrong sum", handshake, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"4"}],"structuredContent":{"sum":4}}}`, `no "text":"3"`},
		{"no structured content", handshake, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"3"}]}}`, `no "structuredContent":{"sum":3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, wrong := add.check([]byte(tt.reply), tt.era)
			assert.Equal(t, tt.wrong, wrong)
		})
	}
}

func TestNotificationsAreToldFromReplies(t *testing.T) {
	assert.True(t, isNotification([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`)))
	assert.False(t, isNotification([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)))
}
