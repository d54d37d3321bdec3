package extradiff_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsondecode"
	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

// The reference decoding below is the generated code's behaviour before
// its members were decoded directly, at every depth: each generated type
// that keeps unknown members is decoded as a plain copy of its struct by
// the decoder's reflection, then its unknown members from a map, and the
// decoder does the same for every such type it meets inside (unions still
// pick and decode their variants with their own UnmarshalJSON). The
// generated UnmarshalJSON must give the same value, or fail where it
// fails.

// targetOf finds the target of a Go type.
var targetOf = func() map[reflect.Type]target {
	m := make(map[reflect.Type]target, len(targets))
	for _, tg := range targets {
		m[tg.typ] = tg
	}
	return m
}()

// referenceOptions make the decoder use referenceDecode for every target
// type it meets and the type's own method for the rest.
func referenceOptions() jsonv2.Options {
	return jsonv2.WithUnmarshalers(jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, u json.Unmarshaler) error {
		tg, ok := targetOf[reflect.TypeOf(u).Elem()]
		if !ok {
			return errors.ErrUnsupported // the decoder then calls the type's own method
		}
		b, err := dec.ReadValue()
		if err != nil {
			return err
		}
		v, err := tg.referenceDecode(b)
		if err != nil {
			return err
		}
		reflect.ValueOf(u).Elem().Set(reflect.ValueOf(v))
		return nil
	}))
}

// referenceDecode decodes b as the type's generated code did before direct
// member decoding, all the way down.
func (t target) referenceDecode(b []byte) (any, error) {
	fields := make([]reflect.StructField, t.typ.NumField())
	var known []string
	extraAt := -1
	for i := range fields {
		f := t.typ.Field(i)
		fields[i] = reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			extraAt = i
			continue
		}
		known = append(known, name)
	}
	plain := reflect.New(reflect.StructOf(fields))
	out := reflect.New(t.typ).Elem()
	if err := jsonv2.Unmarshal(b, plain.Interface(), referenceOptions()); err != nil {
		return nil, err
	}
	for i := range fields {
		out.Field(i).Set(plain.Elem().Field(i))
	}
	extra, err := splitExtra[json.RawMessage](b, known...)
	if err != nil {
		return nil, err
	}
	out.Field(extraAt).Set(reflect.ValueOf(extra).Convert(t.typ.Field(extraAt).Type))
	return out.Interface(), nil
}

// matchesReference decodes in with the generated code and with the
// reference and reports whether they agree: the same value, or both fail.
func matchesReference(t *testing.T, tg target, in string) bool {
	t.Helper()
	want, wantErr := tg.referenceDecode([]byte(in))
	got, gotErr := tg.newDecode([]byte(in))
	if (wantErr == nil) != (gotErr == nil) {
		t.Errorf("%s.%s: %q: reference error %v, generated code error %v", tg.pkg(), tg.typ.Name(), in, wantErr, gotErr)
		return false
	}
	if wantErr == nil && !reflect.DeepEqual(want, got) {
		t.Errorf("%s.%s: %q: reference %#v, generated code %#v", tg.pkg(), tg.typ.Name(), in, want, got)
		return false
	}
	return true
}

func TestGeneratedDecodeMatchesTheReferenceAllTheWayDown(t *testing.T) {
	ex := examples(t)
	cross := map[string]bool{}
	for _, list := range ex {
		for _, b := range list {
			objectsIn(b, cross)
		}
	}
	crossList := make([]string, 0, len(cross))
	for s := range cross {
		crossList = append(crossList, s)
	}
	sort.Strings(crossList)

	var cases, failures int
	for _, tg := range targets {
		inputs := append([]string(nil), notObjects...)
		inputs = append(inputs, mutations(synthetic(tg))...)
		for _, b := range ex[tg.typ.Name()] {
			inputs = append(inputs, string(b))
			inputs = append(inputs, mutations(members(t, b))...)
		}
		inputs = append(inputs, crossList...)
		for _, in := range inputs {
			cases++
			if !matchesReference(t, tg, in) {
				failures++
				if failures > 20 {
					t.Fatalf("stopping after %d differences", failures)
				}
			}
		}
	}
	t.Logf("%d types, %d decodes compared", len(targets), cases)
}

