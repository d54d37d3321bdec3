package fastschema_test

import (
	"cmp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// projectProgram compiles every location of the project's schema tree into
// one program, as the generator does for a package, and decodes it.
func projectProgram(t testing.TB) (locs []string, compiled, decoded []*fastschema.Validator, prog string) {
	t.Helper()
	p := loadProject(t)
	locs = p.locations()
	schs := make([]*jsonschema.Schema, len(locs))
	for i, l := range locs {
		schs[i] = p.target(t, l).sch
	}
	compiled = fastschema.CompileAll(schs)
	prog, err := fastschema.Encode(compiled)
	require.NoError(t, err)
	decoded, err = fastschema.Decode(prog)
	require.NoError(t, err)
	require.Len(t, decoded, len(locs))
	return locs, compiled, decoded, prog
}

func TestOneProgramCarriesEveryProjectSchemaAndAnswersAsItsValidators(t *testing.T) {
	locs, compiled, decoded, prog := projectProgram(t)
	examples := loadExamples(t)
	checked := 0
	for i, l := range locs {
		assert.Equal(t, compiled[i].Exact(), decoded[i].Exact(), l)
		for _, ex := range examples {
			want := compiled[i].Check(ex.data)
			require.Equal(t, want, decoded[i].Check(ex.data), "%s on %s", l, ex.data)
			checked++
		}
	}
	require.Positive(t, checked)
	// Shared sub-schemas are carried once: the one program is smaller than
	// the programs of the locations one by one.
	alone := 0
	for _, v := range compiled[:min(len(compiled), 40)] {
		p, err := fastschema.Encode([]*fastschema.Validator{v})
		require.NoError(t, err)
		alone += len(p)
	}
	first40, err := fastschema.Encode(compiled[:min(len(compiled), 40)])
	require.NoError(t, err)
	assert.Less(t, len(first40), alone)
	t.Logf("%d locations, %d examples each, program of %d bytes", len(locs), len(examples), len(prog))
}

func TestEncodeIsDeterministic(t *testing.T) {
	_, _, _, a := projectProgram(t)
	project, projectErr = readProject() // compile everything again, afresh
	require.NoError(t, projectErr)
	_, _, _, b := projectProgram(t)
	require.Equal(t, a, b)
}

func TestANilValidatorStaysNilThroughAProgram(t *testing.T) {
	v := fastschema.Compile(compileDoc(t, `{"type":"string"}`))
	prog, err := fastschema.Encode([]*fastschema.Validator{nil, v})
	require.NoError(t, err)
	vs, err := fastschema.Decode(prog)
	require.NoError(t, err)
	require.Len(t, vs, 2)
	assert.Nil(t, vs[0])
	assert.Equal(t, fastschema.Valid, vs[1].Check([]byte(`"x"`)))
	assert.Equal(t, fastschema.Invalid, vs[1].Check([]byte(`1`)))
}

func TestAProgramChecksAnAssertedFormatItself(t *testing.T) {
	v := fastschema.Compile(compileDoc(t, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"string","format":"email"}`))
	d := viaProgram(t, v)
	assert.Equal(t, fastschema.Invalid, d.Check([]byte(`"not an address"`)))
	assert.Equal(t, fastschema.Valid, d.Check([]byte(`"joe@example.com"`)))
	assert.Empty(t, fastschema.Reasons(d))
}

func TestAFormatAUserRegisteredOnTheLibraryIsLeftToTheOracle(t *testing.T) {
	for _, name := range []string{"even", "uri"} {
		c := jsonschema.NewCompiler()
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(any) error { return nil }})
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"$schema":"http://json-schema.org/draft-07/schema#","format":"` + name + `"}`))
		require.NoError(t, err)
		require.NoError(t, c.AddResource("https://x.test/f.json", doc))
		sch, err := c.Compile("https://x.test/f.json")
		require.NoError(t, err)
		v := fastschema.Compile(sch)
		assert.Equal(t, fastschema.Unknown, check(t, v, []byte(`"/not absolute"`)), name)
		assert.Equal(t, []string{"format " + name}, fastschema.Reasons(v), name)
	}
}

