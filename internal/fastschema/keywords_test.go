package fastschema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// keywordCase is one schema with instances and the verdict each must get.
type keywordCase struct {
	name    string
	schema  string
	valid   []string
	invalid []string
	unknown []string // instances the fast path must leave to the oracle
}

const (
	d7 = `"$schema": "http://json-schema.org/draft-07/schema#",`
	d4 = `"$schema": "http://json-schema.org/draft-04/schema#",`
)

var keywordCases = []keywordCase{
	{name: "true schema", schema: `true`, valid: []string{`1`, `{}`, `[1,{"a":null}]`, `"x"`}},
	{name: "false schema", schema: `false`, invalid: []string{`1`, `{}`, `null`}},
	{name: "empty schema", schema: `{}`, valid: []string{`1`, `{"a":[true,false,null]}`, ` "x" `}},
	{name: "type string", schema: `{"type":"string"}`, valid: []string{`""`, `"a\"b"`, `"\u00e9"`}, invalid: []string{`1`, `null`, `{}`, `[]`, `true`}},
	{name: "type integer accepts integral numbers", schema: `{"type":"integer"}`,
		valid:   []string{`1`, `-0`, `0`, `1.0`, `1e2`, `1.5e1`, `-12.000`, `1e400`, `123456789012345678901234567890`, `100e-2`, `0.0e5`},
		invalid: []string{`1.5`, `1e-1`, `"1"`, `true`, `null`, `0.1e0`, `15e-1`}},
	{name: "type number", schema: `{"type":"number"}`, valid: []string{`1`, `1.5`, `-0`, `1e400`, `1e999999999999`}, invalid: []string{`"1"`, `true`, `false`, `null`, `[]`}},
	{name: "type list", schema: `{"type":["string","null"]}`, valid: []string{`null`, `"a"`}, invalid: []string{`0`, `false`}},
	{name: "type boolean", schema: `{"type":"boolean"}`, valid: []string{`true`, `false`}, invalid: []string{`0`, `"true"`, `null`}},
	{name: "type integer with huge exponent", schema: `{"type":"integer"}`, unknown: []string{`1e9999999`, `1e-9999999`}},
	{name: "const string", schema: `{"const":"text"}`, valid: []string{`"text"`, `"t\u0065xt"`, `"\u0074ext"`}, invalid: []string{`"Text"`, `"text "`, `1`, `null`, `["text"]`}},
	{name: "const number", schema: `{"const":1}`, valid: []string{`1`, `1.0`, `1e0`, `10e-1`, `0.1e1`}, invalid: []string{`2`, `"1"`, `true`, `1.0000000000000000000001`}},
	{name: "const negative zero", schema: `{"const":0}`, valid: []string{`0`, `-0`, `0.0`, `-0e5`}, invalid: []string{`1e-400`}},
	{name: "const fraction", schema: `{"const":0.1}`, valid: []string{`0.1`, `1e-1`, `0.10`}, invalid: []string{`0.1000000000000000055511151231257827`}},
	{name: "const null and booleans", schema: `{"enum":[null,true]}`, valid: []string{`null`, `true`}, invalid: []string{`false`, `0`, `""`}},
	{name: "const object", schema: `{"const":{"a":[1,{"b":null}]}}`, valid: []string{`{"a":[1.0,{"b":null}]}`, `{"\u0061":[1,{"b":null}]}`}, invalid: []string{`{"a":[1,{"b":false}]}`, `{"a":[1,{"b":null}],"c":1}`, `{}`, `[]`, `"a"`}},
	{name: "const array", schema: `{"const":[1,"a"]}`, valid: []string{`[1,"a"]`, `[1e0,"\u0061"]`}, invalid: []string{`["a",1]`, `[1]`, `{}`}},
	{name: "enum mixed", schema: `{"enum":["a",2,{"x":1},[null]]}`, valid: []string{`"a"`, `2.0`, `{"x":1}`, `[null]`}, invalid: []string{`"b"`, `3`, `{"x":2}`, `[]`, `null`}},
	{name: "properties and required", schema: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}},"required":["a","b"]}`,
		valid:   []string{`{"a":"x","b":1}`, `{"b":2.5,"a":""}`, `{"a":"x","b":1,"c":[{}]}`, `{"\u0061":"x","b":1}`},
		invalid: []string{`{}`, `{"a":"x"}`, `{"a":1,"b":1}`, `{"a":"x","b":"1"}`, `[]`, `"a"`}},
	{name: "additionalProperties false", schema: `{"properties":{"a":{}},"patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":false}`,
		valid:   []string{`{}`, `{"a":[1,2]}`, `{"x-1":3}`, `{"a":1,"x-y":-4}`, `1`, `"str"`},
		invalid: []string{`{"b":1}`, `{"x-1":1.5}`, `{"a":1,"y":2}`}},
	{name: "additionalProperties schema", schema: `{"properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}`,
		valid: []string{`{"a":"x","b":1}`, `{"c":2,"d":3}`}, invalid: []string{`{"a":1}`, `{"b":"x"}`}},
	{name: "patternProperties on decoded names", schema: `{"patternProperties":{"^é$":{"type":"null"}}}`,
		valid: []string{`{"é":null}`, `{"\u00e9":null}`, `{"e":1}`}, invalid: []string{`{"\u00e9":1}`, `{"é":1}`}},
	{name: "propertyNames", schema: `{"propertyNames":{"maxLength":2,"pattern":"^[a-z]+$"}}`,
		valid: []string{`{}`, `{"ab":1,"c":2}`, `{"\u0061\u0062":0}`, `[1]`}, invalid: []string{`{"abc":1}`, `{"A":1}`, `{"a1":1}`}},
	{name: "min and max properties", schema: `{"minProperties":1,"maxProperties":2}`,
		valid: []string{`{"a":1}`, `{"a":1,"b":2}`, `[]`}, invalid: []string{`{}`, `{"a":1,"b":2,"c":3}`}},
	{name: "dependentRequired", schema: `{"dependentRequired":{"a":["b","c"]}}`,
		valid: []string{`{}`, `{"b":1}`, `{"a":1,"b":2,"c":3}`}, invalid: []string{`{"a":1}`, `{"a":1,"b":2}`}},
	{name: "dependentSchemas", schema: `{"dependentSchemas":{"a":{"required":["z"]}}}`,
		valid: []string{`{}`, `{"a":1,"z":2}`}, invalid: []string{`{"a":1}`}},
	{name: "draft-07 dependencies", schema: `{` + d7 + `"dependencies":{"a":["b"],"c":{"properties":{"d":{"type":"string"}}}}}`,
		valid: []string{`{"a":1,"b":2}`, `{"c":1,"d":"x"}`, `{"d":1}`}, invalid: []string{`{"a":1}`, `{"c":1,"d":2}`}},
	{name: "many required names", schema: manyRequired(70),
		valid: []string{manyMembers(70)}, invalid: []string{manyMembers(69), `{}`}},
	{name: "prefixItems and items", schema: `{"prefixItems":[{"type":"string"},{"type":"number"}],"items":{"type":"boolean"}}`,
		valid: []string{`[]`, `["a"]`, `["a",1]`, `["a",1,true,false]`, `{}`}, invalid: []string{`[1]`, `["a","b"]`, `["a",1,null]`}},
	{name: "items false after prefix", schema: `{"prefixItems":[{}],"items":false}`,
		valid: []string{`[]`, `[1]`}, invalid: []string{`[1,2]`}},
	{name: "draft-07 items array and additionalItems", schema: `{` + d7 + `"items":[{"type":"string"}],"additionalItems":{"type":"integer"}}`,
		valid: []string{`[]`, `["a"]`, `["a",1,2]`}, invalid: []string{`[1]`, `["a","b"]`}},
	{name: "draft-07 additionalItems false", schema: `{` + d7 + `"items":[{}],"additionalItems":false}`,
		valid: []string{`[1]`}, invalid: []string{`[1,2]`}},
	{name: "draft-07 single items", schema: `{` + d7 + `"items":{"type":"string"},"additionalItems":false}`,
		valid: []string{`["a","b"]`, `[]`}, invalid: []string{`[1]`}},
	{name: "min and max items", schema: `{"minItems":1,"maxItems":2}`, valid: []string{`[1]`, `[1,2]`, `{}`}, invalid: []string{`[]`, `[1,2,3]`}},
	{name: "uniqueItems", schema: `{"uniqueItems":true}`,
		valid: []string{`[]`, `[1,2]`, `[{"a":1},{"a":2}]`, `[1,"1"]`}, invalid: []string{`[1,1.0]`, `[{"a":1,"b":2},{"b":2,"a":1}]`, `[[1],[1]]`}},
	{name: "contains", schema: `{"contains":{"type":"string"},"minContains":2,"maxContains":3}`,
		valid: []string{`["a","b"]`, `[1,"a",2,"b","c"]`}, invalid: []string{`["a"]`, `["a","b","c","d"]`, `[]`}},
	{name: "contains default minimum", schema: `{"contains":{"const":1}}`, valid: []string{`[1]`, `[0,1]`}, invalid: []string{`[]`, `[0]`}},
	{name: "string lengths count code points", schema: `{"minLength":2,"maxLength":3}`,
		valid:   []string{`"ab"`, `"éé"`, `"😀😀"`, `"\ud83d\ude00\ud83d\ude00"`, `"a\nb"`, `"\u0061\u0062\u0063"`},
		invalid: []string{`"a"`, `"😀"`, `"\ud83d\ude00"`, `"abcd"`, `"éééé"`}},
	{name: "pattern", schema: `{"pattern":"^a+$"}`, valid: []string{`"aaa"`, `"\u0061"`, `1`}, invalid: []string{`"ab"`, `""`}},
	{name: "minimum and maximum", schema: `{"minimum":-1.5,"maximum":10}`,
		valid: []string{`-1.5`, `0`, `10`, `10.0`, `1e1`, `-15e-1`, `"x"`}, invalid: []string{`-1.51`, `10.0000001`, `1e400`, `-1e400`, `11`}},
	{name: "exclusive bounds", schema: `{"exclusiveMinimum":0,"exclusiveMaximum":1}`,
		valid: []string{`0.5`, `1e-400`, `0.999999999999999999999`}, invalid: []string{`0`, `-0`, `1`, `1.0`, `2`}},
	{name: "draft-04 boolean exclusiveMaximum", schema: `{` + d4 + `"maximum":5,"exclusiveMaximum":true}`,
		valid: []string{`4.99`}, invalid: []string{`5`, `6`}},
	{name: "multipleOf", schema: `{"multipleOf":3}`, valid: []string{`9`, `-3`, `0`, `3e5`, `6.0`}, invalid: []string{`10`, `1.5`}},
	{name: "multipleOf fraction", schema: `{"multipleOf":0.01}`, valid: []string{`0.07`, `3`, `1.1`}, invalid: []string{`0.001`}},
	{name: "allOf", schema: `{"allOf":[{"type":"number"},{"minimum":2}]}`, valid: []string{`2`, `3.5`}, invalid: []string{`1`, `"a"`}},
	{name: "anyOf", schema: `{"anyOf":[{"type":"string"},{"minimum":2}]}`, valid: []string{`"a"`, `2`, `null`}, invalid: []string{`1`}},
	{name: "oneOf matching two fails", schema: `{"oneOf":[{"type":"integer"},{"minimum":2}]}`,
		valid: []string{`1`, `2.5`}, invalid: []string{`2`, `1.5`}},
	{name: "not", schema: `{"not":{"type":"string"}}`, valid: []string{`1`, `{"a":[]}`}, invalid: []string{`"a"`}},
	{name: "if then else", schema: `{"if":{"properties":{"k":{"const":"n"}}},"then":{"properties":{"v":{"type":"number"}}},"else":{"properties":{"v":{"type":"string"}}}}`,
		valid: []string{`{"k":"n","v":1}`, `{"k":"s","v":"x"}`, `{"v":1}`, `3`}, invalid: []string{`{"k":"n","v":"x"}`, `{"k":"s","v":1}`, `{"v":"x"}`}},
	{name: "nested refs", schema: `{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"type":"object","properties":{"n":{"$ref":"#/$defs/C"}}},"C":{"type":"integer"}},"$ref":"#/$defs/A"}`,
		valid: []string{`{"n":1}`, `{}`}, invalid: []string{`{"n":"1"}`, `[]`}},
	{name: "recursive ref through properties", schema: `{"type":"object","properties":{"child":{"$ref":"#"},"v":{"type":"integer"}},"additionalProperties":false}`,
		valid: []string{`{}`, `{"child":{"child":{"v":3}}}`}, invalid: []string{`{"child":{"child":{"w":3}}}`, `{"child":[]}`}},
	{name: "ref beside keywords in 2020", schema: `{"$defs":{"S":{"type":"string"}},"$ref":"#/$defs/S","maxLength":2}`,
		valid: []string{`"ab"`}, invalid: []string{`"abc"`, `1`}},
	{name: "draft-07 ref hides siblings", schema: `{` + d7 + `"definitions":{"S":{"type":"string"}},"$ref":"#/definitions/S","maxLength":2}`,
		valid: []string{`"abc"`}, invalid: []string{`1`}},
	{name: "in-place cycle is unknown", schema: `{"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"type":"string"}]}},"$ref":"#/$defs/A"}`,
		unknown: []string{`"a"`, `1`}},
	{name: "discriminated union", schema: unionSchema,
		valid:   []string{`{"type":"text","text":"hi"}`, `{"type":"image","data":"AA==","mimeType":"image/png"}`, `{"text":"hi","type":"t\u0065xt"}`},
		invalid: []string{`{"type":"text"}`, `{"type":"video"}`, `{"type":1}`, `{}`, `"text"`, `{"type":"image","text":"x"}`}},
	{name: "draft-07 format asserted", schema: `{` + d7 + `"format":"date"}`, valid: []string{`"2024-01-31"`, `1`}, invalid: []string{`"2024-13-01"`, `"x"`}},
	{name: "draft-07 uri asserted", schema: `{` + d7 + `"format":"uri"}`, valid: []string{`"https://x.test/a?b#c"`, `"urn:x"`, `null`}, invalid: []string{`"/relative"`, `"http://[::1%25eth0]/"`, `""`}},
	{name: "draft-07 format on an escaped string", schema: `{` + d7 + `"format":"date-time"}`, valid: []string{`"2024-01-31T00:00:0\u0030Z"`}, invalid: []string{`"2024-01-31T00:00:00\u005a\u005a"`}},
	{name: "draft-04 uri-template asserted", schema: `{` + d4 + `"format":"uri-template"}`, valid: []string{`"https://x.test/{id}/{+path}"`, `[]`}, invalid: []string{`"https://x.test/{id"`, `"/{{a}}"`}},
	{name: "draft-07 regex asserted", schema: `{` + d7 + `"format":"regex"}`, valid: []string{`"^a+$"`, `{"a":"("}`}, invalid: []string{`"("`}},
	{name: "draft-07 format in a property", schema: `{` + d7 + `"properties":{"id":{"format":"uuid"},"at":{"format":"email"}}}`,
		valid: []string{`{"id":"2eb8aa08-aa98-11ea-b4aa-73b441d16380","at":"joe@example.com"}`, `{}`}, invalid: []string{`{"id":"2eb8aa08"}`, `{"at":"joe"}`}},
	{name: "draft-07 unknown format annotates", schema: `{` + d7 + `"format":"byte"}`, valid: []string{`"!!"`, `1`}},
	{name: "2020 format is an annotation", schema: `{"format":"date"}`, valid: []string{`"x"`}},
	{name: "unevaluatedProperties is unknown for objects only", schema: `{"unevaluatedProperties":false}`, valid: []string{`1`, `"x"`}, unknown: []string{`{}`, `{"a":1}`}},
	{name: "dynamicRef is unknown", schema: `{"$dynamicAnchor":"n","$dynamicRef":"#n"}`, unknown: []string{`1`}},
}