// richTargets are the types the fuzz target decodes: the params of the
// hottest request of each era, with _meta, and the types with the most
// kinds of member.
var richTargets = []target{
	of[v20251125.CallToolRequestParams](),
	of[v20260728.CallToolRequestParams](),
	of[v20251125.InitializeRequestParams](),
	of[v20251125.Tool](),
	of[v20260728.Tool](),
	of[v20251125.CreateMessageRequestParams](),
	of[v20260728.CreateMessageRequestParams](),
	of[v20260728.RequestMetaObject](),
}

// FuzzGeneratedDecodeMatchesReference decodes arbitrary input into the rich
// types with the generated code, with the reference and with the
// one-level old path, and checks that they agree: the same value or all
// fail, and for valid JSON the same error text as the one-level old path.
func FuzzGeneratedDecodeMatchesReference(f *testing.F) {
	seeds := []string{
		`{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}}`,
		`{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"c","version":"1.0","icons":[{"src":"https://x/i.png","sizes":["16x16"]}]}}`,
		`{"name":"t","title":"T","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},"icons":[],"_meta":{"k":1}}`,
		`{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":100,"temperature":0.5,"stopSequences":["x"],"modelPreferences":{"hints":[{"name":"m"}],"costPriority":0.2}}`,
		`{"name":1}`, `{"name":"a","name":"b"}`, `{"\u006eame":"x"}`, `{"maxTokens":1.5}`, `{"maxTokens":1e2}`, `{"maxTokens":-0}`, `null`, `[]`,
	}
	for i, s := range seeds {
		for j := range richTargets {
			if i < 4 || j == 0 {
				f.Add(uint8(j), []byte(s))
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		tg := richTargets[int(which)%len(richTargets)]
		if !matchesReference(t, tg, string(b)) || !compare(t, tg, string(b)) || !decodeJSONMatchesDecoder(t, tg, b) {
			t.FailNow()
		}
	})
}

// decodeJSONMatchesDecoder checks that rpc.DecodeJSON, which hands the
// generated types their input without checking it first, gives what its
// decoder gives calling their UnmarshalJSON after its own check: the same
// value or the same error text.
func decodeJSONMatchesDecoder(t *testing.T, tg target, b []byte) bool {
	t.Helper()
	got, want := reflect.New(tg.typ), reflect.New(tg.typ)
	err := rpc.DecodeJSON(b, got.Interface())
	wantErr := jsondecode.Unmarshal(b, want.Interface())
	switch {
	case (err == nil) != (wantErr == nil):
		t.Errorf("%s.%s: %q: DecodeJSON error %v, decoder error %v", tg.pkg(), tg.typ.Name(), b, err, wantErr)
		return false
	case err != nil && err.Error() != wantErr.Error():
		t.Errorf("%s.%s: %q: DecodeJSON error %q, decoder error %q", tg.pkg(), tg.typ.Name(), b, err, wantErr)
		return false
	case err == nil && !reflect.DeepEqual(got.Interface(), want.Interface()):
		t.Errorf("%s.%s: %q: DecodeJSON %#v, decoder %#v", tg.pkg(), tg.typ.Name(), b, got, want)
		return false
	}
	return true
}

func TestDecodeJSONOfGeneratedTypesMatchesTheDecoder(t *testing.T) {
	for _, tg := range targets {
		inputs := append([]string(nil), notObjects...)
		inputs = append(inputs, mutations(synthetic(tg))...)
		inputs = append(inputs, ` `+render(synthetic(tg))+"\n", render(synthetic(tg))+` x`, `{"_meta":1} {}`)
		for _, in := range inputs {
			if !decodeJSONMatchesDecoder(t, tg, []byte(in)) {
				t.FailNow()
			}
		}
	}
}

func TestRichTargetsAreTargets(t *testing.T) {
	for _, tg := range richTargets {
		_, ok := targetOf[tg.typ]
		require.True(t, ok, "%s keeps unknown members", tg.typ)
	}
}
