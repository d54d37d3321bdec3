package fastschema_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// schemaGen builds random schemas from the supported keywords, so keyword
// interactions no hand-written case covers meet the oracle too.
type schemaGen struct {
	rnd    *rand.Rand
	draft7 bool
	uneval bool // also unevaluatedProperties and unevaluatedItems (2019-09 and later)
	defs   int  // number of $defs the root carries (refs may point to any)
}

var (
	genNames   = []string{"a", "b", "c", "é", "x-1", "type"}
	genStrings = []any{"", "a", "ab", "é😀", "text", "x-1"}
	genNumbers = []any{json.Number("0"), json.Number("-1"), json.Number("1.5"), json.Number("2"), json.Number("1e2"), json.Number("10.0"), json.Number("3")}
	genTypes   = []string{"null", "boolean", "number", "integer", "string", "array", "object"}
)

func (g *schemaGen) pick(n int) int { return g.rnd.IntN(n) }

// scalar returns a random JSON scalar.
func (g *schemaGen) scalar() any {
	switch g.pick(5) {
	case 0:
		return nil
	case 1:
		return g.pick(2) == 0
	case 2:
		return genStrings[g.pick(len(genStrings))]
	default:
		return genNumbers[g.pick(len(genNumbers))]
	}
}

// value returns a random JSON value of bounded depth.
func (g *schemaGen) value(depth int) any {
	if depth <= 0 {
		return g.scalar()
	}
	switch g.pick(4) {
	case 0:
		m := map[string]any{}
		for range g.pick(4) {
			m[genNames[g.pick(len(genNames))]] = g.value(depth - 1)
		}
		return m
	case 1:
		a := []any{}
		for range g.pick(4) {
			a = append(a, g.value(depth-1))
		}
		return a
	}
	return g.scalar()
}

// schema returns a random schema of bounded depth.
func (g *schemaGen) schema(depth int) any {
	if depth <= 0 || g.pick(6) == 0 {
		switch g.pick(6) {
		case 0:
			return g.pick(3) != 0
		case 1:
			if g.defs > 0 {
				return map[string]any{"$ref": g.defRef()}
			}
		}
		return map[string]any{"type": genTypes[g.pick(len(genTypes))]}
	}
	s := map[string]any{}
	for range 1 + g.pick(3) {
		g.keyword(s, depth)
	}
	return s
}

// defRef names one of the root's definitions.
func (g *schemaGen) defRef() string {
	if g.draft7 {
		return "#/definitions/d" + itoa(g.pick(g.defs))
	}
	return "#/$defs/d" + itoa(g.pick(g.defs))
}

