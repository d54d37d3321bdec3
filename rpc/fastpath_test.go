package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

const fastTestSchemaURL = "https://schemarpc.dev/test/fast.json"

// fastTestRouter has methods whose params schemas the fast path models
// fully (add), partly (tag: a pattern and an enum of objects) and not at
// all (none).
func fastTestRouter() *Router {
	set := NewSchemaSet(map[string]string{fastTestSchemaURL: `{"$defs": {
		"add": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "integer", "minimum": 0}},
			"required": ["a", "b"], "additionalProperties": false},
		"tag": {"type": "object", "properties": {"name": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 8},
			"kind": {"enum": ["x", {"y": 1}]}, "items": {"type": "array", "items": {"$ref": "#/$defs/tag"}}},
			"required": ["name"]},
		"none": {"type": "object", "unevaluatedProperties": false, "properties": {"a": {}}}
	}}`})
	r := NewRouter()
	echo := func(ctx context.Context, req *Request) (any, error) { return req.Params, nil }
	for _, name := range []string{"add", "tag", "none"} {
		r.Register(name, Method{Params: set.Schema(fastTestSchemaURL + "#/$defs/" + name), Handler: echo})
	}
	r.Register("any", Method{Handler: echo})
	return r
}

var fastPathCases = []string{
	`{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":1}`,
	`{"jsonrpc":"2.0","method":"add","params":{"a":1.5,"b":2.0},"id":"x"}`,
	`{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":-2},"id":1}`,
	`{"jsonrpc":"2.0","method":"add","params":{"a":"1","b":2},"id":1}`,
	`{"jsonrpc":"2.0","method":"add","params":{"a":1},"id":1}`,
	`{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2,"c":3},"id":1}`,
	`{"jsonrpc":"2.0","method":"add","id":1}`,
	`{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`,
	`{"jsonrpc":"2.0","method":"tag","params":{"name":"abc","kind":{"y":1},"items":[{"name":"d"}]},"id":1}`,
	`{"jsonrpc":"2.0","method":"tag","params":{"name":"ABC"},"id":1}`,
	`{"jsonrpc":"2.0","method":"tag","params":{"name":"abcdefghij"},"id":1}`,
	`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","items":[{"name":1}]},"id":1}`,
	`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","kind":"z"},"id":1}`,
	`{"jsonrpc":"2.0","method":"none","params":{"a":1},"id":1}`,
	`{"jsonrpc":"2.0","method":"none","params":{"b":1},"id":1}`,
	`{"jsonrpc":"2.0","method":"any","params":{"z":[1,{"\u0061":null}]},"id":null}`,
	`{"jsonrpc":"2.0","method":"any","id":1,"extra":true}`,
	`{"jsonrpc":"1.0","method":"any","id":1}`,
	`{"jsonrpc":"2.0","method":1,"id":1}`,
	`{"jsonrpc":"2.0","method":"any","id":{}}`,
	`{"jsonrpc":"2.0","method":"any","params":"x","id":1}`,
	`{"jsonrpc":"2.0","method":"any","params":{}}`,
	`{"jsonrpc":"2.0","result":1,"id":1}`,
	`{"jsonrpc":"2.0","error":{"code":1,"message":"m"},"id":1}`,
	`{"jsonrpc":"2.0","result":1,"error":{"code":1,"message":"m"},"id":1}`,
	`{"jsonrpc":"2.0","id":1}`,
	`[{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":1},{"jsonrpc":"2.0","method":"add","params":{"a":1},"id":2},5]`,
	`{"jsonrpc":"2.0","method":"any","id":1,"id":2}`,
	`{"jsonrpc":"2.0","method":"any","params":{"a":"\ud800"},"id":1}`,
	` {"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":1}` + "\r\n",
	`{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":1} x`,
	`{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":1}{}`,
	`{"jsonrpc":"2.0","method":"any","params":{"_meta":{"k":{"deep":[1,{"s":"caf\u00e9"}]}},"a":[]},"id":1}`,
	`{"jsonrpc":"2.0","method":"any","params":{"a":{"b":1,"b":2}},"id":1}`,
	`{"params":{"a":1,"b":2},"id":1,"jsonrpc":"2.0","method":"add"}`,
	`{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"3"}],"n":[1,2]},"id":1}`,
	`{"jsonrpc":"2.0","result":{"a":1,"a":2},"id":1}`,
	`[]`, `[1]`, `{`, ``,
}

// frameReplies runs one frame through an engine and returns its replies and
// the responses it delivered, sorted, with the fast path on or off.
func frameReplies(t testing.TB, msg []byte, fast bool) []string {
	old := fastPath
	fastPath = fast
	defer func() { fastPath = old }()
	e := newEngine(buildOptions([]Option{WithHandler(fastTestRouter())}))
	var out []string
	e.frame(context.Background(), msg, true, func(r *Response) {
		var b bytes.Buffer
		encodeValue(&b, map[string]any{"id": r.ID.String(), "result": r.Result, "error": r.Error})
		out = append(out, "delivered "+b.String())
	}, func(b []byte) { out = append(out, string(b)) })
	sort.Strings(out)
	return out
}

