package fastschema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

func TestRefusesNamesAFeatureExplainCannotEvaluateWhereverItIs(t *testing.T) {
	for doc, want := range map[string]string{
		`{"type":"object","properties":{"a":{"type":"string"}}}`:                                          "",
		`{"unevaluatedProperties":false,"properties":{"a":{}}}`:                                           "",
		`{"$defs":{"a":{"$dynamicAnchor":"x"}},"items":{"properties":{"p":{"$dynamicRef":"#x"}}}}`:        "$dynamicRef",
		`{"$defs":{"a":{"$dynamicAnchor":"x"}},"unevaluatedItems":{"$dynamicRef":"#x"}}`:                  "$dynamicRef",
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","anyOf":[{"$recursiveRef":"#"},true]}`: "$recursiveRef",
	} {
		v, err := compileOwn(doc)
		require.NoError(t, err, doc)
		assert.Equal(t, want, v.Refuses(), doc)
	}
	var none *fastschema.Validator
	assert.Equal(t, "", none.Refuses(), "a nil validator accepts everything")
}
