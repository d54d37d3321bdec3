package fastschema_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
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
	require.Zero(t, refused, "the generator uses no feature Explain refuses")
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

func TestExplainReportsASchemaMetAgainOnTheSameValueAsTheOracle(t *testing.T) {
	const doc = `{"anyOf":[{"type":"string"},{"$ref":"#"}]}`
	v, err := compileOwn(doc)
	require.NoError(t, err)
	f, err := v.Explain([]byte(`1`))
	require.NoError(t, err)
	require.Len(t, f, 1)
	require.Len(t, f[0].Alternatives, 2)
	assert.Equal(t, []fastschema.Failure{{Location: ownDocURL + "#", Keyword: "$ref", Message: "refers back to itself without moving into the value"}}, f[0].Alternatives[1])
	explainAgrees(t, compileDoc(t, doc), v, []byte(`1`))
	f, err = v.Explain([]byte(`"x"`))
	require.NoError(t, err)
	assert.Nil(t, f)
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

func TestExplainSaysWhatFailsWhere(t *testing.T) {
	const u = ownDocURL + "#"
	cases := []struct {
		name, schema, data string
		want               []fastschema.Failure
	}{{
		name: "leaves in schema order, members in document order, extra names sorted",
		schema: `{"type":"object","required":["name","id"],"properties":{"arguments":{"type":"object",
			"properties":{"a":{"type":"number"}},"additionalProperties":false}}}`,
		data: `{"arguments":{"z":1,"b":2,"a":"x"}}`,
		want: []fastschema.Failure{
			{Location: u + "/required", Keyword: "required", Message: `missing required members "name", "id"`},
			{Instance: []string{"arguments", "a"}, Location: u + "/properties/arguments/properties/a/type", Keyword: "type", Message: "is string, not number"},
			{Instance: []string{"arguments"}, Location: u + "/properties/arguments/additionalProperties", Keyword: "additionalProperties", Message: `members "b", "z" are not allowed here`},
		},
	}, {
		name:   "an anyOf carries each alternative's failures, wrappers are skipped",
		schema: `{"$defs":{"obj":{"type":"object","required":["x"]}},"anyOf":[{"type":"string"},{"allOf":[{"$ref":"#/$defs/obj"}]}]}`,
		data:   `{}`,
		want: []fastschema.Failure{{
			Location: u + "/anyOf", Keyword: "anyOf", Message: "matches none of the 2 alternatives",
			Alternatives: [][]fastschema.Failure{
				{{Location: u + "/anyOf/0/type", Keyword: "type", Message: "is object, not string"}},
				{{Location: u + "/$defs/obj/required", Keyword: "required", Message: `missing required member "x"`}},
			},
		}},
	}, {
		name:   "a oneOf that two alternatives match",
		schema: `{"oneOf":[{"type":"integer"},{"minimum":0}]}`,
		data:   `3`,
		want:   []fastschema.Failure{{Location: u + "/oneOf", Keyword: "oneOf", Message: "matches alternatives 0 and 1, but must match exactly one"}},
	}, {
		name:   "not, the false schema and dependentRequired are located as the oracle locates them",
		schema: `{"not":{"required":["a"]},"properties":{"b":false},"dependentRequired":{"a":["c"]}}`,
		data:   `{"a":1,"b":2}`,
		want: []fastschema.Failure{
			{Location: u + "/dependentRequired/a", Keyword: "dependentRequired", Message: `has "a", so needs "c"`},
			{Instance: []string{"b"}, Location: u + "/properties/b", Keyword: "false", Message: "no value is allowed here"},
			{Location: u, Keyword: "not", Message: "matches a schema it must not match"},
		},
	}, {
		name:   "unevaluatedProperties sees what an applied schema evaluated",
		schema: `{"allOf":[{"properties":{"a":true}}],"if":{"required":["b"]},"then":{"properties":{"b":true}},"unevaluatedProperties":{"type":"null"}}`,
		data:   `{"a":1,"b":2,"c":3,"d":null}`,
		want:   []fastschema.Failure{{Instance: []string{"c"}, Location: u + "/unevaluatedProperties/type", Keyword: "type", Message: "is number, not null"}},
	}, {
		name:   "a member name failing propertyNames is reported at its object",
		schema: `{"properties":{"o":{"propertyNames":{"maxLength":1}}}}`,
		data:   `{"o":{"ab":1,"c":2}}`,
		want:   []fastschema.Failure{{Instance: []string{"o"}, Location: u + "/properties/o/propertyNames/maxLength", Keyword: "maxLength", Message: `member name "ab" has 2 characters, more than 1`}},
	}, {
		name:   "uniqueItems, and numbers compared exactly",
		schema: `{"uniqueItems":true,"items":{"exclusiveMaximum":1e400,"multipleOf":0.1}}`,
		data:   `[0.30, 1e400, 0.3]`,
		want: []fastschema.Failure{
			{Location: u + "/uniqueItems", Keyword: "uniqueItems", Message: "has equal elements 0 and 2"},
			{Instance: []string{"1"}, Location: u + "/items/exclusiveMaximum", Keyword: "exclusiveMaximum", Message: "is 1e400, not less than 1" + strings.Repeat("0", 400)},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := compileOwn(tc.schema)
			require.NoError(t, err)
			got, err := v.Explain([]byte(tc.data))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			explainAgrees(t, compileDoc(t, tc.schema), v, []byte(tc.data))
		})
	}
}

func TestExplainOfADecodedProgramHasNoLocations(t *testing.T) {
	v, err := compileOwn(`{"properties":{"a":{"type":"string"}},"required":["b"]}`)
	require.NoError(t, err)
	data := []byte(`{"a":1}`)
	want, err := v.Explain(data)
	require.NoError(t, err)
	require.Len(t, want, 2)
	for i := range want {
		want[i].Location = ""
	}
	got, err := viaProgram(t, v).Explain(data)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

func TestExplainRefusesNumbersTooLargeToCompare(t *testing.T) {
	v, err := compileOwn(`{"type":"integer"}`)
	require.NoError(t, err)
	_, err = v.Explain([]byte(`1e9999999`))
	require.ErrorIs(t, err, fastschema.ErrNumberTooLarge)
	f, err := v.Explain([]byte(`"1e9999999"`))
	require.NoError(t, err, "only a number's value matters")
	assert.Len(t, f, 1)
}

func TestExplainRunsTheFormatsOfEitherCompiler(t *testing.T) {
	doc := `{"$schema":"http://json-schema.org/draft-07/schema#","type":"string","format":"email"}`
	own, err := compileOwn(doc)
	require.NoError(t, err)
	for name, v := range map[string]*fastschema.Validator{"CompileJSON": own, "the library's": fastschema.Compile(compileDoc(t, doc))} {
		f, err := v.Explain([]byte(`"not an address"`))
		require.NoError(t, err, name)
		require.Len(t, f, 1, name)
		assert.Equal(t, "format", f[0].Keyword, name)
		f, err = v.Explain([]byte(`"a@example.com"`))
		require.NoError(t, err, name)
		assert.Nil(t, f, name)
		f, err = v.Explain([]byte(`1`))
		require.NoError(t, err, "%s: a type the value fails is reported before the format is reached", name)
		require.Len(t, f, 1, name)
		assert.Equal(t, "type", f[0].Keyword, name)
	}
}

func BenchmarkExplainToolsCallFailure(b *testing.B) {
	p := loadProject(b)
	tg := p.target(b, p.methods["2026-07-28"]["tools/call"][0])
	data := []byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":7,"arguments":[1,2]}`)
	f, err := tg.fast.Explain(data)
	require.NoError(b, err)
	require.NotEmpty(b, f)
	b.Run("explain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if f, _ := tg.fast.Explain(data); f == nil {
				b.Fatal("valid")
			}
		}
	})
	b.Run("oracle", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			if sch := tg.sch; sch.Validate(v) == nil {
				b.Fatal("valid")
			}
		}
	})
}

