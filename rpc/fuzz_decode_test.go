package rpc_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

// decodeSeeds are the messages every decoding target starts from: each
// kind of message, each kind of malformed one, and the strict policy's
// refusals (duplicate names, lone surrogates, invalid UTF-8, trailing data).
var decodeSeeds = []string{
	`{"jsonrpc":"2.0","method":"echo","params":{"a":1},"id":1}`,
	`{"jsonrpc":"2.0","method":"echo","params":[1,"two",null],"id":"x\u00e9"}`,
	`{"jsonrpc":"2.0","method":"note"}`,
	`{"jsonrpc":"2.0","method":"echo","id":null}`,
	`{"jsonrpc":"2.0","result":{"ok":true},"id":7}`,
	`{"jsonrpc":"2.0","error":{"code":-32601,"message":"nope","data":[1]},"id":"7"}`,
	`{"jsonrpc":"2.0","error":{"code":1.0,"message":"x"},"id":1}`,
	`{"jsonrpc":"2.0","result":1}`,
	`{"jsonrpc":"1.0","method":"echo","id":2}`,
	`{"jsonrpc":"2.0","method":"echo","params":"str","id":3}`,
	`{"jsonrpc":"2.0","method":1,"id":4}`,
	`{"jsonrpc":"2.0","method":"echo","id":{"a":1}}`,
	`{"jsonrpc":"2.0","method":"echo","Method":"x","id":5}`,
	`{"jsonrpc":"2\u002e0","method":"\u0065cho","id":6}`,
	`{"id":8}`, `1`, `"x"`, `null`, `[]`, `[1]`, `[[]]`,
	`[{"jsonrpc":"2.0","method":"echo","id":1},{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","result":0,"id":9}]`,
	`{"jsonrpc":"2.0","method":"echo","id":1,"id":2}`,
	`{"jsonrpc":"2.0","method":"echo","\u0069d":1,"id":2}`,
	`{"jsonrpc":"2.0","method":"\ud800","id":1}`,
	`{"jsonrpc":"2.0","method":"\udc00\ud800","id":1}`,
	`{"jsonrpc":"2.0","method":"\ud83d\ude00","id":1}`,
	"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\",\"id\":1}",
	`{"jsonrpc":"2.0","method":"echo","id":1}x`, `{"jsonrpc":"2.0","method":"echo","id":1} {}`,
	`{"jsonrpc":"2.0","method":"echo","id":123456789012345678901234567890}`,
	`{"jsonrpc":"2.0","method":"echo","id":-0.5e-7}`,
	"\t {\"jsonrpc\":\"2.0\",\"method\":\"echo\",\"id\":1}\r ", "", " ", "{", "nul", "\xef\xbb\xbf{}",
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
}

// FuzzDecodeMessage checks rpc.ParseFrame, the decoder every transport
// uses, against the oracles of fuzz_oracle_test.go:
//
//   - it refuses the input, with -32700, exactly when the input is not one
//     JSON text under the strict policy (encoding/json validity plus valid
//     UTF-8, no lone surrogate, unique member names, depth at most 1000);
//   - otherwise it gives every message exactly one kind, the kind the
//     envelope rules give it, with the id, method and params bytes of the
//     input unchanged;
//   - a request or response encoded again from what was decoded decodes to
//     the same thing.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, perr := rpc.ParseFrame(b)
		ok := acceptable(b, rpc.DefaultMaxDepth)
		if !ok {
			if perr == nil || perr.Code != rpc.CodeParseError || fr != nil {
				t.Fatalf("%q is not JSON under the policy, yet ParseFrame gave %+v, %v", b, fr, perr)
			}
			return
		}
		if perr != nil {
			t.Fatalf("%q is JSON under the policy, yet ParseFrame refused it: %v", b, perr)
		}
		items, batch := frameItems(b)
		if fr.Batch != batch || len(fr.Messages) != len(items) {
			t.Fatalf("%q: batch=%v with %d messages, want batch=%v with %d", b, fr.Batch, len(fr.Messages), batch, len(items))
		}
		for i, raw := range items {
			checkMessage(t, raw, fr.Messages[i])
		}
	})
}

