package fastschema_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// compileDoc compiles the schema document doc the way the project does:
// Draft 2020-12 unless the document says otherwise, no format or content
// assertions.
func compileDoc(t testing.TB, doc string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	require.NoError(t, err)
	require.NoError(t, c.AddResource("mem:///schema.json", v))
	sch, err := c.Compile("mem:///schema.json")
	require.NoError(t, err)
	return sch
}

// tryCompileDoc is compileDoc for documents that may be invalid schemas.
func tryCompileDoc(doc string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		return nil, err
	}
	if err := c.AddResource("mem:///schema.json", v); err != nil {
		return nil, err
	}
	return c.Compile("mem:///schema.json")
}

// oracle reports whether the library accepts data, and whether data could
// be decoded and judged at all: the library panics on some numbers whose
// exponent its big.Rat parsing refuses (1e9999999 against a minimum).
func oracle(sch *jsonschema.Schema, data []byte) (valid, decoded bool) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return false, false
	}
	defer func() {
		if recover() != nil {
			valid, decoded = false, false
		}
	}()
	return sch.Validate(v) == nil, true
}

// oracleVerdict is the verdict the oracle implies for data.
func oracleVerdict(t testing.TB, sch *jsonschema.Schema, data []byte) fastschema.Verdict {
	t.Helper()
	valid, decoded := oracle(sch, data)
	require.True(t, decoded, "instance %s does not decode", data)
	if valid {
		return fastschema.Valid
	}
	return fastschema.Invalid
}

// agree checks that the fast verdict is the oracle's or Unknown, and that v
// explains data as the oracle does; it returns the fast verdict.
func agree(t testing.TB, sch *jsonschema.Schema, v *fastschema.Validator, data []byte) fastschema.Verdict {
	t.Helper()
	explainAgrees(t, sch, v, data)
	got := check(t, v, data)
	if got == fastschema.Unknown {
		return got
	}
	want := oracleVerdict(t, sch, data)
	require.Equal(t, want, got, "instance %s", data)
	return got
}

// programs caches, for each validator a test made, the validator its
// program decodes to.
var programs sync.Map // *fastschema.Validator → *fastschema.Validator

// viaProgram returns the validator that v's program (Encode, then Open and
// Root, as a generated package reads it) gives.
func viaProgram(t testing.TB, v *fastschema.Validator) *fastschema.Validator {
	t.Helper()
	if d, ok := programs.Load(v); ok {
		return d.(*fastschema.Validator)
	}
	prog, err := fastschema.Encode([]*fastschema.Validator{v})
	require.NoError(t, err)
	p, err := fastschema.Open(prog)
	require.NoError(t, err)
	require.Equal(t, 1, p.Len())
	d, err := p.Root(0)
	require.NoError(t, err)
	programs.Store(v, d)
	return d
}

// check is v.Check(data), after checking that v's program answers the
// same, and that CheckWellFormed answers the same for a text the strict
// scanner accepts, as does CheckWellFormedKnowing told the extent of the
// whole value or of any one of its members or elements, and
// CheckWellFormedRecurring with any of them recurring (after whatever
// earlier texts left in the validator's memory): every test of the
// compiled validator is also one of its program and of the check of
// scanned text.
func check(t testing.TB, v *fastschema.Validator, data []byte) fastschema.Verdict {
	t.Helper()
	got := v.Check(data)
	if v == nil {
		return got
	}
	p := viaProgram(t, v)
	require.Equal(t, got, p.Check(data), "the program answers otherwise for %s", data)
	if jsonscan.Strict(data, fastschema.MaxDepth) {
		require.Equal(t, got, v.CheckWellFormed(data), "CheckWellFormed answers otherwise for %s", data)
		require.Equal(t, got, p.CheckWellFormed(data), "the program's CheckWellFormed answers otherwise for %s", data)
		for _, e := range extents(data) {
			require.Equal(t, got, v.CheckWellFormedKnowing(data, e[0], e[1]),
				"CheckWellFormedKnowing answers otherwise for %s knowing %q", data, data[e[0]:e[1]])
			// Twice: the first check may remember the value (or find
			// what an earlier text left), the second steps over it.
			for range 2 {
				require.Equal(t, got, v.CheckWellFormedRecurring(data, e[0], e[1]),
					"CheckWellFormedRecurring answers otherwise for %s with %q recurring", data, data[e[0]:e[1]])
			}
		}
	}
	return got
}

// extents locates the value a strict text holds and each of its members'
// values or elements, as [start, end) offsets.
func extents(data []byte) [][2]int {
	start := jsonscan.SkipSpace(data, 0)
	out := [][2]int{{start, jsonscan.End(data, start)}}
	at := func(v []byte) [2]int {
		s := len(data) - cap(v)
		return [2]int{s, s + len(v)}
	}
	data = data[:len(data):len(data)] // a value's capacity runs to data's end
	if o, ok := jsonscan.NewObject(data); ok {
		for _, v, ok := o.Next(); ok; _, v, ok = o.Next() {
			out = append(out, at(v))
		}
	}
	if a, ok := jsonscan.NewArray(data); ok {
		for v, ok := a.Next(); ok; v, ok = a.Next() {
			out = append(out, at(v))
		}
	}
	return out
}
