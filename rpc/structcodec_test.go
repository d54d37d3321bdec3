package rpc_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// label is a type defined on string, as a generated enum is.
type label string

// record is a struct as rpcgen generates one, with a table written the way
// the generator writes it (recordCodec); its tags give encoding/json and
// DecodeJSON the same members, as oracles.
type record struct {
	Name  string                     `json:"name"`
	Kind  label                      `json:"kind,omitempty"`
	Count int64                      `json:"count,omitempty"`
	Ratio float64                    `json:"ratio,omitempty"`
	On    bool                       `json:"on,omitempty"`
	Raw   json.RawMessage            `json:"raw,omitempty"`
	Flag  *bool                      `json:"flag,omitempty"`
	Tags  []string                   `json:"tags"`
	Sizes []int64                    `json:"sizes,omitzero"`
	Meta  *record                    `json:"meta,omitempty"`
	Extra map[string]json.RawMessage `json:"-"`
}

func (v *record) AppendJSON(b []byte) ([]byte, error) {
	return rpc.AppendStruct(b, unsafe.Pointer(v), &recordCodec)
}

func (v *record) UnmarshalJSON(b []byte) error {
	return rpc.DecodeStruct(b, false, unsafe.Pointer(v), &recordCodec)
}

func (*record) UnmarshalJSONChecksInput() {}

// plainRecord is record without its methods: the oracles see its fields.
type plainRecord record

var (
	valueString = rpc.ValueCodec{Enc: rpc.EncodeString, Dec: rpc.DecodeKindString, Type: (*string)(nil)}
	valueLabel  = rpc.ValueCodec{Enc: rpc.EncodeString, Dec: rpc.DecodeKindString, Type: (*label)(nil)}
	valueInt    = rpc.ValueCodec{Enc: rpc.EncodeInt, Dec: rpc.DecodeKindInt, Type: (*int64)(nil)}
	valueFloat  = rpc.ValueCodec{Enc: rpc.EncodeFloat, Dec: rpc.DecodeKindFloat, Type: (*float64)(nil)}
	valueBool   = rpc.ValueCodec{Enc: rpc.EncodeBool, Dec: rpc.DecodeKindBool, Type: (*bool)(nil)}
	valueRaw    = rpc.ValueCodec{Enc: rpc.EncodeRaw, Dec: rpc.DecodeKindRaw, Type: (*json.RawMessage)(nil)}
	valueFlag   = rpc.ValueCodec{Enc: rpc.EncodePointer, Dec: rpc.DecodeKindPointer, Type: (**bool)(nil), Elem: &valueBool}
	valueTags   = rpc.ValueCodec{
		Enc: rpc.EncodeSlice, Type: (*[]string)(nil), Elem: &valueString, Size: unsafe.Sizeof(""), Fill: "[]",
		Decode: func(value []byte, p unsafe.Pointer) error {
			return rpc.DecodeSlice(value, (*[]string)(p), rpc.DecodeString[string])
		},
	}
	valueSizes  = rpc.ValueCodec{Enc: rpc.EncodeSlice, Dec: rpc.DecodeKindJSON, Type: (*[]int64)(nil), Elem: &valueInt, Size: unsafe.Sizeof(int64(0))}
	valueRecord = rpc.ValueCodec{Enc: rpc.EncodeAppender, Dec: rpc.DecodeKindUnmarshaler, Type: (*record)(nil)}
	valueMeta   = rpc.ValueCodec{Enc: rpc.EncodePointer, Dec: rpc.DecodeKindPointer, Type: (**record)(nil), Elem: &valueRecord}
)

var recordCodec rpc.StructCodec

