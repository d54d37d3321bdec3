package fastschema_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// malformedInputs are not well-formed I-JSON texts.
var malformedInputs = []string{
	``, ` `, `{`, `}`, `[`, `{"a":1`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `[1,]`, `[1 2]`, `01`, `-`, `1.`, `.5`, `1e`, `+1`,
	`tru`, `nul`, `falsy`, `"abc`, `"\x"`, `"\u12"`, `"\u12G4"`, "\"a\tb\"", "\"\xff\"", "\"\xc3\"", `"\ud800"`, `"\udc00"`,
	`"\ud800\u0041"`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"zz":1,"zz":2}`, `{"\u007a":1,"z":2}`, `1 2`, `{} {}`, `[] x`,
	`{"a":[1,{"b":}]}`, `NaN`, `Infinity`, `-Infinity`, `'a'`, `[1]]`, `{"a":1}}`,
	strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
}

func TestMalformedInputAnswersUnknown(t *testing.T) {
	schemas := []string{
		`true`, `{}`, `false`, `{"type":"object"}`, `{"type":"string","minLength":1}`,
		`{"properties":{"a":{"type":"integer"},"b":{}},"required":["a"]}`,
		`{"not":{"type":"object"}}`, `{"anyOf":[{"type":"array"},{"type":"object","additionalProperties":false}]}`,
		`{"const":{"a":1}}`, `{"uniqueItems":true}`, unionSchema,
	}
	for _, doc := range schemas {
		v := fastschema.Compile(compileDoc(t, doc))
		for _, in := range malformedInputs {
			assert.Equal(t, fastschema.Unknown, check(t, v, []byte(in)), "schema %s, input %.60q", doc, in)
		}
	}
}

func TestNilValidatorAcceptsEverything(t *testing.T) {
	var v *fastschema.Validator
	assert.Nil(t, fastschema.Compile(nil))
	assert.Equal(t, fastschema.Valid, v.Check([]byte(`{"any":"thing"}`)))
	assert.Equal(t, fastschema.Valid, v.Check([]byte(`not even json`)))
	assert.True(t, v.Exact())
}

func TestVerdictNames(t *testing.T) {
	assert.Equal(t, "unknown", fastschema.Unknown.String())
	assert.Equal(t, "valid", fastschema.Valid.String())
	assert.Equal(t, "invalid", fastschema.Invalid.String())
	assert.Equal(t, "unknown", fastschema.Verdict(9).String())
}

func TestExactReportsUnsupportedKeywords(t *testing.T) {
	for doc, want := range map[string]bool{
		`{"type":"object","properties":{"a":{"$ref":"#"}}}`:                   true,
		`{"properties":{"a":{"unevaluatedProperties":false}}}`:                false,
		`{"$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"}]}},"$ref":"#/$defs/A"}`: false,
		`{"items":{"$dynamicRef":"#x"},"$dynamicAnchor":"x"}`:                 false,
		`{"contentMediaType":"application/json"}`:                             true, // content is not asserted
	} {
		assert.Equal(t, want, fastschema.Compile(compileDoc(t, doc)).Exact(), doc)
	}
}
