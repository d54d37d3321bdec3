package rpc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestParseFrameClassifiesEachMessage(t *testing.T) {
	cases := []struct {
		name, in string
		batch    bool
		kinds    []rpc.MessageKind
		ids      []string
		looks    []bool
	}{
		{"request", `{"jsonrpc":"2.0","id":7,"method":"m"}`, false, []rpc.MessageKind{rpc.KindRequest}, []string{"7"}, []bool{false}},
		{"notification", `{"jsonrpc":"2.0","method":"m","params":{}}`, false, []rpc.MessageKind{rpc.KindNotification}, []string{""}, []bool{false}},
		{"result", `{"jsonrpc":"2.0","id":"a","result":{}}`, false, []rpc.MessageKind{rpc.KindResponse}, []string{`"a"`}, []bool{false}},
		{"error", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, false, []rpc.MessageKind{rpc.KindResponse}, []string{"null"}, []bool{false}},
		{"bad jsonrpc", `{"jsonrpc":"1.0","id":1,"method":"m"}`, false, []rpc.MessageKind{rpc.KindInvalid}, []string{"1"}, []bool{false}},
		{"bad response", `{"jsonrpc":"2.0","id":2,"result":{},"error":{"code":1,"message":"x"}}`, false, []rpc.MessageKind{rpc.KindInvalid}, []string{"2"}, []bool{true}},
		{"error member of the wrong shape", `{"jsonrpc":"2.0","id":3,"error":{"code":"x","message":"y"}}`, false, []rpc.MessageKind{rpc.KindInvalid}, []string{"3"}, []bool{true}},
		{"not an object", `3`, false, []rpc.MessageKind{rpc.KindInvalid}, []string{"null"}, []bool{false}},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":1,"result":null}]`, true,
			[]rpc.MessageKind{rpc.KindRequest, rpc.KindNotification, rpc.KindResponse}, []string{"1", "", "1"}, []bool{false, false, false}},
		{"empty batch", `[]`, true, nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := rpc.ParseFrame([]byte(c.in))
			require.Nil(t, err)
			assert.Equal(t, c.batch, f.Batch)
			require.Len(t, f.Messages, len(c.kinds))
			for i, m := range f.Messages {
				assert.Equal(t, c.kinds[i], m.Kind, "message %d", i)
				assert.Equal(t, c.ids[i], m.ID.String(), "message %d", i)
				assert.Equal(t, c.looks[i], m.LooksLikeResponse, "message %d", i)
				if m.Kind == rpc.KindInvalid {
					require.NotNil(t, m.Invalid)
					assert.Equal(t, rpc.CodeInvalidRequest, m.Invalid.Code)
				}
			}
		})
	}
}

func TestParseFrameRejectsWhatIsNotJSON(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":1} {"b":2}`, `[1,]`} {
		_, err := rpc.ParseFrame([]byte(in))
		require.NotNil(t, err, in)
		assert.Equal(t, rpc.CodeParseError, err.Code, in)
	}
}

func TestCheckParamsAnswersLikeTheRouter(t *testing.T) {
	s := rpc.NewSchemaSet(map[string]string{"https://example.test/p.json": `{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}}`}).
		MustCompile("https://example.test/p.json")
	parse := func(in string) *rpc.Request {
		f, err := rpc.ParseFrame([]byte(in))
		require.Nil(t, err)
		return f.Messages[0].Request
	}
	assert.Nil(t, parse(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}`).CheckParams(s, rpc.ByName, nil))
	e := parse(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"x"}}`).CheckParams(s, rpc.ByName, nil)
	require.NotNil(t, e)
	assert.Equal(t, rpc.CodeInvalidParams, e.Code)
	assert.Contains(t, e.Message, "/a")
	assert.Nil(t, parse(`{"jsonrpc":"2.0","id":1,"method":"m","params":[5]}`).CheckParams(s, rpc.ByPosition, []string{"a"}))
	e = parse(`{"jsonrpc":"2.0","id":1,"method":"m","params":["x"]}`).CheckParams(s, rpc.ByPosition, []string{"a"})
	require.NotNil(t, e)
	assert.Contains(t, e.Message, "/0", "positions are reported as the caller sent them")
	e = parse(`{"jsonrpc":"2.0","id":1,"method":"m"}`).CheckParams(s, rpc.ByName, nil)
	require.NotNil(t, e, "absent params are checked as an empty object")
}

func TestCheckResult(t *testing.T) {
	s := rpc.NewSchemaSet(map[string]string{"https://example.test/r.json": `{"type": "object", "required": ["n"]}`}).
		MustCompile("https://example.test/r.json")
	resp := func(in string) *rpc.Response {
		f, err := rpc.ParseFrame([]byte(in))
		require.Nil(t, err)
		return f.Messages[0].Response
	}
	assert.Nil(t, resp(`{"jsonrpc":"2.0","id":1,"result":{"n":1}}`).CheckResult(s, rpc.CodeInternalError))
	e := resp(`{"jsonrpc":"2.0","id":1,"result":{}}`).CheckResult(s, rpc.CodeInternalError)
	require.NotNil(t, e)
	assert.Equal(t, rpc.CodeInternalError, e.Code)
	assert.NotEmpty(t, e.Data)
	assert.Nil(t, resp(`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}`).CheckResult(s, rpc.CodeInternalError), "an error response has no result")
	built := &rpc.Response{Result: []byte(`{"n":2}`)}
	assert.Nil(t, built.CheckResult(s, rpc.CodeInternalError), "a response built in memory is parsed on demand")
	built = &rpc.Response{Result: []byte(`{`)}
	assert.NotNil(t, built.CheckResult(s, rpc.CodeInternalError))
}

func TestParseFrameOfOneCallAllocatesOnceForTheFrame(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`)
	allocs := testing.AllocsPerRun(100, func() {
		f, perr := rpc.ParseFrame(msg)
		if perr != nil || f.Messages[0].Kind != rpc.KindRequest {
			t.Fatalf("%v %v", f, perr)
		}
	})
	// The frame with its message, and the request (which a call may keep
	// longer than the frame's bytes); the request's id is a string of its
	// own. The method name is the one the table of repeated strings holds.
	assert.Equal(t, 3.0, allocs)
}
