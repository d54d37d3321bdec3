package jsonformat_test

import (
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonformat"
)

// oracles holds, per format name, the library's schema asserting it.
var oracles sync.Map

// oracle returns the library's draft-07 schema {"format": name}, whose
// Validate is the verdict jsonformat must agree with.
func oracle(t testing.TB, name string) *jsonschema.Schema {
	if sch, ok := oracles.Load(name); ok {
		return sch.(*jsonschema.Schema)
	}
	c := jsonschema.NewCompiler()
	doc := map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "format": name}
	require.NoError(t, c.AddResource("https://x.test/s.json", doc))
	sch, err := c.Compile("https://x.test/s.json")
	require.NoError(t, err)
	require.NotNil(t, sch.Format, "the library does not assert %q in draft 07", name)
	oracles.Store(name, sch)
	return sch
}

// agree fails t unless jsonformat and the library give v the same verdict
// for the format name.
func agree(t testing.TB, name string, v any) {
	t.Helper()
	want := oracle(t, name).Validate(v) == nil
	got := jsonformat.Lookup(name).Validate(v) == nil
	if got != want {
		t.Errorf("%s: %q: ours says valid=%v, the library valid=%v", name, v, got, want)
	}
}

// formatNames are the names of formatCases, in order.
func formatNames() []string {
	names := make([]string, 0, len(formatCases))
	for name := range formatCases {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func TestTheLibraryAssertsInOldDraftsExactlyTheFormatsLookupKnows(t *testing.T) {
	assert.Equal(t, formatNames(), jsonformat.Names(), "the tables cover every format Lookup knows")
	probe := append(jsonformat.Names(), "byte", "int32", "int64", "float", "double", "password", "binary", "idn-email", "idn-hostname", "iri-template", "color", "unknown")
	for _, draft := range []string{"draft-07", "draft-06", "draft-04"} {
		for _, name := range probe {
			c := jsonschema.NewCompiler()
			doc := map[string]any{"$schema": "http://json-schema.org/" + draft + "/schema#", "format": name}
			require.NoError(t, c.AddResource("https://x.test/s.json", doc))
			sch, err := c.Compile("https://x.test/s.json")
			require.NoError(t, err)
			assert.Equal(t, sch.Format != nil, jsonformat.Lookup(name) != nil, "%s %s", draft, name)
		}
	}
}

func TestEveryEdgeCaseGetsTheLibrarysVerdict(t *testing.T) {
	for _, name := range formatNames() {
		for _, s := range append(formatCases[name].valid, formatCases[name].invalid...) {
			agree(t, name, s)
		}
	}
}

func TestMutatedStringsGetTheLibrarysVerdict(t *testing.T) {
	rnd := rand.New(rand.NewPCG(26, 6))
	n := 3000
	if testing.Short() {
		n = 300
	}
	var seeds []string
	for _, name := range formatNames() {
		seeds = append(seeds, formatCases[name].valid...)
	}
	for _, name := range formatNames() {
		own := append(formatCases[name].valid, formatCases[name].invalid...)
		valid := 0
		for range n {
			var s string
			if rnd.IntN(4) == 0 {
				s = seeds[rnd.IntN(len(seeds))]
			} else {
				s = own[rnd.IntN(len(own))]
			}
			for range rnd.IntN(3) {
				s = mutate(rnd, s)
			}
			agree(t, name, s)
			if jsonformat.Lookup(name).Validate(s) == nil {
				valid++
			}
		}
		// Both verdicts are compared, not only the easy one.
		assert.Greater(t, valid, n/100, "%s: too few valid mutations", name)
		assert.Less(t, valid, n-n/100, "%s: too few invalid mutations", name)
	}
}

// alphabet are the characters mutations insert: the ones the formats give
// a meaning to, and a few they do not.
const alphabet = "0123456789aAfFgzZtTPWYMDHSW:/.-+_~#?@[]{}%%\\\"' \x00\x7fé例\u00a0"

// mutate changes s in one random way: a digit or letter replaced by
// another of its kind (which often keeps s valid), a character inserted,
// removed or replaced, a part repeated, two parts swapped, or a prefix or
// suffix cut.
func mutate(rnd *rand.Rand, s string) string {
	runes := []rune(alphabet)
	pos := func() int { return rnd.IntN(len(s) + 1) }
	switch rnd.IntN(10) {
	case 7, 8, 9:
		b := []byte(s)
		for range 1 + rnd.IntN(3) {
			if len(b) == 0 {
				break
			}
			i := rnd.IntN(len(b))
			switch c := b[i]; {
			case '0' <= c && c <= '9':
				b[i] = '0' + byte(rnd.IntN(10))
			case 'a' <= c && c <= 'z':
				b[i] = 'a' + byte(rnd.IntN(26))
			case 'A' <= c && c <= 'Z':
				b[i] = 'A' + byte(rnd.IntN(26))
			}
		}
		return string(b)
	case 0:
		i := pos()
		return s[:i] + string(runes[rnd.IntN(len(runes))]) + s[i:]
	case 1:
		if s == "" {
			return s
		}
		i := rnd.IntN(len(s))
		return s[:i] + s[i+1:]
	case 2:
		if s == "" {
			return s
		}
		i := rnd.IntN(len(s))
		return s[:i] + string(runes[rnd.IntN(len(runes))]) + s[i+1:]
	case 3:
		i, j := pos(), pos()
		if i > j {
			i, j = j, i
		}
		return s[:j] + s[i:j] + s[j:]
	case 4:
		i, j := pos(), pos()
		if i > j {
			i, j = j, i
		}
		return s[i:j] + s[:i] + s[j:]
	case 5:
		return s[:pos()]
	}
	return strings.Repeat(s[pos():], 1+rnd.IntN(2))
}