func TestExplainOfADecodedProgramRefusesWhatItsProgramLacks(t *testing.T) {
	for _, tc := range []struct{ schema, data string }{
		{`{"unevaluatedProperties":false}`, `{"a":1}`},
		{`{"anyOf":[{"$ref":"#"}]}`, `1`},
	} {
		own, err := compileOwn(tc.schema)
		require.NoError(t, err)
		for _, v := range []*fastschema.Validator{own, fastschema.Compile(compileDoc(t, tc.schema))} {
			_, err := viaProgram(t, v).Explain([]byte(tc.data))
			assert.ErrorIs(t, err, fastschema.ErrUnsupported, "%s", tc.schema)
		}
	}
}

func TestExplainOfADecodedProgramExplainsManyPatternProperties(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"patternProperties":{`)
	for i := range 70 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"^p` + itoa(i) + `$":{"type":"string"}`)
	}
	sb.WriteString(`}}`)
	own, err := compileOwn(sb.String())
	require.NoError(t, err)
	data := []byte(`{"p3":1,"p69":"x","q":1}`)
	want, err := own.Explain(data)
	require.NoError(t, err)
	require.Len(t, want, 1)
	explainAgrees(t, compileDoc(t, sb.String()), own, data)
	got, err := viaProgram(t, own).Explain(data)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, want[0].Instance, got[0].Instance)
}

