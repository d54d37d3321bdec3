package rpc_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// checkedInputs are objects the strict scanner accepts, with the shapes a
// walk of members must get right: escaped names, unknown members of every
// kind, whitespace, nesting, and values of the wrong kind for a member.
var checkedInputs = []string{
	`{}`, ` { } `, `null`, `{"x":1,"y":2}`, `{"x":1,"y":2,"z":[true]}`, `{ "x" : 1 , "z" : { "a" : [ 1 , 2.50 ] } }`,
	`{"\u0078":1,"\u007a":"\u00e9"}`, `{"x":"1"}`, `{"x":1.5}`, `{"y":null,"x":-0}`, `{"z":1e400}`,
	`{"a":{"b":{"c":[{"d":null}]}},"x":2}`, `{"x":1,"ü":"日本","z\"q":[]}`,
	`{"x":"not a number","z":"\ud83d\ude00"}`, `{"z":1,"x":"bad"}`, `[]`, `"x"`, `1`, `true`,
}

// strictMember is the callback both walks are given: x and y are integers
// it decodes, the rest are unknown.
func strictMember(seen *[]string, p *memberPoint) func(name, value []byte) (bool, error) {
	return func(name, value []byte) (bool, error) {
		*seen = append(*seen, string(name)+"="+string(value))
		switch string(name) {
		case "x":
			return true, rpc.DecodeInt(value, &p.X)
		case "y":
			return true, rpc.DecodeInt(value, &p.Y)
		}
		return false, nil
	}
}

func TestDecodeMembersCheckedGivesWhatDecodeMembersGivesForCheckedText(t *testing.T) {
	for _, in := range checkedInputs {
		require.True(t, jsonscan.Strict([]byte(in), 10000), "%q must be strict JSON", in)
		t.Run(in, func(t *testing.T) {
			var wantSeen, gotSeen []string
			var wantP, gotP memberPoint
			wantRaw, wantErr := rpc.DecodeMembersChecked[json.RawMessage]([]byte(in), false, strictMember(&wantSeen, &wantP))
			gotRaw, gotErr := rpc.DecodeMembersChecked[json.RawMessage]([]byte(in), true, strictMember(&gotSeen, &gotP))
			assert.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr))
			assert.Equal(t, wantSeen, gotSeen, "the same members, in the same order")
			assert.Equal(t, wantP, gotP)
			assert.Equal(t, wantRaw, gotRaw)

			wantAny, wantErr := rpc.DecodeMembersChecked[any]([]byte(in), false, func(_, _ []byte) (bool, error) { return false, nil })
			gotAny, gotErr := rpc.DecodeMembersChecked[any]([]byte(in), true, func(_, _ []byte) (bool, error) { return false, nil })
			assert.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), "typed extra members")
			assert.Equal(t, wantAny, gotAny)

			wantInt, wantErr := rpc.DecodeMembersChecked[int64]([]byte(in), false, func(_, _ []byte) (bool, error) { return false, nil })
			gotInt, gotErr := rpc.DecodeMembersChecked[int64]([]byte(in), true, func(_, _ []byte) (bool, error) { return false, nil })
			assert.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), "extra members that may not fit V")
			assert.Equal(t, wantInt, gotInt)
		})
	}
}

func TestDecodeMembersUncheckedChecksTheText(t *testing.T) {
	for _, in := range []string{`{"x":1,"x":2}`, `{"x":1,}`, "{\"z\":\"\xff\"}", `{"x":1} x`} {
		_, err := rpc.DecodeMembersChecked[json.RawMessage]([]byte(in), false, func(_, _ []byte) (bool, error) { return false, nil })
		assert.Error(t, err, "%q", in)
	}
}

func TestDecodeCheckedRawCopiesTheValueWithoutCheckingIt(t *testing.T) {
	in := []byte(`{"a":[1,2]}`)
	var r json.RawMessage
	require.NoError(t, rpc.DecodeCheckedRaw(in, &r))
	copy(in, `{"b":[3,4]}`)
	assert.Equal(t, `{"a":[1,2]}`, string(r), "the raw value must not alias the input")

	// Not checked again: a caller hands it text the scanner has accepted.
	require.NoError(t, rpc.DecodeCheckedRaw([]byte(`{"a":1,"a":2}`), &r))
	assert.Equal(t, `{"a":1,"a":2}`, string(r))
	require.NoError(t, rpc.DecodeCheckedRaw([]byte(`null`), &r))
	assert.Equal(t, `null`, string(r), "null is kept as null")
}

