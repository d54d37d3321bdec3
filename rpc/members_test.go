package rpc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// memberLog records the members DecodeMembers hands to its callback and
// claims the names in known.
type memberLog struct {
	known map[string]bool
	seen  []string
}

func (l *memberLog) member(name, value []byte) (bool, error) {
	l.seen = append(l.seen, string(name)+"="+string(value))
	return l.known[string(name)], nil
}

func TestDecodeMembersSplitsKnownFromExtra(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		known     []string
		wantSeen  []string
		wantExtra map[string]json.RawMessage
	}{
		{"all known", `{"a": 1, "b": "x"}`, []string{"a", "b"}, []string{`a=1`, `b="x"`}, nil},
		{"unknown kept as written", ` {"a":1, "z" : [1, 2.50] } `, []string{"a"}, []string{`a=1`, `z=[1, 2.50]`}, map[string]json.RawMessage{"z": json.RawMessage(`[1, 2.50]`)}},
		{"names match case-sensitively", `{"A": 1}`, []string{"a"}, []string{`A=1`}, map[string]json.RawMessage{"A": json.RawMessage(`1`)}},
		{"escaped names are decoded", `{"\u0061": 1, "\u007a": 2}`, []string{"a"}, []string{`a=1`, `z=2`}, map[string]json.RawMessage{"z": json.RawMessage(`2`)}},
		{"empty object", `{}`, nil, nil, nil},
		{"null has no members", `null`, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &memberLog{known: map[string]bool{}}
			for _, k := range tt.known {
				l.known[k] = true
			}
			extra, err := rpc.DecodeMembers[json.RawMessage]([]byte(tt.in), l.member)
			require.NoError(t, err)
			assert.Equal(t, tt.wantSeen, l.seen)
			assert.Equal(t, tt.wantExtra, extra)
		})
	}
}

func TestDecodeMembersCopiesRawExtraValues(t *testing.T) {
	in := []byte(`{"z": "abc"}`)
	extra, err := rpc.DecodeMembers[json.RawMessage](in, func(_, _ []byte) (bool, error) { return false, nil })
	require.NoError(t, err)
	copy(in, `{"z": "xyz"}`)
	assert.Equal(t, json.RawMessage(`"abc"`), extra["z"], "the extra value must not alias the input")
}

func TestDecodeMembersDecodesTypedExtra(t *testing.T) {
	extra, err := rpc.DecodeMembers[float64]([]byte(`{"a": 1.5, "b": -2}`), func(_, _ []byte) (bool, error) { return false, nil })
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"a": 1.5, "b": -2}, extra)
}

func TestDecodeMembersRejectsWhatDecodeJSONRejects(t *testing.T) {
	tests := []struct{ name, in string }{
		{"duplicate name", `{"a": 1, "a": 2}`},
		{"duplicate name written with an escape", `{"a": 1, "\u0061": 2}`},
		{"duplicate unknown name", `{"z": 1, "z": 2}`},
		{"not an object", `[1]`},
		{"a string", `"x"`},
		{"empty input", ``},
		{"truncated", `{"a": 1`},
		{"trailing data", `{"a": 1} x`},
		{"invalid UTF-8 in a value", "{\"a\": \"\xff\"}"},
		{"invalid UTF-8 in a name", "{\"\xff\": 1}"},
		{"lone surrogate escape", `{"a": "\ud800"}`},
		{"trailing comma", `{"a": 1,}`},
		{"too deep", `{"a": ` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rpc.DecodeMembers[json.RawMessage]([]byte(tt.in), func(_, _ []byte) (bool, error) {
				return true, nil
			})
			require.Error(t, err, "refused even when every member is claimed")
			var m map[string]json.RawMessage
			assert.Error(t, rpc.DecodeJSON([]byte(tt.in), &m), "DecodeJSON refuses it too")
		})
	}
}

func TestDecodeMembersReportsAFaultInTheTextBeforeAMemberError(t *testing.T) {
	// The object is checked as it is walked, so a member before the fault
	// may be handed out; its error must not hide the fault, which a
	// whole-object decode would have met first.
	tests := []struct{ name, in string }{
		{"trailing comma", `{"a": 1,}`},
		{"repeated name", `{"a": 1, "b": 2, "b": 3}`},
		{"invalid UTF-8 later", "{\"a\": 1, \"b\": \"\xff\"}"},
		{"trailing data", `{"a": 1} x`},
		{"truncated", `{"a": 1, "b": [`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rpc.DecodeMembers[json.RawMessage]([]byte(tt.in), func(name, value []byte) (bool, error) {
				var s string
				return true, rpc.DecodeJSON(value, &s) // "a" is a number: a member error
			})
			require.Error(t, err)
			var derr *rpc.DecodeError
			require.ErrorAs(t, err, &derr)
			assert.True(t, derr.Syntactic(), "the fault in the text is reported, not the member's error: %v", err)
		})
	}
}

