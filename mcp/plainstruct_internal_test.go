package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// plainArgs is a struct the plan decodes.
type plainArgs struct {
	A     float64 `json:"a"`
	B     float64 `json:"b,omitempty"`
	Name  string  `json:"name"`
	On    bool    `json:"on,omitzero"`
	N     int     `json:"n"`
	Big   int64
	Label label `json:"label"`
}

// label is a named string type without methods of its own.
type label string

// plainInputs are arguments of every form: plain ones the plan decodes,
// and the ones it must hand to DecodeJSON (unknown, case-variant and
// repeated names, escapes, values of the wrong kind, numbers out of
// range, text that is not one object).
var plainInputs = []string{
	`{}`,
	`null`,
	`{"a":1,"b":2}`,
	`{"a":1.5e3,"b":-0,"name":"x","on":true,"n":-7,"Big":9007199254740993,"label":"l"}`,
	` { "a" : 1 , "name" : "sp" } `,
	`{"a":null,"name":null,"on":null,"n":null}`,
	`{"name":"caf\u00e9 \"q\""}`,
	`{"n\u0061me":"escaped name"}`,
	`{"A":1}`,
	`{"NAME":"x"}`,
	`{"big":1}`,
	`{"extra":[1,{"x":2}],"a":3}`,
	`{"a":1,"a":2}`,
	`{"a":"1"}`,
	`{"name":1}`,
	`{"on":"true"}`,
	`{"n":1.5}`,
	`{"n":1e2}`,
	`{"n":99999999999999999999}`,
	`{"a":1e999}`,
	`{"name":"\xff"}`,
	`{"a":1,}`,
	`{"a":1} x`,
	`[1,2]`,
	`"s"`,
	``,
	`{"a":1`,
}

// decodesAsDecodeJSON checks that the plan decodes b into the value, and
// with the error, that rpc.DecodeJSON gives, walking b as checked text or
// not.
func decodesAsDecodeJSON(t *testing.T, plan *plainStruct, b []byte, checked bool) {
	t.Helper()
	var want, got plainArgs
	wantErr := rpc.DecodeJSON(b, &want)
	gotErr := decodePlain(plan, b, checked, &got)
	assert.Equal(t, want, got)
	if wantErr == nil {
		assert.NoError(t, gotErr)
		return
	}
	require.Error(t, gotErr)
	assert.Equal(t, wantErr.Error(), gotErr.Error())
}

// encodesAsMarshal checks that the plan writes out as json.Marshal does,
// bytes and error.
func encodesAsMarshal(t *testing.T, plan *plainStruct, out plainOut) {
	t.Helper()
	want, wantErr := json.Marshal(out)
	got, gotErr := encodePlain(plan, out)
	if wantErr != nil {
		require.Error(t, gotErr, "%+v", out)
		assert.Equal(t, wantErr.Error(), gotErr.Error())
		return
	}
	require.NoError(t, gotErr, "%+v", out)
	assert.Equal(t, string(want), string(got), "%+v", out)
}

func TestDecodePlainAgreesWithDecodeJSON(t *testing.T) {
	plan := planPlain(reflect.TypeFor[plainArgs]())
	require.NotNil(t, plan, "plainArgs must have a plan, or this test compares DecodeJSON with itself")
	for _, in := range plainInputs {
		t.Run(in, func(t *testing.T) {
			decodesAsDecodeJSON(t, plan, []byte(in), false)
		})
	}
}

func TestDecodePlainOfCheckedTextAgreesWithDecodeJSON(t *testing.T) {
	plan := planPlain(reflect.TypeFor[plainArgs]())
	require.NotNil(t, plan)
	checked := 0
	for _, in := range plainInputs {
		if !jsonscan.Strict([]byte(in), rpc.DefaultMaxDepth) {
			continue // the lax walk is only ever given text the strict scanner accepted
		}
		checked++
		t.Run(in, func(t *testing.T) {
			decodesAsDecodeJSON(t, plan, []byte(in), true)
		})
	}
	require.Greater(t, checked, 10, "the inputs must hold strictly valid arguments of every form")
}