func TestDecodeRefusesAProgramNamingAFormatItDoesNotKnow(t *testing.T) {
	good, err := fastschema.Encode([]*fastschema.Validator{fastschema.Compile(compileDoc(t, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"uuid"}`))})
	require.NoError(t, err)
	require.Contains(t, good, "\x04uuid")
	_, err = fastschema.Decode(strings.Replace(good, "\x04uuid", "\x04uuix", 1))
	assert.ErrorContains(t, err, "unknown format")
}

func TestDecodeRefusesWhatIsNotAProgramOfThisVersion(t *testing.T) {
	good, err := fastschema.Encode([]*fastschema.Validator{fastschema.Compile(compileDoc(t, keywordCases[0].schema))})
	require.NoError(t, err)
	for name, prog := range map[string]string{
		"empty":              "",
		"another text":       `{"type":"object"}`,
		"another version":    strings.Replace(good, fastschema.ProgramMagic, "fastschema\x01", 1),
		"trailing bytes":     good + "\x00",
		"node out of range":  fastschema.ProgramMagic + "\x00\x01\x05",
		"count past the end": fastschema.ProgramMagic + "\xff\xff\x03",
	} {
		t.Run(name, func(t *testing.T) {
			vs, err := fastschema.Decode(prog)
			require.Error(t, err)
			assert.Nil(t, vs)
			assert.Contains(t, err.Error(), "fastschema: ")
		})
	}
}

func TestADamagedProgramIsRefusedOrChecksWithoutPanicking(t *testing.T) {
	docs := make([]*fastschema.Validator, 0, len(keywordCases))
	for _, tc := range keywordCases {
		docs = append(docs, fastschema.Compile(compileDoc(t, tc.schema)))
	}
	good, err := fastschema.Encode(docs)
	require.NoError(t, err)
	inputs := [][]byte{[]byte(`{"a":[1,"x",{"b":null}],"type":"text"}`), []byte(`[1,2,2]`), []byte(`"abc"`), []byte(`12.5`)}
	for cut := range len(good) {
		_, err := fastschema.Decode(good[:cut])
		require.Error(t, err, "a program cut at byte %d", cut)
		assert.Error(t, rootsOf(good[:cut], inputs), "a program cut at byte %d, root by root", cut)
	}
	for pos := len(fastschema.ProgramMagic); pos < len(good); pos++ {
		b := []byte(good)
		b[pos] ^= 0x5a
		rootsOf(string(b), inputs) // must return
		vs, err := fastschema.Decode(string(b))
		if err != nil {
			continue
		}
		for _, v := range vs {
			for _, in := range inputs {
				v.Check(in) // must return
			}
		}
	}
}

// rootsOf opens prog, decodes each root in turn and checks inputs with
// those that decode; it returns the first error, of Open or of a root.
func rootsOf(prog string, inputs [][]byte) error {
	p, err := fastschema.Open(prog)
	if err != nil {
		return err
	}
	var first error
	for i := range p.Len() {
		v, err := p.Root(i)
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		for _, in := range inputs {
			v.Check(in) // must return
		}
	}
	return first
}

// BenchmarkDecodeProjectProgram measures what a program costs when it is
// first used: decoding the project's whole schema tree (every version).
func BenchmarkDecodeProjectProgram(b *testing.B) {
	p := loadProject(b)
	locs := p.locations()
	schs := make([]*jsonschema.Schema, len(locs))
	for i, l := range locs {
		schs[i] = p.target(b, l).sch
	}
	prog, err := fastschema.Encode(fastschema.CompileAll(schs))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fastschema.Decode(prog); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAProgramMissingASchemaItNeedsIsRefused zeroes each byte of a program
// in turn: where that removes the schema of a pattern or of a dependent
// schema, Decode says so rather than leave Check a nil node.
func TestAProgramMissingASchemaItNeedsIsRefused(t *testing.T) {
	for doc, want := range map[string]string{
		`{"patternProperties": {"^a": {"type": "string"}}}`:                                          "a pattern without its schema",
		`{"dependentSchemas": {"a": {"required": ["b"]}}}`:                                           "a dependent schema without its schema",
		`{"properties": {"a": {"type": "string"}}, "dependentSchemas": {"a": {"minProperties": 2}}}`: "a dependent schema without its schema",
	} {
		good, err := fastschema.Encode([]*fastschema.Validator{fastschema.Compile(compileDoc(t, doc))})
		require.NoError(t, err)
		found := false
		for pos := len(fastschema.ProgramMagic); pos < len(good) && !found; pos++ {
			b := []byte(good)
			b[pos] = 0
			if _, err := fastschema.Decode(string(b)); err != nil && strings.Contains(err.Error(), want) {
				found = true
			}
		}
		assert.True(t, found, "no zeroed byte of the program of %s gives %q", doc, want)
	}
}