func TestTheFastPathAnswersEveryMessageAsTheSlowPathDoes(t *testing.T) {
	for _, c := range fastPathCases {
		assert.Equal(t, frameReplies(t, []byte(c), false), frameReplies(t, []byte(c), true), c)
	}
}

func TestAValidCallTakesTheFastPath(t *testing.T) {
	e := newEngine(buildOptions([]Option{WithHandler(fastTestRouter())}))
	msg := []byte(`{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":1}`)
	items, _, perr := decodeFrame(msg, DefaultMaxDepth)
	require.Nil(t, perr)
	require.NotNil(t, items[0].req)
	assert.False(t, items[0].req.hasTree, "no tree was built")
	var reply []byte
	e.frame(context.Background(), msg, true, func(*Response) {}, func(b []byte) { reply = b })
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":{"a":1,"b":2}}`, string(reply))
}

func FuzzFastPathAgreesWithSlowPath(f *testing.F) {
	for _, c := range fastPathCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		slow, fast := frameReplies(t, msg, false), frameReplies(t, msg, true)
		if len(slow) != len(fast) {
			t.Fatalf("%q: slow %q, fast %q", msg, slow, fast)
		}
		for i := range slow {
			if slow[i] != fast[i] {
				t.Fatalf("%q: slow %q, fast %q", msg, slow, fast)
			}
		}
	})
}

func TestParamsReplacedAfterReadingAreCheckedInFull(t *testing.T) {
	r := fastTestRouter()
	r.Use(func(next Handler) Handler {
		return HandlerFunc(func(ctx context.Context, req *Request) (any, error) {
			// A repeated name the schema does not mention: valid by the
			// schema alone, refused by the strict scanner.
			req.Params = json.RawMessage(`{"name":"a","x":1,"x":2}`)
			return next.Handle(ctx, req)
		})
	})
	e := newEngine(buildOptions([]Option{WithHandler(r)}))
	var reply []byte
	e.frame(context.Background(), []byte(`{"jsonrpc":"2.0","method":"tag","params":{"name":"abc","x":1234},"id":1}`), true,
		func(*Response) {}, func(b []byte) { reply = b })
	assert.Contains(t, string(reply), `"code":-32602`)
}

func TestOnlyTheParamsOfAReadMessageCountAsScanned(t *testing.T) {
	items, _, perr := decodeFrame([]byte(`{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":1}`), DefaultMaxDepth)
	require.Nil(t, perr)
	req := items[0].req
	assert.True(t, req.paramsScanned(), "read with the message")
	req.Params = append(json.RawMessage(nil), req.Params...)
	assert.False(t, req.paramsScanned(), "a copy set since")
	assert.False(t, (&Request{Params: json.RawMessage(`{}`)}).paramsScanned(), "made by hand")
}

func TestARecurringParamsValueIsCheckedAsAnyOther(t *testing.T) {
	r := fastTestRouter()
	answer := func(msg string, mark func(req *Request)) string {
		items, _, perr := decodeFrame([]byte(msg), DefaultMaxDepth)
		require.Nil(t, perr, msg)
		req := items[0].req
		if mark != nil {
			mark(req)
		}
		res, err := r.Handle(context.Background(), req)
		if err != nil {
			return err.Error()
		}
		return string(res.(json.RawMessage))
	}
	member := func(name string) func(req *Request) {
		return func(req *Request) {
			params := req.Params[:len(req.Params):len(req.Params)] // a value's capacity runs to the params' end
			v, ok := jsonscan.Member(params, name)
			if ok {
				start := len(req.Params) - cap(v)
				req.MarkRecurring(start, start+len(v))
			}
		}
	}
	for _, msg := range []string{
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","kind":{"y":1}},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","kind":{"y":1}},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"kind":{"y":1},"name":"B"},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"kind":{"y":1},"name":"b"},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","kind":{"y":2}},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","kind":{"y":1,"z":1}},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","kind":{"y":1}},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","items":[{"name":"a","kind":{"y":1}}]},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","items":[{"name":"a","kind":{"y":3}}]},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","items":[{"name":"C"}]},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","items":[{"name":"c"}]},"id":1}`,
		`{"jsonrpc":"2.0","method":"tag","params":{"name":"a","items":[{"name":"C"}]},"id":1}`,
		`{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":1}`,
		`{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":-2},"id":1}`,
	} {
		want := answer(msg, nil)
		for _, name := range []string{"kind", "items", "name", "a", "b"} {
			assert.Equal(t, want, answer(msg, member(name)), "%s with %s recurring", msg, name)
		}
		assert.Equal(t, want, answer(msg, func(req *Request) { req.MarkRecurring(1, 3) }), "%s, a wrong extent", msg)
		assert.Equal(t, want, answer(msg, func(req *Request) { req.MarkRecurring(-1, 1<<20) }), "%s, an extent outside the params", msg)
	}
}