// unionSchema is an anyOf of objects told apart by their "type" member.
const unionSchema = `{
  "$defs": {
    "Text": {"type":"object","properties":{"type":{"const":"text"},"text":{"type":"string"}},"required":["type","text"]},
    "Image": {"type":"object","properties":{"type":{"const":"image","type":"string"},"data":{"type":"string"},"mimeType":{"type":"string"}},"required":["type","data","mimeType"]}
  },
  "anyOf": [{"$ref":"#/$defs/Text"},{"$ref":"#/$defs/Image"}]
}`

func manyRequired(n int) string {
	s := `{"required":[`
	for i := 0; i < n; i++ {
		if i > 0 {
			s += ","
		}
		s += `"p` + itoa(i) + `"`
	}
	return s + `]}`
}

func manyMembers(n int) string {
	s := `{`
	for i := 0; i < n; i++ {
		if i > 0 {
			s += ","
		}
		s += `"p` + itoa(i) + `":` + itoa(i)
	}
	return s + `}`
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestCheckMatchesOracleOnEachKeyword(t *testing.T) {
	for _, tc := range keywordCases {
		t.Run(tc.name, func(t *testing.T) {
			sch := compileDoc(t, tc.schema)
			v := fastschema.Compile(sch)
			for _, inst := range tc.valid {
				require.Equal(t, fastschema.Valid, oracleVerdict(t, sch, []byte(inst)), "oracle on %s", inst)
				assert.Equal(t, fastschema.Valid, check(t, v, []byte(inst)), "instance %s", inst)
			}
			for _, inst := range tc.invalid {
				require.Equal(t, fastschema.Invalid, oracleVerdict(t, sch, []byte(inst)), "oracle on %s", inst)
				assert.Equal(t, fastschema.Invalid, check(t, v, []byte(inst)), "instance %s", inst)
			}
			for _, inst := range tc.unknown {
				assert.Equal(t, fastschema.Unknown, check(t, v, []byte(inst)), "instance %s", inst)
			}
		})
	}
}