func init() { // a generated table is a static variable; this one refers to itself through Meta
	recordCodec = rpc.StructCodec{
		Type: (*record)(nil),
		Fields: []rpc.FieldCodec{
			{Key: `,"name":`, Offset: uint32(unsafe.Offsetof(record{}.Name)), Value: &valueString},
			{Key: `,"kind":`, Offset: uint32(unsafe.Offsetof(record{}.Kind)), Omit: rpc.OmitEmpty, Value: &valueLabel},
			{Key: `,"count":`, Offset: uint32(unsafe.Offsetof(record{}.Count)), Omit: rpc.OmitZeroInt, Value: &valueInt},
			{Key: `,"ratio":`, Offset: uint32(unsafe.Offsetof(record{}.Ratio)), Omit: rpc.OmitZeroFloat, Value: &valueFloat},
			{Key: `,"on":`, Offset: uint32(unsafe.Offsetof(record{}.On)), Omit: rpc.OmitFalse, Value: &valueBool},
			{Key: `,"raw":`, Offset: uint32(unsafe.Offsetof(record{}.Raw)), Omit: rpc.OmitEmpty, Value: &valueRaw},
			{Key: `,"flag":`, Offset: uint32(unsafe.Offsetof(record{}.Flag)), Omit: rpc.OmitNil, Value: &valueFlag},
			{Key: `,"tags":`, Offset: uint32(unsafe.Offsetof(record{}.Tags)), Value: &valueTags},
			{Key: `,"sizes":`, Offset: uint32(unsafe.Offsetof(record{}.Sizes)), Omit: rpc.OmitNil, Value: &valueSizes},
			{Key: `,"meta":`, Offset: uint32(unsafe.Offsetof(record{}.Meta)), Omit: rpc.OmitNil, Value: &valueMeta},
		},
		Extra:    unsafe.Offsetof(record{}.Extra),
		HasExtra: true,
	}
}

func TestAppendStructWritesWhatEncodingJSONWrites(t *testing.T) {
	yes := true
	cases := []struct {
		name string
		v    record
	}{
		{"every member empty but the required ones", record{Tags: []string{}}},
		{"every member set", record{
			Name: "a", Kind: "b", Count: -3, Ratio: 0.5, On: true, Raw: json.RawMessage(` { "x" : [1, 2] } `),
			Flag: &yes, Tags: []string{"p", "q"}, Sizes: []int64{}, Meta: &record{Name: "inner", Tags: []string{"r"}},
		}},
		{"a string to escape", record{Name: "tab\there \"quoted\" \u2028", Tags: []string{"\x01"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(plainRecord(tc.v))
			require.NoError(t, err)
			got, err := tc.v.AppendJSON([]byte("pre:"))
			require.NoError(t, err)
			assert.Equal(t, "pre:"+string(want), string(got))
		})
	}
}

func TestAppendStructFillsANilListAndWritesExtraMembersSorted(t *testing.T) {
	v := record{Name: "n", Extra: map[string]json.RawMessage{"z": json.RawMessage(`1`), "name": json.RawMessage(`"shadowed"`), "a": json.RawMessage(` [ ] `)}}
	got, err := v.AppendJSON(nil)
	require.NoError(t, err)
	assert.Equal(t, `{"name":"n","tags":[],"a":[],"z":1}`, string(got))
}

func TestAppendStructReportsTheErrorOfAValue(t *testing.T) {
	cases := []struct {
		name string
		v    record
	}{
		{"NaN", record{Ratio: math.NaN()}},
		{"raw JSON that is not one value", record{Raw: json.RawMessage(`{`)}},
		{"an extra member that is not JSON", record{Extra: map[string]json.RawMessage{"x": json.RawMessage(`nul`)}}},
		{"a nested struct's error", record{Meta: &record{Ratio: math.Inf(1)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.v.AppendJSON(nil)
			assert.Error(t, err)
			assert.Nil(t, got)
		})
	}
}

// marshalCopy is a generated MarshalJSON: its receiver is a copy.
func marshalCopy(v record) ([]byte, error) { return v.AppendJSON(make([]byte, 0, 128)) }

func TestMarshalThroughAppendStructKeepsTheCopyOnTheStack(t *testing.T) {
	v := record{Name: "n", Tags: []string{}}
	allocs := testing.AllocsPerRun(100, func() {
		_, _ = marshalCopy(v)
	})
	assert.Equal(t, 1.0, allocs, "the buffer, and no copy of the struct")
}

func TestDecodeStructReadsWhatDecodeJSONReads(t *testing.T) {
	inputs := []string{
		`{}`,
		`null`,
		`{"name":"a","kind":"b","count":-3,"ratio":0.5,"on":true,"raw":{"x":[1, 2]},"flag":true,"tags":["p","q"],"sizes":[1,2],"meta":{"name":"inner","meta":null}}`,
		`{"name":"\u0041","flag":null,"tags":null,"count":null,"meta":{"tags":[]}}`,
		`{"count":1.5}`,
		`{"name":1}`,
		`{"kind":true}`,
		`{"on":"yes"}`,
		`{"ratio":1e400}`,
		`{"flag":"x"}`,
		`{"tags":[1]}`,
		`{"meta":{"count":"x"}}`,
		`{"meta":[]}`,
		`{"name":"a","name":"b"}`,
		`{"name":"a"`,
		`[1]`,
	}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			got := record{Name: "stale", Extra: map[string]json.RawMessage{"stale": nil}}
			gotErr := rpc.DecodeJSON([]byte(in), &got)
			var want plainRecord
			wantErr := rpc.DecodeJSON([]byte(in), &want)
			if wantErr != nil {
				var de *rpc.DecodeError
				require.ErrorAs(t, gotErr, &de)
				var wde *rpc.DecodeError
				require.ErrorAs(t, wantErr, &wde)
				assert.Equal(t, wde.Pointer, de.Pointer)
				assert.Equal(t, wde.Offset, de.Offset)
				if wde.Pointer != "" { // at the top, the oracle names plainRecord
					assert.Equal(t, wde.GoType, de.GoType)
				}
				return
			}
			require.NoError(t, gotErr)
			got.Extra = nil
			assert.Equal(t, record(want), got)
		})
	}
}

