package fastschema_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

func TestExplainMatchesOracleOnRandomSchemasWithUnevaluated(t *testing.T) {
	rnd := rand.New(rand.NewPCG(randomSeed, 41))
	explained, failing, refused, unevaluated := 0, 0, 0, 0
	for range randomSchemas {
		g := &schemaGen{rnd: rnd, uneval: true}
		generated, err := json.Marshal(g.root())
		require.NoError(t, err)
		for _, doc := range relabelled(string(generated)) {
			sch, libErr := tryCompileDoc(doc)
			own, err := compileOwn(doc)
			if libErr != nil {
				require.Error(t, err, "the library refuses %s (%v)", doc, libErr)
				continue
			}
			require.NoError(t, err, "schema %s", doc)
			lib := fastschema.Compile(sch)
			for range 20 {
				data := encode(rnd, g.value(3))
				for _, v := range []*fastschema.Validator{own, lib} {
					if !explainAgrees(t, sch, v, data) {
						_, err := v.Explain(data)
						require.ErrorIs(t, err, fastschema.ErrUnsupported)
						require.ErrorContains(t, err, "cycle", "the generator uses no other refused feature")
						refused++
						continue
					}
					explained++
					if f, _ := v.Explain(data); f != nil {
						failing++
						if mentions(f, "/unevaluated") {
							unevaluated++
						}
					}
				}
			}
		}
	}
	t.Logf("%d explained (%d failing, %d of them on unevaluated keywords), %d refused", explained, failing, unevaluated, refused)
	require.Positive(t, unevaluated)
	require.Less(t, refused, explained/10, "Explain refuses too much")
}

// mentions reports whether a failure, or one of its alternatives', has a
// location containing s.
func mentions(failures []fastschema.Failure, s string) bool {
	for _, f := range failures {
		if strings.Contains(f.Location, s) {
			return true
		}
		for _, alt := range f.Alternatives {
			if mentions(alt, s) {
				return true
			}
		}
	}
	return false
}

func TestExplainRefusesMalformedJSON(t *testing.T) {
	v, err := compileOwn(`{"type":"object"}`)
	require.NoError(t, err)
	for _, data := range []string{``, `{`, `{"a":1,}`, `[1 2]`, `1 2`, `{"a":1}x`, `nul`, `"\x"`} {
		f, err := v.Explain([]byte(data))
		assert.Error(t, err, "%q", data)
		assert.Nil(t, f, "%q", data)
	}
}

func TestExplainRefusesDynamicAndRecursiveReferences(t *testing.T) {
	for name, doc := range map[string]string{
		"$dynamicRef": `{"$dynamicAnchor":"n","properties":{"a":{"$dynamicRef":"#n"}}}`,
		"$recursiveRef": `{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true,
			"properties":{"a":{"$recursiveRef":"#"}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			v, err := compileOwn(doc)
			require.NoError(t, err)
			f, err := v.Explain([]byte(`{"a":{"a":1}}`))
			require.ErrorIs(t, err, fastschema.ErrUnsupported)
			assert.Contains(t, err.Error(), name)
			assert.Nil(t, f)
			f, err = v.Explain([]byte(`{"b":1}`))
			require.NoError(t, err, "the feature is not reached")
			assert.Nil(t, f)
		})
	}
}

func TestExplainOfANilValidatorAcceptsEveryValue(t *testing.T) {
	var v *fastschema.Validator
	f, err := v.Explain([]byte(`{"a":[1]}`))
	require.NoError(t, err)
	assert.Nil(t, f)
	_, err = v.Explain([]byte(`{`))
	assert.Error(t, err, "the text is still read")
}