// checkMessage compares one decoded message with the oracle's verdict.
func checkMessage(t *testing.T, raw json.RawMessage, m rpc.Message) {
	t.Helper()
	exp := classifyMessage(raw)
	set := 0
	for _, p := range []bool{m.Request != nil, m.Response != nil, m.Invalid != nil} {
		if p {
			set++
		}
	}
	if set != 1 {
		t.Fatalf("%s: %d of Request, Response, Invalid set, want exactly one", raw, set)
	}
	if exp.maybeResponse && (m.Kind == rpc.KindResponse || m.LooksLikeResponse) {
		return // either verdict is allowed; the round trip is checked for responses below
	}
	if m.Kind != exp.kind {
		t.Fatalf("%s: kind %v, want %v (invalid: %v)", raw, m.Kind, exp.kind, m.Invalid)
	}
	switch m.Kind {
	case rpc.KindRequest, rpc.KindNotification:
		if m.Request == nil || m.Request.Method != exp.method || !bytes.Equal(m.Request.Params, exp.params) {
			t.Fatalf("%s: decoded %+v, want method %q params %s", raw, m.Request, exp.method, exp.params)
		}
		if m.Kind == rpc.KindRequest && m.ID.String() != exp.id {
			t.Fatalf("%s: id %s, want %s byte for byte", raw, m.ID, exp.id)
		}
		reencodeRequest(t, m)
	case rpc.KindResponse:
		if m.ID.String() != exp.id {
			t.Fatalf("%s: id %s, want %s byte for byte", raw, m.ID, exp.id)
		}
		reencodeResponse(t, m)
	default:
		if m.Invalid == nil || m.Invalid.Code != rpc.CodeInvalidRequest {
			t.Fatalf("%s: invalid message without a -32600 error: %+v", raw, m.Invalid)
		}
		if m.LooksLikeResponse != exp.responseLike {
			t.Fatalf("%s: looks like a response %v, want %v", raw, m.LooksLikeResponse, exp.responseLike)
		}
		if !m.LooksLikeResponse && m.ID.String() != exp.id {
			t.Fatalf("%s: an error would answer id %s, want %s", raw, m.ID, exp.id)
		}
	}
}

// reencodeRequest encodes a decoded call again and decodes it: the same
// method, params and id come back.
func reencodeRequest(t *testing.T, m rpc.Message) {
	t.Helper()
	env := []string{"jsonrpc", `"2.0"`, "method", string(mustMarshal(t, m.Request.Method))}
	if m.Request.Params != nil {
		env = append(env, "params", string(m.Request.Params))
	}
	if m.Kind == rpc.KindRequest {
		env = append(env, "id", m.ID.String())
	}
	again := single(t, object(env...))
	if again.Kind != m.Kind || again.Request.Method != m.Request.Method || again.ID != m.ID ||
		!sameJSON(again.Request.Params, m.Request.Params) {
		t.Fatalf("re-encoded call decodes differently: %+v then %+v", m.Request, again.Request)
	}
}

// reencodeResponse encodes a decoded response again and decodes it.
func reencodeResponse(t *testing.T, m rpc.Message) {
	t.Helper()
	var b []byte
	if m.Response.Error != nil {
		b = rpc.EncodeError(m.ID, m.Response.Error)
	} else {
		b = object("jsonrpc", `"2.0"`, "id", m.ID.String(), "result", string(m.Response.Result))
	}
	again := single(t, b)
	if again.Kind != rpc.KindResponse || again.ID != m.ID {
		t.Fatalf("re-encoded response %s decodes as %v id %s", b, again.Kind, again.ID)
	}
	switch e, e2 := m.Response.Error, again.Response.Error; {
	case e == nil:
		if e2 != nil || !sameJSON(again.Response.Result, m.Response.Result) {
			t.Fatalf("re-encoded result %s decodes differently", b)
		}
	case e2 == nil || e.Code != e2.Code || e.Message != e2.Message || !sameJSON(e.Data, e2.Data):
		t.Fatalf("re-encoded error %s decodes differently: %+v then %+v", b, e, e2)
	}
}

// single decodes b, which must be one valid message.
func single(t *testing.T, b []byte) rpc.Message {
	t.Helper()
	fr, perr := rpc.ParseFrame(b)
	if perr != nil || fr.Batch || len(fr.Messages) != 1 {
		t.Fatalf("re-encoded %s does not decode as one message: %v", b, perr)
	}
	return fr.Messages[0]
}

// object writes the members given as name, raw value pairs as one JSON
// object, bytes unchanged (json.Marshal would re-escape raw values).
func object(pairs ...string) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := 0; i < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(pairs[i])
		b.Write(name)
		b.WriteByte(':')
		b.WriteString(pairs[i+1])
	}
	b.WriteByte('}')
	return b.Bytes()
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %v: %v", v, err)
	}
	return b
}

// sameJSON reports whether a and b are the same JSON text but for
// insignificant whitespace (nil and empty alike).
func sameJSON(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}