func TestDecodeStructKeepsUnknownMembersInExtra(t *testing.T) {
	var got record
	require.NoError(t, got.UnmarshalJSON([]byte(`{"name":"a","other":[1, 2],"Name":"b"}`)))
	assert.Equal(t, "a", got.Name)
	assert.Equal(t, map[string]json.RawMessage{"other": json.RawMessage(`[1, 2]`), "Name": json.RawMessage(`"b"`)}, got.Extra)
}

func TestDecodeStructPlacesAMembersErrorAtTheMember(t *testing.T) {
	var got record
	err := rpc.DecodeJSON([]byte(`{"name":"a","meta":{"count":"x"}}`), &got)
	var de *rpc.DecodeError
	require.True(t, errors.As(err, &de), "%v", err)
	assert.Equal(t, "/meta/count", de.Pointer)
}

func TestDecodeStructWithoutExtraLeavesUnknownMembersOut(t *testing.T) {
	type pair struct {
		A string
		B int64
	}
	codec := rpc.StructCodec{Type: (*pair)(nil), Fields: []rpc.FieldCodec{
		{Key: `,"a":`, Offset: uint32(unsafe.Offsetof(pair{}.A)), Value: &valueString},
		{Key: `,"b":`, Offset: uint32(unsafe.Offsetof(pair{}.B)), Value: &valueInt},
	}}
	got := pair{A: "stale", B: 9}
	require.NoError(t, rpc.DecodeStruct([]byte(`{"b":2,"c":[3]}`), false, unsafe.Pointer(&got), &codec))
	assert.Equal(t, pair{B: 2}, got)
}

func TestDecodeStructAllocatesNothingForAKnownLongName(t *testing.T) {
	type long struct{ On bool }
	codec := rpc.StructCodec{Type: (*long)(nil), Fields: []rpc.FieldCodec{
		{Key: `,"io.modelcontextprotocol/a-name-longer-than-32-bytes":`, Offset: uint32(unsafe.Offsetof(long{}.On)), Value: &valueBool},
	}}
	in := []byte(`{"io.modelcontextprotocol/a-name-longer-than-32-bytes":true}`)
	var got long
	allocs := testing.AllocsPerRun(100, func() {
		_ = rpc.DecodeStruct(in, true, unsafe.Pointer(&got), &codec)
	})
	assert.True(t, got.On)
	assert.Zero(t, allocs)
}