// textLabel decodes itself from text.
type textLabel string

func (l *textLabel) UnmarshalText(b []byte) error {
	*l = textLabel(strings.ToUpper(string(b)))
	return nil
}

func TestPlanPlainCoversOnlyPlainStructs(t *testing.T) {
	type embedded struct{ plainArgs }
	type stringOption struct {
		N int `json:"n,string"`
	}
	type nested struct {
		P plainArgs `json:"p"`
	}
	type unexported struct {
		A int `json:"a"`
		b int
	}
	type skipped struct {
		A int `json:"-"`
	}
	type quoted struct {
		A int `json:"'a'"`
	}
	type repeated struct {
		A int
		B int `json:"A"`
	}
	type methods struct {
		L textLabel `json:"l"`
	}
	type small struct {
		N int32 `json:"n"`
	}
	type pointer struct {
		P *float64 `json:"p"`
	}
	type when struct {
		T time.Time `json:"t"`
	}
	type spaced struct {
		A int `json:"a b"`
	}
	type zeroer struct {
		Z zeroLabel `json:"z,omitzero"`
	}
	type number struct {
		N json.Number `json:"n"`
	}
	type duration struct {
		D time.Duration `json:"d"`
	}
	for _, tc := range []struct {
		name    string
		typ     reflect.Type
		planned bool
	}{
		{"plain fields", reflect.TypeFor[plainArgs](), true},
		{"empty struct", reflect.TypeFor[struct{}](), true},
		{"map", reflect.TypeFor[map[string]any](), false},
		{"pointer to a struct", reflect.TypeFor[*plainArgs](), false},
		{"embedded struct", reflect.TypeFor[embedded](), false},
		{"string option", reflect.TypeFor[stringOption](), false},
		{"nested struct", reflect.TypeFor[nested](), false},
		{"unexported field", reflect.TypeFor[unexported](), false},
		{"field left out", reflect.TypeFor[skipped](), false},
		{"quoted name", reflect.TypeFor[quoted](), false},
		{"repeated name", reflect.TypeFor[repeated](), false},
		{"field with UnmarshalText", reflect.TypeFor[methods](), false},
		{"int32 field", reflect.TypeFor[small](), false},
		{"pointer field", reflect.TypeFor[pointer](), false},
		{"time field", reflect.TypeFor[when](), false},
		{"name with a space", reflect.TypeFor[spaced](), false},
		{"field with IsZero", reflect.TypeFor[zeroer](), false},
		{"json.Number field", reflect.TypeFor[number](), false},
		{"time.Duration field", reflect.TypeFor[duration](), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.planned, planPlain(tc.typ) != nil)
		})
	}
}

// fromArgs is plainArgs with go-json-experiment's UnmarshalJSONFrom,
// which rpc.DecodeJSON never calls.
type fromArgs plainArgs

func (*fromArgs) UnmarshalJSONFrom(*jsontext.Decoder) error {
	return errors.New("UnmarshalJSONFrom is never called")
}

func TestPlanPlainDecodesATypeWithUnmarshalJSONFromByItsFieldsAsDecodeJSONDoes(t *testing.T) {
	plan := planPlain(reflect.TypeFor[fromArgs]())
	require.NotNil(t, plan, "the method does not count: DecodeJSON reads the fields")
	b := []byte(`{"a":1,"name":"x","on":true,"n":3}`)
	var got, want fromArgs
	require.NoError(t, decodePlain(plan, b, false, &got))
	require.NoError(t, rpc.DecodeJSON(b, &want))
	assert.Equal(t, want, got)
	assert.Equal(t, "x", got.Name)
}