func TestDecodeMembersPlacesMemberErrorsAtTheMember(t *testing.T) {
	in := []byte(`{"ok": 1, "a/b": "x"}`)
	var n int
	_, err := rpc.DecodeMembers[json.RawMessage](in, func(name, value []byte) (bool, error) {
		return true, rpc.DecodeJSON(value, &n)
	})
	var derr *rpc.DecodeError
	require.ErrorAs(t, err, &derr)
	assert.Equal(t, "/a~1b", derr.Pointer, "the name is escaped as a pointer token")
	assert.Equal(t, int64(strings.Index(string(in), `"x"`)), derr.Offset)

	_, err = rpc.DecodeMembers[int]([]byte(`{"n": "x"}`), func(_, _ []byte) (bool, error) { return false, nil })
	require.ErrorAs(t, err, &derr, "an extra member that does not fit V")
	assert.Equal(t, "/n", derr.Pointer)

	plain := errors.New("not a JSON error")
	_, err = rpc.DecodeMembers[int]([]byte(`{"n": 1}`), func(_, _ []byte) (bool, error) { return true, plain })
	assert.Same(t, plain, err, "other errors are returned as they are")
}

func TestDecodeMembersErrorReadsLikeWholeObjectDecode(t *testing.T) {
	type pair struct {
		A int    `json:"a"`
		B string `json:"b"`
	}
	in := []byte(`{"b": "x", "a": "not a number"}`)
	var whole pair
	wantErr := rpc.DecodeJSON(in, &whole)
	require.Error(t, wantErr)

	var p pair
	_, err := rpc.DecodeMembers[json.RawMessage](in, func(name, value []byte) (bool, error) {
		switch string(name) {
		case "a":
			return true, rpc.DecodeJSON(value, &p.A)
		case "b":
			return true, rpc.DecodeJSON(value, &p.B)
		}
		return false, nil
	})
	require.Error(t, err)
	assert.Equal(t, wantErr.Error(), err.Error())
}

func TestDecodeMembersAllocatesNothingForKnownMembers(t *testing.T) {
	in := []byte(`{"a": 1, "b": {"c": [true, null]}, "d": "x"}`)
	allocs := testing.AllocsPerRun(100, func() {
		_, _ = rpc.DecodeMembers[json.RawMessage](in, func(name, _ []byte) (bool, error) {
			switch string(name) {
			case "a", "b", "d":
				return true, nil
			}
			return false, nil
		})
	})
	assert.Zero(t, allocs)
}

func TestDecodeMembersKeepsManyUnknownMembersApart(t *testing.T) {
	var in strings.Builder
	in.WriteString(`{"known":true`)
	want := map[string]string{}
	for i := range 11 { // past the eight kept on the stack
		name, value := fmt.Sprintf("m%d", i), fmt.Sprintf(`[%d,"v"]`, i)
		want[name] = value
		fmt.Fprintf(&in, ",%q:%s", name, value)
	}
	in.WriteString(`,"a\u0062":{"x":null},"":"empty"}`)
	want["ab"], want[""] = `{"x":null}`, `"empty"`
	src := []byte(in.String())
	extra, err := rpc.DecodeMembers[json.RawMessage](src, func(name, value []byte) (bool, error) {
		return string(name) == "known", nil
	})
	require.NoError(t, err)
	got := map[string]string{}
	for k, v := range extra {
		got[k] = string(v)
	}
	assert.Equal(t, want, got)

	// The values are copies, each capped: appending to one leaves the
	// others as they were, and so does changing the input.
	extra["m0"] = append(extra["m0"], "tail"...)
	for i := range src {
		src[i] = ' '
	}
	assert.Equal(t, `[1,"v"]`, string(extra["m1"]))
	assert.Equal(t, `{"x":null}`, string(extra["ab"]))
}

// FuzzDecodeMembersRaw checks that the unknown members DecodeMembers keeps
// as raw bytes are exactly those a whole-object decode finds, byte for
// byte, and that both refuse the same inputs.
func FuzzDecodeMembersRaw(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"a":1,"b":[true,{"c":null}],"a\u0062":"x"}`, `{"k":1,"":2}`, `{"a":1,"a":2}`, `[1]`, `{"x":"\ud800"}`} {
		f.Add([]byte(s), "k")
	}
	f.Fuzz(func(t *testing.T, b []byte, known string) {
		extra, err := rpc.DecodeMembers[json.RawMessage](b, func(name, value []byte) (bool, error) {
			return string(name) == known, nil
		})
		var whole map[string]json.RawMessage
		werr := rpc.DecodeJSON(b, &whole)
		if (err == nil) != (werr == nil) {
			t.Fatalf("DecodeMembers error %v, whole-object error %v", err, werr)
		}
		if err != nil {
			return
		}
		delete(whole, known)
		if len(whole) == 0 {
			whole = nil
		}
		if len(extra) != len(whole) {
			t.Fatalf("kept %d members, the whole object has %d", len(extra), len(whole))
		}
		for k, v := range whole {
			if got, ok := extra[k]; !ok || !bytes.Equal(got, v) {
				t.Fatalf("member %q: kept %q, want %q", k, got, v)
			}
		}
	})
}
