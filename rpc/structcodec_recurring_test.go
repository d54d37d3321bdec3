package rpc_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// recurringMeta is a struct as the generator writes a Recurring one (the _meta of
// a stateless request): strings, numbers, raw members, a pointer and
// Extra.
type recurringMeta struct {
	Version string                     `json:"v"`
	Kind    label                      `json:"kind,omitempty"`
	Count   int64                      `json:"count,omitempty"`
	Ratio   float64                    `json:"ratio,omitempty"`
	On      bool                       `json:"on,omitempty"`
	Caps    json.RawMessage            `json:"caps"`
	Info    json.RawMessage            `json:"info,omitempty"`
	Flag    *bool                      `json:"flag,omitempty"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// metaFields are recurringMeta's table's fields.
var metaFields = []rpc.FieldCodec{
	{Key: `,"v":`, Offset: uint32(unsafe.Offsetof(recurringMeta{}.Version)), Value: &valueString},
	{Key: `,"kind":`, Offset: uint32(unsafe.Offsetof(recurringMeta{}.Kind)), Omit: rpc.OmitEmpty, Value: &valueLabel},
	{Key: `,"count":`, Offset: uint32(unsafe.Offsetof(recurringMeta{}.Count)), Omit: rpc.OmitZeroInt, Value: &valueInt},
	{Key: `,"ratio":`, Offset: uint32(unsafe.Offsetof(recurringMeta{}.Ratio)), Omit: rpc.OmitZeroFloat, Value: &valueFloat},
	{Key: `,"on":`, Offset: uint32(unsafe.Offsetof(recurringMeta{}.On)), Omit: rpc.OmitFalse, Value: &valueBool},
	{Key: `,"caps":`, Offset: uint32(unsafe.Offsetof(recurringMeta{}.Caps)), Value: &valueRaw},
	{Key: `,"info":`, Offset: uint32(unsafe.Offsetof(recurringMeta{}.Info)), Omit: rpc.OmitNil, Value: &valueRaw},
	{Key: `,"flag":`, Offset: uint32(unsafe.Offsetof(recurringMeta{}.Flag)), Omit: rpc.OmitNil, Value: &valueFlag},
}

var (
	// metaCodec is recurringMeta's table, marked Recurring; plainMetaCodec is the
	// same table without the mark, the oracle.
	metaCodec = rpc.StructCodec{Type: (*recurringMeta)(nil), Fields: metaFields,
		Extra: unsafe.Offsetof(recurringMeta{}.Extra), HasExtra: true, Recurring: true}
	plainMetaCodec = rpc.StructCodec{Type: (*recurringMeta)(nil), Fields: metaFields,
		Extra: unsafe.Offsetof(recurringMeta{}.Extra), HasExtra: true}
)

// recurringInputs are strict texts a recurringMeta may be decoded from: ones that
// can be remembered, ones that cannot (a pointer, Extra) and ones that
// fail, near copies of each other.
var recurringInputs = []string{
	`{"v":"2026-07-28","caps":{},"info":{"name":"c","version":"1"}}`,
	`{"v":"2026-07-28","caps":{},"info":{"name":"c","version":"2"}}`,
	`{"v":"2026-07-28","caps":{}, "info":{"name":"c","version":"1"}}`,
	`{"v":"2026-07-28","caps":{"sampling":{}},"kind":"k","count":3,"ratio":0.5,"on":true}`,
	`{"v":"2026-07-28","caps":null}`,
	`{"v":"2026-07-28","caps":{},"info":null}`,
	`{"v":"2026-07-28","caps":{},"flag":true}`,
	`{"v":"2026-07-28","caps":{},"flag":null}`,
	`{"v":"2026-07-28","caps":{},"progressToken":7}`,
	`{"v":"\u0032026-07-28","caps":{}}`,
	`{"v":1,"caps":{}}`,
	`{"v":"x","count":1.5,"caps":{}}`,
	`{}`,
	`null`,
	`[1]`,
}

// decodeMeta decodes in with codec, as a checked UnmarshalCheckedJSON
// does, into a recurringMeta holding stale values, and describes the outcome.
func decodeMeta(codec *rpc.StructCodec, in string) (recurringMeta, string) {
	stale := true
	got := recurringMeta{Version: "stale", Caps: json.RawMessage(`"stale"`), Flag: &stale, Extra: map[string]json.RawMessage{"stale": nil}}
	if err := rpc.DecodeStruct([]byte(in), true, unsafe.Pointer(&got), codec); err != nil {
		return recurringMeta{}, err.Error()
	}
	return got, ""
}

func TestARecurringStructDecodesAsAnyOther(t *testing.T) {
	for _, first := range recurringInputs {
		for _, then := range recurringInputs {
			for round, in := range []string{first, first, then, then, then, then, then, then, then} {
				want, wantErr := decodeMeta(&plainMetaCodec, in)
				got, gotErr := decodeMeta(&metaCodec, in)
				require.Equal(t, wantErr, gotErr, "%s after %s (round %d)", in, first, round)
				require.Equal(t, want, got, "%s after %s (round %d)", in, first, round)
			}
		}
	}
}

func TestARecurringStructsCopiesShareNothingAWriteCanReach(t *testing.T) {
	in := `{"v":"2026-07-28","caps":{"a":1},"info":{"name":"c"}}`
	var all []recurringMeta
	for range 4 {
		got, err := decodeMeta(&metaCodec, in)
		require.Empty(t, err)
		all = append(all, got)
	}
	all[1].Caps[2] = 'X'
	all[1].Info = append(all[1].Info, ' ')
	all[2].Caps = append(all[2].Caps[:len(all[2].Caps)-1], '!')
	for _, i := range []int{0, 3} {
		assert.Equal(t, `{"a":1}`, string(all[i].Caps))
		assert.Equal(t, `{"name":"c"}`, string(all[i].Info))
	}
	again, err := decodeMeta(&metaCodec, in)
	require.Empty(t, err)
	assert.Equal(t, `{"a":1}`, string(again.Caps), "what is remembered is a copy of its own")
	assert.Equal(t, `{"name":"c"}`, string(again.Info))
}

func TestARecurringStructIsDecodedSafelyFromManyGoroutines(t *testing.T) {
	type outcome struct {
		value recurringMeta
		err   string
	}
	want := make([]outcome, len(recurringInputs))
	for i, in := range recurringInputs {
		want[i].value, want[i].err = decodeMeta(&plainMetaCodec, in)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 300 {
				i := (g*5 + n/3) % len(recurringInputs)
				got, err := decodeMeta(&metaCodec, recurringInputs[i])
				if !assert.Equal(t, want[i], outcome{got, err}, recurringInputs[i]) {
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestARecurringStructTooLargeToRememberIsDecodedEachTime(t *testing.T) {
	in := fmt.Sprintf(`{"v":%q,"caps":{}}`, strings.Repeat("x", 1024))
	for range 3 {
		want, wantErr := decodeMeta(&plainMetaCodec, in)
		got, gotErr := decodeMeta(&metaCodec, in)
		assert.Equal(t, wantErr, gotErr)
		assert.Equal(t, want, got)
	}
}

func TestAWalkStepsOverARememberedValueAsItWouldScanIt(t *testing.T) {
	const remembered = `{"v":"2026-07-28","caps":{},"info":{"name":"c"}}`
	for range 6 { // remembered by now, whatever the tests before left
		_, err := decodeMeta(&metaCodec, remembered)
		require.Empty(t, err)
	}
	members := func(in string, checked bool) (out []string, err error) {
		_, err = rpc.DecodeMembersChecked[json.RawMessage]([]byte(in), checked, func(name, value []byte) (bool, error) {
			out = append(out, string(name)+"="+string(value))
			return true, nil
		})
		return out, err
	}
	for _, in := range []string{
		`{"_meta":` + remembered + `,"name":"x"}`,
		`{"name":"x","_meta":` + remembered + `}`,
		`{"a":` + remembered + `,"b":[` + remembered + `],"c":` + remembered + `}`,
		`{"_meta":{"v":"2026-07-28","caps":{},"info":{"name":"d"}},"name":"x"}`,
		`{"_meta":{"v":"2026-07-28","caps":{},"info":{"name":"c"},"more":1},"name":"x"}`,
		`{"_meta":` + remembered + ` ,"name":"x"}`,
		`{"_meta":` + remembered + `}`,
	} {
		want, wantErr := members(in, false)
		got, gotErr := members(in, true)
		require.NoError(t, wantErr, in)
		assert.NoError(t, gotErr, in)
		assert.Equal(t, want, got, in)
	}
}