func TestDecodePlainAllocatesNothingForPlainArguments(t *testing.T) {
	plan := planPlain(reflect.TypeFor[plainArgs]())
	require.NotNil(t, plan)
	b := []byte(`{"a":1,"b":2,"on":true,"n":3}`)
	for _, checked := range []bool{false, true} {
		var in plainArgs
		allocs := testing.AllocsPerRun(100, func() {
			if err := decodePlain(plan, b, checked, &in); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zero(t, allocs, "checked %v", checked)
		assert.Equal(t, plainArgs{A: 1, B: 2, On: true, N: 3}, in, "checked %v", checked)
	}
}

func TestToolArgumentsSetSinceTheCallBeganAreCheckedInFull(t *testing.T) {
	s := NewServer(&Implementation{Name: "t", Version: "1"}, nil)
	require.NoError(t, AddTool(s, &Tool{Name: "add"}, func(_ context.Context, _ *CallToolRequest, in plainArgs) (*CallToolResult, plainOut, error) {
		return nil, plainOut{Sum: in.A + in.B}, nil
	}))
	e, ok := s.tools.get("add")
	require.True(t, ok)
	p := &CallToolRequestParams{Name: "add", Arguments: json.RawMessage(`{"a":1,"b":2}`)}
	req := newToolRequest(nil, p, nil)
	require.True(t, argsChecked(req), "the arguments the call began with")
	res, err := e.handler(context.Background(), req)
	require.NoError(t, err)
	assert.JSONEq(t, `{"sum":3,"Big":0,"label":""}`, string(res.StructuredContent))

	// Replaced by text the strict scanner refuses (a repeated name), which
	// the lax walk would take.
	p.Arguments = json.RawMessage(`{"a":1,"a":2}`)
	assert.False(t, argsChecked(req))
	_, err = e.handler(context.Background(), req)
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
}

// zeroLabel says itself whether it is zero.
type zeroLabel string

func (l zeroLabel) IsZero() bool { return l == "none" }

// plainOut is a struct the plan writes, with every way of leaving a field
// out.
type plainOut struct {
	Sum   float64 `json:"sum"`
	E     float64 `json:"e,omitempty"`
	Z     float64 `json:"z,omitzero"`
	S     string  `json:"s,omitempty"`
	On    bool    `json:"on,omitzero"`
	N     int     `json:"n,omitempty"`
	Big   int64
	Label label `json:"label"`
}

func TestEncodePlainAgreesWithMarshal(t *testing.T) {
	plan := planPlain(reflect.TypeFor[plainOut]())
	require.NotNil(t, plan, "plainOut must have a plan, or this test compares json.Marshal with itself")
	for _, out := range []plainOut{
		{},
		{Sum: 3},
		{Sum: -1.5, E: 2, Z: 3, S: "x", On: true, N: -7, Big: math.MinInt64, Label: "l"},
		{E: math.Copysign(0, -1), Z: math.Copysign(0, -1)},
		{Sum: 1e21, E: 1e-7, Z: 123456789.125},
		{Sum: 5e-324, E: math.MaxFloat64},
		{S: "tab\t quote\" back\\ nul\x00 line\u2028 para\u2029 bad\xff café"},
		{S: "<b>&amp;</b>"},
		{Label: "a>b"},
		{Sum: math.NaN()},
		{E: math.Inf(1)},
		{Z: math.Inf(-1)},
	} {
		encodesAsMarshal(t, plan, out)
	}
}

func TestEncodePlainAllocatesOnlyItsOutput(t *testing.T) {
	plan := planPlain(reflect.TypeFor[plainOut]())
	require.NotNil(t, plan)
	out := plainOut{Sum: 3, S: "three", N: 3}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := encodePlain(plan, out); err != nil {
			t.Fatal(err)
		}
	})
	// The output only: out is read where it is.
	assert.Equal(t, 1.0, allocs)
}