func TestDecodeCheckedRawHandsValuesWithSpaceAroundThemToDecodeRaw(t *testing.T) {
	for _, in := range []string{` {"a":1} `, ` null`, "\t1"} {
		sameAsDecodeJSON(t, in, rpc.DecodeCheckedRaw)
	}
}

// viaPoint is memberPoint with UnmarshalCheckedJSON, as generated
// structs have it; it records which method decoded it.
type viaPoint struct {
	memberPoint
	via string
}

func (p *viaPoint) UnmarshalJSON(b []byte) error {
	p.via = "UnmarshalJSON"
	return p.memberPoint.UnmarshalJSON(b)
}

func (p *viaPoint) UnmarshalCheckedJSON(b []byte) error {
	p.via = "UnmarshalCheckedJSON"
	return p.memberPoint.UnmarshalJSON(b)
}

func (*viaPoint) UnmarshalJSONChecksInput() {}

func TestDecodeUnmarshalerHandsAMemberValueToUnmarshalCheckedJSON(t *testing.T) {
	var p viaPoint
	require.NoError(t, rpc.DecodeUnmarshaler([]byte(`{"x":1,"y":2}`), &p))
	assert.Equal(t, "UnmarshalCheckedJSON", p.via)
	assert.Equal(t, memberPoint{X: 1, Y: 2}, p.memberPoint)

	var m memberPoint
	require.NoError(t, rpc.DecodeUnmarshaler([]byte(`{"x":1}`), &m), "a type without the method gets UnmarshalJSON")
	assert.Equal(t, int64(1), m.X)
}

func TestDecodeParamsDecodesParamsReadWithTheirMessageUnchecked(t *testing.T) {
	long := `"` + strings.Repeat("a", 20002) + `"`
	tests := []struct {
		name    string
		request func(t *testing.T) *rpc.Request
		wantVia string
	}{
		{"read with the message", func(t *testing.T) *rpc.Request {
			return parseRequest(t, `{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":1,"y":2}}`)
		}, "UnmarshalCheckedJSON"},
		{"replaced since", func(t *testing.T) *rpc.Request {
			req := parseRequest(t, `{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":1,"y":2}}`)
			req.Params = append(json.RawMessage(nil), req.Params...)
			return req
		}, "UnmarshalJSON"},
		{"made by hand", func(*testing.T) *rpc.Request {
			return &rpc.Request{Method: "m", Params: json.RawMessage(`{"x":1,"y":2}`)}
		}, "UnmarshalJSON"},
		{"long enough to nest past DecodeJSON's limit", func(t *testing.T) *rpc.Request {
			return parseRequest(t, `{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":1,"y":2,"z":`+long+`}}`)
		}, "UnmarshalJSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p viaPoint
			require.NoError(t, tt.request(t).DecodeParams(&p))
			assert.Equal(t, tt.wantVia, p.via)
			assert.Equal(t, int64(1), p.X)
			assert.Equal(t, int64(2), p.Y)
		})
	}
}

func TestDecodeParamsUncheckedFailsAsDecodeJSONFails(t *testing.T) {
	for _, params := range []string{`{"x":"one"}`, `{"y":1.5,"x":1}`, `{"x":1,"z":{"x":"n"},"y":1e400}`} {
		req := parseRequest(t, `{"jsonrpc":"2.0","id":1,"method":"m","params":`+params+`}`)
		var p viaPoint
		err := req.DecodeParams(&p)
		require.Error(t, err, params)
		assert.Equal(t, "UnmarshalCheckedJSON", p.via)
		var want viaPoint
		wantErr := (&rpc.Request{Params: json.RawMessage(params)}).DecodeParams(&want)
		assert.Equal(t, wantErr.Error(), err.Error(), params)
	}
}

// parseRequest reads one request as a connection reads it.
func parseRequest(t *testing.T, msg string) *rpc.Request {
	t.Helper()
	req, _, perr := rpc.ParseRequest([]byte(msg))
	require.Nil(t, perr)
	return req
}

func TestAReadMethodNameIsSharedByTheMessagesThatRepeatIt(t *testing.T) {
	first := parseRequest(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`)
	second := parseRequest(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}`)
	assert.Equal(t, "tools/call", second.Method)
	assert.Same(t, unsafe.StringData(first.Method), unsafe.StringData(second.Method), "one string for both, not a copy each")

	escaped := parseRequest(t, `{"jsonrpc":"2.0","id":3,"method":"tools\/c\u0061ll","params":{}}`)
	assert.Equal(t, "tools/call", escaped.Method, "a name written with escapes is decoded")
}
