package rpc_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

func TestEnvelopeKindFollowsTheMembers(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		kind rpc.MessageKind
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"m","params":{}}`, rpc.KindRequest},
		{`{"jsonrpc":"2.0","id":null,"method":"m"}`, rpc.KindRequest},
		{`{"jsonrpc":"2.0","method":"m"}`, rpc.KindNotification},
		{`{"jsonrpc":"2.0","\u006dethod":"m"}`, rpc.KindNotification},
		{`{"jsonrpc":"2.0","id":1,"result":null}`, rpc.KindResponse},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, rpc.KindResponse},
		{`{"jsonrpc":"2.0","method":"m","result":1}`, rpc.KindNotification},
		{`{"jsonrpc":"2.0","id":1}`, rpc.KindInvalid},
		{`{"Method":"m","id":1}`, rpc.KindInvalid},
	} {
		e, ok := rpc.ReadEnvelope([]byte(tc.msg))
		require.True(t, ok, tc.msg)
		assert.Equal(t, tc.kind, e.Kind(), tc.msg)
	}
}

func TestReadEnvelopeKeepsTheMembersRaw(t *testing.T) {
	e, ok := rpc.ReadEnvelope([]byte(` {"id": "a" ,"method":"m","params":[1, 2],"jsonrpc":"2.0"} `))
	require.True(t, ok)
	assert.Equal(t, rpc.Envelope{ID: []byte(`"a"`), Method: []byte(`"m"`), Params: []byte(`[1, 2]`)}, e)
}

func TestReadEnvelopeRefusesWhatTheConnectionRefuses(t *testing.T) {
	for _, msg := range []string{
		`{"id":1,"id":2,"method":"m"}`, "{\"method\":\"\xff\"}", `{"method":"\ud800"}`, `{"method":"m"`,
		`[{"method":"m"}]`, `"m"`, ``,
	} {
		_, ok := rpc.ReadEnvelope([]byte(msg))
		assert.False(t, ok, "%q", msg)
	}
}

func TestReadEnvelopeAcceptsTheObjectsTheStrictScannerAccepts(t *testing.T) {
	nested := func(depth int) string {
		return `{"method":"m","params":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
	}
	for _, msg := range []string{
		`{"method":"m"}`, " \t{\"method\":\"m\"}\r\n", `{}`, `{"method":"m"} x`, `{"method":"m"}{}`,
		`{"params":{"a":{"b":1,"b":2}}}`, "{\"params\":[\"\xff\"]}", `{"params":[1,]}`, `{"params":{"a":1}`,
		`{"met\u0068od":"m","method":"n"}`, `{"method":"m","method":"n"}`, `null`, `[]`, `1`,
		nested(rpc.DefaultMaxDepth), nested(rpc.DefaultMaxDepth + 1),
	} {
		wantOK := jsonscan.Strict([]byte(msg), rpc.DefaultMaxDepth) && strings.HasPrefix(strings.TrimSpace(msg), "{")
		e, ok := rpc.ReadEnvelope([]byte(msg))
		assert.Equal(t, wantOK, ok, "%.60q", msg)
		if !ok {
			assert.Equal(t, rpc.Envelope{}, e, "%.60q", msg)
		}
	}
}

func TestIsBatchLooksAtTheFirstByteAfterWhitespace(t *testing.T) {
	for msg, want := range map[string]bool{
		`[{"method":"m"}]`: true, " \r\n\t[]": true, `[`: true,
		`{"method":"m"}`: false, ` "["`: false, ``: false, `  `: false,
	} {
		assert.Equal(t, want, rpc.IsBatch([]byte(msg)), "%q", msg)
	}
}