// names returns a few distinct member names.
func (g *schemaGen) names() []any {
	var out []any
	seen := map[string]bool{}
	for range 1 + g.pick(3) {
		n := genNames[g.pick(len(genNames))]
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// keyword adds one random keyword to s.
func (g *schemaGen) keyword(s map[string]any, depth int) {
	sub := func() any { return g.schema(depth - 1) }
	kinds := 31
	if g.uneval && !g.draft7 {
		kinds = 33
	}
	switch g.pick(kinds) {
	case 0:
		if g.pick(2) == 0 {
			s["type"] = genTypes[g.pick(len(genTypes))]
		} else {
			a := g.pick(len(genTypes))
			b := (a + 1 + g.pick(len(genTypes)-1)) % len(genTypes)
			s["type"] = []any{genTypes[a], genTypes[b]}
		}
	case 1:
		s["const"] = g.value(2)
	case 2:
		s["enum"] = []any{g.value(1), g.value(1), g.scalar()}
	case 3:
		props := map[string]any{}
		for _, n := range g.names() {
			props[n.(string)] = sub()
		}
		s["properties"] = props
	case 4:
		s["required"] = g.names()
	case 5:
		if g.pick(2) == 0 {
			s["additionalProperties"] = g.pick(2) == 0
		} else {
			s["additionalProperties"] = sub()
		}
	case 6:
		s["patternProperties"] = map[string]any{[]string{"^x-", "é", "^[ab]$"}[g.pick(3)]: sub()}
	case 7:
		s["propertyNames"] = sub()
	case 8:
		s["minProperties"] = g.pick(3)
	case 9:
		s["maxProperties"] = g.pick(3)
	case 10:
		if g.draft7 {
			s["dependencies"] = map[string]any{genNames[g.pick(len(genNames))]: g.names()}
		} else {
			s["dependentRequired"] = map[string]any{genNames[g.pick(len(genNames))]: g.names()}
		}
	case 11:
		if g.draft7 {
			s["dependencies"] = map[string]any{genNames[g.pick(len(genNames))]: sub()}
		} else {
			s["dependentSchemas"] = map[string]any{genNames[g.pick(len(genNames))]: sub()}
		}
	case 12:
		s["items"] = sub()
	case 13:
		if g.draft7 {
			s["items"] = []any{sub(), sub()}
			if g.pick(2) == 0 {
				s["additionalItems"] = g.pick(2) == 0
			} else {
				s["additionalItems"] = sub()
			}
		} else {
			s["prefixItems"] = []any{sub(), sub()}
		}
	case 14:
		s["contains"] = sub()
		if !g.draft7 && g.pick(2) == 0 {
			s["minContains"] = g.pick(3)
			s["maxContains"] = 1 + g.pick(2)
		}
	case 15:
		s["minItems"] = g.pick(3)
	case 16:
		s["maxItems"] = g.pick(3)
	case 17:
		s["uniqueItems"] = g.pick(3) != 0
	case 18:
		s["minLength"] = g.pick(3)
	case 19:
		s["maxLength"] = g.pick(3)
	case 20:
		s["pattern"] = []string{"^a", "é", "^$", "b$"}[g.pick(4)]
	case 21:
		s[[]string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}[g.pick(4)]] = genNumbers[g.pick(len(genNumbers))]
	case 22:
		s["multipleOf"] = []any{json.Number("2"), json.Number("0.5"), json.Number("3")}[g.pick(3)]
	case 23:
		s["allOf"] = []any{sub(), sub()}
	case 24:
		s["anyOf"] = []any{sub(), sub(), sub()}
	case 25:
		s["oneOf"] = []any{sub(), sub()}
	case 26:
		s["not"] = sub()
	case 27:
		s["if"] = sub()
		s["then"] = sub()
		if g.pick(2) == 0 {
			s["else"] = sub()
		}
	case 28:
		if g.defs > 0 {
			s["$ref"] = g.defRef()
		}
	case 29:
		// a discriminated union of objects
		alts := []any{}
		for k, tag := range []string{"p", "q", "r"}[:2+g.pick(2)] {
			alts = append(alts, map[string]any{
				"type":       "object",
				"properties": map[string]any{"type": map[string]any{"const": tag}, genNames[k]: sub()},
				"required":   []any{"type"},
			})
		}
		s[[]string{"anyOf", "oneOf"}[g.pick(2)]] = alts
	case 30:
		// asserted in draft-07, an annotation in 2020-12; "byte" is no
		// format the library knows
		s["format"] = []string{"hostname", "uri-reference", "relative-json-pointer", "regex", "date", "byte"}[g.pick(6)]
	case 31:
		s["unevaluatedProperties"] = sub()
	case 32:
		s["unevaluatedItems"] = sub()
	}
}

// root returns a random schema document.
func (g *schemaGen) root() any {
	g.defs = g.pick(3)
	defs := map[string]any{}
	for k := range g.defs {
		defs["d"+itoa(k)] = g.schema(3)
	}
	s, ok := g.schema(3).(map[string]any)
	if !ok {
		s = map[string]any{"allOf": []any{g.schema(1)}}
	}
	if g.draft7 {
		s["$schema"] = "http://json-schema.org/draft-07/schema#"
		if len(defs) > 0 {
			s["definitions"] = defs
		}
		if _, hasRef := s["$ref"]; hasRef {
			// draft-07 ignores keywords beside $ref: keep it that way
			s = map[string]any{"$schema": s["$schema"], "$ref": s["$ref"], "definitions": defs}
		}
	} else if len(defs) > 0 {
		s["$defs"] = defs
	}
	return s
}

// randomSchemas is how many schemas the random test tries.
var randomSchemas = 600

// randomSeed seeds the random test.
var randomSeed uint64 = 2026

func TestRandomSchemasAgreeWithOracle(t *testing.T) {
	rnd := rand.New(rand.NewPCG(randomSeed, 8))
	counts := map[fastschema.Verdict]int{}
	skipped := 0
	for k := range randomSchemas {
		g := &schemaGen{rnd: rnd, draft7: k%3 == 0}
		doc, err := json.Marshal(g.root())
		require.NoError(t, err)
		sch, err := tryCompileDoc(string(doc))
		if err != nil {
			skipped++ // the metaschema rejects it (an enum with repeated items)
			continue
		}
		v := fastschema.Compile(sch)
		for _, why := range fastschema.Reasons(v) {
			// The generator uses supported keywords only: what is left
			// to the oracle is schemas that loop on the same value.
			require.Equal(t, "cycle of in-place references", why, "schema %s", doc)
		}
		for range 40 {
			data := encode(rnd, g.value(3))
			explainAgrees(t, sch, v, data)
			got := check(t, v, data)
			counts[got]++
			if got == fastschema.Unknown {
				continue
			}
			require.Equal(t, oracleVerdict(t, sch, data), got, "schema %s\ninstance %s", doc, data)
		}
	}
	t.Logf("verdicts %v, %d schemas skipped", counts, skipped)
	require.Less(t, skipped, 100)
	require.Positive(t, counts[fastschema.Valid])
	require.Positive(t, counts[fastschema.Invalid])
}
