package rpc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks the strict parser against encoding/json: everything it
// accepts is valid JSON with the same value; everything valid it refuses is
// refused for a documented reason (duplicate name, lone surrogate, depth).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`,
		`[{"a":1},{"b":[true,false,null]}]`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `{"a":1,"a":2}`,
		`{"a":1,"\u0061":2}`, `-0`, `1e3`, `123456789012345678901234567890`, `1.`, `01`, `[`, `"\x"`,
		"\"\xff\"", `  {"k" : [ 1 , 2 ] }  `, `[[[[[[[[[[[[0]]]]]]]]]]]]`, `{"a":"b"}x`, `nul`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		const depth = 10
		tree, err := parse(b, depth)
		valid := json.Valid(b) && utf8.Valid(b)
		if err == nil {
			if !valid {
				t.Fatalf("accepted invalid JSON %q", b)
			}
			// The same value as encoding/json, numbers compared by text.
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			var want any
			if err := dec.Decode(&want); err != nil {
				t.Fatalf("encoding/json cannot decode %q: %v", b, err)
			}
			gotJSON, _ := json.Marshal(tree)
			wantJSON, _ := json.Marshal(want)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Fatalf("value differs for %q:\n got %s\nwant %s", b, gotJSON, wantJSON)
			}
			return
		}
		if valid {
			msg := err.Error()
			if !strings.Contains(msg, "duplicate member name") && !strings.Contains(msg, "lone surrogate") &&
				!strings.Contains(msg, "nesting deeper") {
				t.Fatalf("refused valid JSON %q: %v", b, err)
			}
		}
	})
}

// FuzzFrame checks that any input gets exactly one classification and that
// every reply the engine writes is a well-formed response.
func FuzzFrame(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`, `[]`, `[1,2]`, `{"jsonrpc":"2.0","result":1,"id":1}`,
		`[{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":"x"},{"jsonrpc":"2.0","method":"n"}]`,
		`{"jsonrpc":"2.0","method":"add","Method":"x","id":1}`, `{`,
	} {
		f.Add([]byte(s))
	}
	e := newEngine(buildOptions([]Option{WithHandler(benchRouter())}))
	f.Fuzz(func(t *testing.T, b []byte) {
		var replies [][]byte
		e.frame(t.Context(), b, true, func(*Response) {}, func(r []byte) { replies = append(replies, r) })
		if len(replies) > 1 {
			t.Fatalf("%d replies to one frame", len(replies))
		}
		for _, r := range replies {
			if !json.Valid(r) || !utf8.Valid(r) {
				t.Fatalf("invalid reply %q to %q", r, b)
			}
			var one map[string]json.RawMessage
			var many []map[string]json.RawMessage
			if json.Unmarshal(r, &one) == nil {
				many = append(many, one)
			} else if err := json.Unmarshal(r, &many); err != nil || len(many) == 0 {
				t.Fatalf("reply neither a response nor a non-empty batch: %q", r)
			}
			for _, m := range many {
				_, hasResult := m["result"]
				_, hasError := m["error"]
				if string(m["jsonrpc"]) != `"2.0"` || m["id"] == nil || hasResult == hasError {
					t.Fatalf("malformed response %q to %q", r, b)
				}
			}
		}
	})
}