func TestEncodePlainOfAnotherTypeThanThePlansLeavesThePlanOut(t *testing.T) {
	plan := planPlain(reflect.TypeFor[plainOut]())
	require.NotNil(t, plan)
	// renamedOut is laid out as plainOut with another name first: read
	// through plainOut's plan, it would be written with plainOut's names.
	type renamedOut struct {
		Total float64 `json:"total"`
		E     float64 `json:"e,omitempty"`
		Z     float64 `json:"z,omitzero"`
		S     string  `json:"s,omitempty"`
		On    bool    `json:"on,omitzero"`
		N     int     `json:"n,omitempty"`
		Big   int64
		Label label `json:"label"`
	}
	got, err := encodePlain(plan, renamedOut{Total: 2})
	require.NoError(t, err)
	assert.JSONEq(t, `{"total":2,"Big":0,"label":""}`, string(got))
}

func FuzzDecodePlainAgreesWithDecodeJSON(f *testing.F) {
	for _, in := range plainInputs {
		f.Add([]byte(in))
	}
	plan := planPlain(reflect.TypeFor[plainArgs]())
	f.Fuzz(func(t *testing.T, b []byte) {
		decodesAsDecodeJSON(t, plan, b, false)
		if jsonscan.Strict(b, rpc.DefaultMaxDepth) {
			decodesAsDecodeJSON(t, plan, b, true)
		}
	})
}

func FuzzEncodePlainAgreesWithMarshal(f *testing.F) {
	f.Add(3.0, -0.5, "x", true, int64(7))
	f.Add(1e21, 1e-7, "<&>\u2028\xff", false, int64(-1))
	f.Add(math.Copysign(0, -1), math.NaN(), "", false, int64(0))
	plan := planPlain(reflect.TypeFor[plainOut]())
	f.Fuzz(func(t *testing.T, sum, e float64, s string, on bool, n int64) {
		out := plainOut{Sum: sum, E: e, Z: e, S: s, On: on, N: int(n), Big: n, Label: label(s)}
		encodesAsMarshal(t, plan, out)
	})
}

// BenchmarkDecodePlain measures the plan's walk over a typed tool's
// arguments, as text the strict scanner accepted already (checked) and
// not.
func BenchmarkDecodePlain(b *testing.B) {
	plan := planPlain(reflect.TypeFor[plainArgs]())
	args := []byte(`{"a":1,"b":2,"name":"x","on":true,"n":3}`)
	for _, checked := range []bool{false, true} {
		b.Run(map[bool]string{false: "strict", true: "checked"}[checked], func(b *testing.B) {
			b.ReportAllocs()
			var in plainArgs
			for b.Loop() {
				if err := decodePlain(plan, args, checked, &in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestDecodePlainOfAnotherTypeThanThePlansLeavesThePlanOut(t *testing.T) {
	plan := planPlain(reflect.TypeFor[plainArgs]())
	require.NotNil(t, plan)
	// renamedArgs is laid out as plainArgs with other names: written
	// through plainArgs' plan, its fields would be found by plainArgs'
	// names.
	type renamedArgs struct {
		X     float64 `json:"b"`
		Y     float64 `json:"a"`
		Name  string  `json:"name"`
		On    bool    `json:"on,omitzero"`
		N     int     `json:"n"`
		Big   int64
		Label label `json:"label"`
	}
	var got renamedArgs
	require.NoError(t, decodePlain(plan, []byte(`{"a":1,"b":2}`), true, &got))
	assert.Equal(t, renamedArgs{X: 2, Y: 1}, got)
}

// BenchmarkEncodePlain measures the plan's writing of a typed tool's
// output.
func BenchmarkEncodePlain(b *testing.B) {
	plan := planPlain(reflect.TypeFor[plainOut]())
	out := plainOut{Sum: 3, S: "three", N: 3, Label: "l"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodePlain(plan, out); err != nil {
			b.Fatal(err)
		}
	}
}