func TestExplainMatchesTheOraclesQuirks(t *testing.T) {
	cases := []struct {
		name, schema string
		instances    []string
	}{
		{"draft-07 keywords beside $ref", d7Doc(`"definitions":{"s":{"type":"string"}},"$ref":"#/definitions/s","const":"a","minLength":5,"if":true,"then":false`),
			[]string{`"b"`, `1`, `"a"`}},
		{"if, then and else", `{"if":{"type":"string"},"then":{"minLength":2},"else":{"type":"number"}}`, []string{`"a"`, `null`, `"ab"`}},
		{"draft-07 dependencies, both forms", d7Doc(`"dependencies":{"a":["b","c"],"b":{"required":["d"]}}`), []string{`{"a":1}`, `{"a":1,"b":2,"c":3}`}},
		{"contains, minContains, maxContains", `{"contains":{"type":"string"},"minContains":2,"maxContains":2}`,
			[]string{`[]`, `[1,2]`, `["a",1]`, `["a","b","c"]`, `["a","b"]`}},
		{"contains without minContains", `{"contains":{"type":"string"}}`, []string{`[]`, `[1,{}]`}},
		{"minContains of zero", `{"contains":false,"minContains":0,"maxContains":0}`, []string{`[]`, `[1]`}},
		{"items false", `{"prefixItems":[true],"items":false}`, []string{`[1,2,3]`, `[1]`}},
		{"draft-07 items false", d7Doc(`"items":false`), []string{`[1,2]`, `[]`}},
		{"draft-07 additionalItems false", d7Doc(`"items":[true],"additionalItems":false`), []string{`[1,2,3]`}},
		{"oneOf matched twice after a miss", `{"oneOf":[{"type":"string"},{"type":"number"},{"minimum":0},{"maximum":9}]}`, []string{`5`, `-1`, `"x"`, `null`}},
		{"required with several missing names", `{"required":["a","b","c"]}`, []string{`{"b":1}`, `{}`}},
		{"a false schema in place", `{"allOf":[false,{"not":true}]}`, []string{`1`}},
		{"propertyNames beside other members' failures", `{"propertyNames":{"anyOf":[{"maxLength":1},{"pattern":"^x"}]},"additionalProperties":{"type":"string"}}`,
			[]string{`{"ab":1,"c":"d","xyz":2}`}},
		{"unevaluatedItems after prefixItems and contains", `{"prefixItems":[true],"contains":{"type":"string"},"unevaluatedItems":false}`,
			[]string{`[1,"a",2]`, `[1,"a"]`, `[1]`}},
		{"unevaluatedProperties through oneOf and dependentSchemas", `{"oneOf":[{"properties":{"a":true}},{"properties":{"b":true}}],
			"dependentSchemas":{"c":{"properties":{"d":true}}},"unevaluatedProperties":false}`,
			[]string{`{"a":1,"c":1,"d":1}`, `{"a":1,"c":1,"d":1,"e":1}`, `{"a":1,"b":1}`, `{"b":1,"d":1}`}},
		{"nested unevaluatedProperties", `{"properties":{"a":true},"allOf":[{"unevaluatedProperties":{"type":"number"}}],"unevaluatedProperties":false}`,
			[]string{`{"a":"x","b":1}`, `{"a":"x","b":"y"}`}},
		{"2019-09 contains evaluates nothing", `{"$schema":"https://json-schema.org/draft/2019-09/schema",
			"contains":{"type":"string"},"unevaluatedItems":false}`, []string{`["a"]`, `[]`}},
		{"2019-09 items and additionalItems with unevaluatedItems", `{"$schema":"https://json-schema.org/draft/2019-09/schema",
			"items":[true],"additionalItems":true,"unevaluatedItems":false}`, []string{`[1,2,3]`}},
		{"uniqueItems of equal numbers and objects", `{"uniqueItems":true}`, []string{`[1,1.0]`, `[{"a":[1]},{"a":[1.0]}]`, `[1,"1"]`}},
		{"huge bounds compared exactly", `{"minimum":1e-400,"multipleOf":1e-401}`, []string{`1e-401`, `1e-399`, `0`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sch := compileDoc(t, tc.schema)
			own, err := compileOwn(tc.schema)
			require.NoError(t, err)
			for _, inst := range tc.instances {
				for _, v := range []*fastschema.Validator{own, fastschema.Compile(sch)} {
					assert.True(t, explainAgrees(t, sch, v, []byte(inst)), "instance %s", inst)
				}
			}
		})
	}
}

// d7Doc is a draft-07 schema object with the members given.
func d7Doc(members string) string {
	return `{"$schema":"http://json-schema.org/draft-07/schema#",` + members + `}`
}
