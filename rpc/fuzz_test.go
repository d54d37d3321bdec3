package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
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

// chunkReader returns its data n bytes at a time.
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(r.n, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// FuzzStreamFraming checks that the stream transport yields the same
// messages however its input is chunked, and that a line is refused exactly
// when it is longer than the limit.
func FuzzStreamFraming(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n  \r\n[1,2]\r\nlast"), uint8(1), uint16(8))
	f.Add([]byte("xxxxxxxxxxxxxxxxxxxx\nok\n"), uint8(3), uint16(4))
	f.Add([]byte("12345678\r\n123456789\n"), uint8(7), uint16(8))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8, limit uint16) {
		lim := int(limit%64) + 1
		// The expected messages, from the documented rules.
		var want []string
		segs := bytes.Split(data, []byte("\n"))
		for i, seg := range segs {
			last := i == len(segs)-1
			if last && len(seg) == 0 {
				break
			}
			if !last {
				seg = bytes.TrimSuffix(seg, []byte("\r"))
			}
			switch {
			case len(seg) > lim:
				want = append(want, "<too large>")
			case len(bytes.Trim(seg, " \t\r")) > 0:
				want = append(want, string(seg))
			}
		}
		tr := NewStreamTransport(&chunkReader{data: data, n: int(chunk%16) + 1}, io.Discard, WithMaxMessageSize(lim))
		var got []string
		for {
			msg, err := tr.Read(t.Context())
			if errors.Is(err, io.EOF) {
				break
			}
			if errors.Is(err, ErrMessageTooLarge) {
				got = append(got, "<too large>")
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(msg))
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("input %q, chunk %d, limit %d:\n got %q\nwant %q", data, chunk%16+1, lim, got, want)
		}
	})
}

// FuzzIDRoundTrip checks that every id that is a JSON string or number
// comes back byte for byte.
func FuzzIDRoundTrip(f *testing.F) {
	for _, s := range []string{`1`, `-0`, `1e3`, `1.5E-300`, `9007199254740993`, `123456789012345678901234567890`,
		`"\u00e9"`, `"é"`, `""`, `"\ud83d\ude00"`, `"a\"b\\c"`, `null`} {
		f.Add(s)
	}
	e := newEngine(buildOptions([]Option{WithHandler(benchRouter())}))
	f.Fuzz(func(t *testing.T, id string) {
		v, err := parse([]byte(id), DefaultMaxDepth)
		if err != nil {
			return
		}
		switch v.(type) {
		case string, json.Number, nil:
		default:
			return
		}
		id = strings.Trim(id, " \t\r\n")
		msg := `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":` + id + `}`
		var reply []byte
		e.frame(t.Context(), []byte(msg), true, func(*Response) {}, func(b []byte) { reply = b })
		if want := `{"jsonrpc":"2.0","id":` + id + `,"result":3}`; string(reply) != want {
			t.Fatalf("id %q:\n got %s\nwant %s", id, reply, want)
		}
	})
}