func TestAValueWithoutKindsGoesThroughEncodingJSONAndDecodeJSON(t *testing.T) {
	type inner struct {
		A int `json:"a"`
	}
	type holder struct{ In inner }
	valueInner := rpc.ValueCodec{Type: (*inner)(nil)}
	codec := rpc.StructCodec{Type: (*holder)(nil), Fields: []rpc.FieldCodec{
		{Key: `,"in":`, Offset: uint32(unsafe.Offsetof(holder{}.In)), Value: &valueInner},
	}}
	got, err := rpc.AppendStruct(nil, unsafe.Pointer(&holder{In: inner{A: 1}}), &codec)
	require.NoError(t, err)
	assert.Equal(t, `{"in":{"a":1}}`, string(got))

	var h holder
	require.NoError(t, rpc.DecodeStruct([]byte(`{"in":{"a":2}}`), false, unsafe.Pointer(&h), &codec))
	assert.Equal(t, holder{In: inner{A: 2}}, h)
	err = rpc.DecodeStruct([]byte(`{"in":{"a":"x"}}`), false, unsafe.Pointer(&h), &codec)
	var de *rpc.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "/in/a", de.Pointer)
}

func TestAValueWithoutKindsIsEncodedFromACopySoItsErrorKeepsNothingOfTheCaller(t *testing.T) {
	type inner struct {
		F float64 `json:"f"`
	}
	type holder struct{ In inner }
	valueInner := rpc.ValueCodec{Type: (*inner)(nil)}
	codec := rpc.StructCodec{Type: (*holder)(nil), Fields: []rpc.FieldCodec{
		{Key: `,"in":`, Offset: uint32(unsafe.Offsetof(holder{}.In)), Value: &valueInner},
	}}
	h := holder{In: inner{F: math.NaN()}}
	_, err := rpc.AppendStruct(nil, unsafe.Pointer(&h), &codec)
	var unsupported *json.UnsupportedValueError
	require.ErrorAs(t, err, &unsupported)
	h.In.F = 1 // the error's value must not be the caller's field
	assert.True(t, math.IsNaN(unsupported.Value.Float()), "the error reads the caller's struct, not a copy")
}

func TestAFieldsAppendFunctionWritesItsWholeMember(t *testing.T) {
	type pair struct {
		A string
		M map[string]int64
	}
	writeM := func(b []byte, p unsafe.Pointer) ([]byte, error) {
		v := (*pair)(p)
		if len(v.M) == 0 {
			return b, nil
		}
		if v.M["fail"] != 0 {
			return nil, errBroken
		}
		b = append(b, `,"m":`...)
		return rpc.AppendJSONValue(b, v.M)
	}
	codec := rpc.StructCodec{Type: (*pair)(nil), Fields: []rpc.FieldCodec{
		{Key: `,"a":`, Offset: uint32(unsafe.Offsetof(pair{}.A)), Value: &valueString},
		{Key: `,"m":`, Offset: uint32(unsafe.Offsetof(pair{}.M)), Append: writeM},
	}}
	cases := []struct {
		name string
		v    pair
		want string
		err  error
	}{
		{"left out", pair{A: "x"}, `{"a":"x"}`, nil},
		{"written", pair{A: "x", M: map[string]int64{"k": 1}}, `{"a":"x","m":{"k":1}}`, nil},
		{"failing", pair{M: map[string]int64{"fail": 1}}, "", errBroken},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rpc.AppendStruct(nil, unsafe.Pointer(&tc.v), &codec)
			assert.ErrorIs(t, err, tc.err)
			assert.Equal(t, tc.want, string(got))
		})
	}
}
