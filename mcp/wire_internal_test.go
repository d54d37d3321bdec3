package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseWireReadsOnlyAWellFormedEnvelope(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		kind int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, true, wireRequest},
		{`{"jsonrpc":"2.0","method":"notifications/progress"}`, true, wireNotification},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, true, wireResponse},
		{`{"jsonrpc":"2.0","result":{}}`, true, wireInvalid}, // a response without an id matches nothing
		{`{"jsonrpc":"2.0","method":5}`, false, 0},
		{`{"jsonrpc":"2.0","id":1,"error":"boom"}`, false, 0},
		{`{"jsonrpc":"2.0","id":1,"id":2,"result":{}}`, false, 0},
		{`[{"jsonrpc":"2.0","id":1,"result":{}}]`, false, 0},
	} {
		m, ok := parseWire([]byte(tc.in))
		assert.Equal(t, tc.ok, ok, tc.in)
		if ok {
			assert.Equal(t, tc.kind, m.kind(), tc.in)
		}
	}
}

func TestOutboundIDsReadsTheIDsOfTheResponsesInAMessage(t *testing.T) {
	for _, tc := range []struct {
		in         string
		ids        []string
		isResponse bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, []string{"1"}, true},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, nil, true},
		{`{"jsonrpc":"2.0","method":"notifications/progress"}`, nil, false},
		{`{"jsonrpc":"2.0","id":3,"method":"ping"}`, nil, false},
		{` [{"jsonrpc":"2.0","id":"a","result":1}, {"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}] `, []string{`"a"`, "2"}, true},
		// A batch that is not all messages names no ids.
		{`[{"jsonrpc":"2.0","id":1,"result":1},5]`, nil, true},
		{`[{"jsonrpc":"2.0","id":1,"result":1},`, nil, true},
	} {
		ids, isResponse := outboundIDs([]byte(tc.in))
		assert.Equal(t, tc.ids, ids, tc.in)
		assert.Equal(t, tc.isResponse, isResponse, tc.in)
	}
}
