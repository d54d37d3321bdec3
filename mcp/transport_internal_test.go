package mcp

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMentionsInitializeFindsWhatContainsFinds(t *testing.T) {
	for _, in := range []string{
		``, `z`, `"initialize"`, `x"initialize"y`, `"initialize`, `initialize"`, `"initializ"`,
		`zzzzzzzzzz"initialize"`, `"initializ""initialize"`, `"initialize"zzz`, `"initializeX"`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"initialize"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sizes"}}`,
	} {
		assert.Equal(t, bytes.Contains([]byte(in), []byte(`"initialize"`)), mentionsInitialize([]byte(in)), "%q", in)
	}
}

func TestIsInitializeTakesOnlyAnInitializeRequest(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, true},
		{`{"jsonrpc":"2.0","method":"initialize","params":{}}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"initialize"}}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sizes"}}`, false},
		{`[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}]`, false},
	} {
		assert.Equal(t, tc.want, isInitialize([]byte(tc.msg)), tc.msg)
	}
}
