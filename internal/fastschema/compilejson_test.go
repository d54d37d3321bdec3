package fastschema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
	"github.com/schemarpc/schemarpc/schema"
)

// ownDocURL is where the tests of one inline document put it, as
// compileDoc does.
const ownDocURL = "mem:///schema.json"

// compileOwn compiles one inline document with CompileJSON, draft 2020-12
// unless it says otherwise.
func compileOwn(doc string) (*fastschema.Validator, error) {
	return fastschema.CompileJSON(map[string][]byte{ownDocURL: []byte(doc)}, ownDocURL, fastschema.Draft2020)
}

// libraryCompile compiles location from docs with the library, reading
// documents without "$schema" as draft, and nothing else: no file, no
// network.
func libraryCompile(docs map[string][]byte, location string, draft *jsonschema.Draft) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	c.UseLoader(noLoader{})
	for u, text := range docs {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
		if err != nil {
			return nil, err
		}
		if err := c.AddResource(u, v); err != nil {
			return nil, err
		}
	}
	return c.Compile(location)
}

// noLoader loads nothing: the documents are all given.
type noLoader struct{}

func (noLoader) Load(u string) (any, error) { return nil, errors.New("not among the documents: " + u) }

// program is the program of one validator.
func program(t testing.TB, v *fastschema.Validator) string {
	t.Helper()
	p, err := fastschema.Encode([]*fastschema.Validator{v})
	require.NoError(t, err)
	return p
}

// sameAsLibrary checks that own, compiled by CompileJSON, is what Compile
// makes of the library's sch: the same program, and on every instance the
// same verdict, Unknown only for a stated reason (an unsupported node, a
// number too long to judge; formats are checked by both); that own agrees
// with the oracle; and that both explain as the oracle does.
func sameAsLibrary(t testing.TB, sch *jsonschema.Schema, lib, own *fastschema.Validator, instances [][]byte) {
	t.Helper()
	require.Equal(t, program(t, lib), program(t, own), "programs differ for %s", sch.Location)
	for _, inst := range instances {
		want, got := lib.Check(inst), own.Check(inst)
		require.Equal(t, want, got, "%s: instance %s", sch.Location, inst)
		if got == fastschema.Unknown && !longNumber.Match(inst) {
			require.NotEmpty(t, fastschema.Reasons(own), "%s: unknown without a stated reason, for %s", sch.Location, inst)
		}
		agree(t, sch, own, inst)
		explainAgrees(t, sch, lib, inst)
	}
}

// caseInstances lists the instances of a keyword case.
func caseInstances(tc keywordCase) [][]byte {
	var out [][]byte
	for _, l := range [][]string{tc.valid, tc.invalid, tc.unknown} {
		for _, s := range l {
			out = append(out, []byte(s))
		}
	}
	return out
}

func TestCompileJSONMatchesCompileOnEachKeywordCase(t *testing.T) {
	for _, tc := range keywordCases {
		t.Run(tc.name, func(t *testing.T) {
			sch := compileDoc(t, tc.schema)
			own, err := compileOwn(tc.schema)
			require.NoError(t, err)
			sameAsLibrary(t, sch, fastschema.Compile(sch), own, caseInstances(tc))
		})
	}
}

// relabelled returns doc as a document of other drafts too: the same
// keywords, read by other rules. A draft-07 document is also read as 06
// and 04, a 2020-12 object as 2019-09.
func relabelled(doc string) []string {
	const d7URL = "http://json-schema.org/draft-07/schema#"
	if !strings.Contains(doc, d7URL) {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		obj, isObj := v.(map[string]any)
		if err != nil || !isObj || obj["$schema"] != nil {
			return []string{doc}
		}
		obj["$schema"] = "https://json-schema.org/draft/2019-09/schema"
		b, err := json.Marshal(obj)
		if err != nil {
			return []string{doc}
		}
		return []string{doc, string(b)}
	}
	return []string{doc, strings.Replace(doc, d7URL, "http://json-schema.org/draft-06/schema#", 1),
		strings.Replace(strings.Replace(doc, d7URL, "http://json-schema.org/draft-04/schema#", 1), `"$id"`, `"id"`, -1)}
}

func TestCompileJSONMatchesCompileOnRandomSchemas(t *testing.T) {
	rnd := rand.New(rand.NewPCG(randomSeed, 26))
	refused, tried := 0, 0
	for k := range randomSchemas {
		g := &schemaGen{rnd: rnd, draft7: k%3 == 0}
		generated, err := json.Marshal(g.root())
		require.NoError(t, err)
		var instances [][]byte
		for range 40 {
			instances = append(instances, encode(rnd, g.value(3)))
		}
		for _, doc := range relabelled(string(generated)) {
			tried++
			if compileRandom(t, doc, instances) {
				refused++
			}
		}
	}
	t.Logf("%d schemas, %d refused by both", tried, refused)
	require.Positive(t, refused)
}

// compileRandom compiles doc both ways and compares; it reports whether
// both refuse it.
func compileRandom(t *testing.T, doc string, instances [][]byte) bool {
	t.Helper()
	sch, libErr := tryCompileDoc(doc)
	own, err := compileOwn(doc)
	if libErr != nil {
		require.Error(t, err, "the library refuses %s (%v)", doc, libErr)
		return true
	}
	require.NoError(t, err, "schema %s", doc)
	sameAsLibrary(t, sch, fastschema.Compile(sch), own, instances)
	return false
}

// projectDocs returns the project's schema documents by URL.
func projectDocs(t testing.TB) map[string][]byte {
	t.Helper()
	docs, err := readProjectDocs()
	require.NoError(t, err)
	return docs
}

// readProjectDocs reads the project's schema documents by URL.
func readProjectDocs() (map[string][]byte, error) {
	docs := map[string][]byte{}
	err := fs.WalkDir(schema.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		b, err := fs.ReadFile(schema.FS, path)
		docs[schema.BaseURL+path] = b
		return err
	})
	return docs, err
}

// optionalExamples returns the published examples, or none when they are
// not beside the repository.
func optionalExamples(t *testing.T) []example {
	if _, err := os.Stat(filepath.Join(specDir, "2026-07-28", "examples")); err != nil {
		t.Logf("no published examples at %s: programs compared, no instances", specDir)
		return nil
	}
	return loadExamples(t)
}

func TestCompileJSONMatchesCompileOnEveryProjectLocation(t *testing.T) {
	p := loadProject(t)
	docs := projectDocs(t)
	exs := optionalExamples(t)
	// The instances of each location: every example for the envelopes,
	// an example for its definitions, a message's params for its method.
	instances := map[string][][]byte{}
	for _, ex := range exs {
		for _, l := range p.jsonrpc {
			instances[l] = append(instances[l], ex.data)
		}
		for _, l := range p.defs[ex.def] {
			instances[l] = append(instances[l], ex.data)
		}
		var msg message
		if json.Unmarshal(ex.data, &msg) != nil || msg.Method == "" || msg.Params == nil {
			continue
		}
		for _, v := range mcpVersions {
			if loc := p.methods[v][msg.Method][0]; loc != "" {
				instances[loc] = append(instances[loc], msg.Params)
			}
		}
	}
	checks := 0
	for _, l := range p.locations() {
		tg := p.target(t, l)
		own, err := fastschema.CompileJSON(docs, l, fastschema.Draft2020)
		require.NoError(t, err, "location %s", l)
		sameAsLibrary(t, tg.sch, tg.fast, own, instances[l])
		checks += len(instances[l])
	}
	t.Logf("%d locations, %d instance checks", len(p.locations()), checks)
}

func TestCompileJSONMatchesCompileOnPublishedSchemas(t *testing.T) {
	exs := optionalExamples(t)
	checks, defs := 0, 0
	for _, version := range mcpVersions {
		path := filepath.Join(specDir, version, "schema.json")
		text, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("the published MCP schema is not at %s (../shared/mcp-spec beside the repository): %v", path, err)
		}
		c, prefix, names := publishedSchema(t, version)
		docs := map[string][]byte{strings.Split(prefix, "#")[0]: text}
		for _, name := range sortedNames(names) {
			sch, err := c.Compile(prefix + name)
			require.NoError(t, err)
			own, err := fastschema.CompileJSON(docs, prefix+name, fastschema.Draft2020)
			require.NoError(t, err, "%s %s", version, name)
			var instances [][]byte
			for _, ex := range exs {
				if ex.def == name {
					instances = append(instances, ex.data)
				}
			}
			sameAsLibrary(t, sch, fastschema.Compile(sch), own, instances)
			checks += len(instances)
			defs++
		}
	}
	t.Logf("%d definitions, %d instance checks", defs, checks)
}

// multiDocCase is a schema spread over documents, with instances.
type multiDocCase struct {
	name      string
	docs      map[string]string
	location  string
	draft7    bool // the default draft
	instances []string
}

var multiDocCases = []multiDocCase{
	{name: "a custom metaschema of draft 7", docs: map[string]string{
		"https://x.test/a.json": `{"$schema":"https://x.test/meta","items":[{"type":"string"}],"additionalItems":false}`,
		"https://x.test/meta":   `{"$schema":"http://json-schema.org/draft-07/schema#","$comment":"reads its documents as draft 7"}`,
	}, location: "https://x.test/a.json", instances: []string{`["a"]`, `[1]`, `["a","b"]`, `[]`}},
	{name: "ref to another document", docs: map[string]string{
		"https://x.test/a.json": `{"properties":{"b":{"$ref":"b.json#/$defs/B"}}}`,
		"https://x.test/b.json": `{"$defs":{"B":{"type":"integer"}}}`,
	}, location: "https://x.test/a.json", instances: []string{`{"b":1}`, `{"b":"1"}`, `{}`}},
	{name: "$id changes the base URI", docs: map[string]string{
		"https://x.test/a.json":     `{"$defs":{"in":{"$id":"https://x.test/sub/in.json","$ref":"c.json"}},"$ref":"#/$defs/in"}`,
		"https://x.test/sub/c.json": `{"type":"string","maxLength":2}`,
	}, location: "https://x.test/a.json", instances: []string{`"ab"`, `"abc"`, `1`}},
	{name: "ref by an embedded $id", docs: map[string]string{
		"https://x.test/a.json": `{"$defs":{"n":{"$id":"https://x.test/num.json","type":"number"}},"items":{"$ref":"num.json"}}`,
	}, location: "https://x.test/a.json", instances: []string{`[1,2]`, `[1,"x"]`}},
	{name: "$anchor", docs: map[string]string{
		"https://x.test/a.json": `{"$defs":{"n":{"$anchor":"num","minimum":3}},"properties":{"v":{"$ref":"#num"}}}`,
	}, location: "https://x.test/a.json", instances: []string{`{"v":3}`, `{"v":2}`}},
	{name: "location by anchor", docs: map[string]string{
		"https://x.test/a.json": `{"$defs":{"n":{"$anchor":"num","minimum":3}}}`,
	}, location: "https://x.test/a.json#num", instances: []string{`3`, `2`}},
	{name: "draft-07 $id anchor", docs: map[string]string{
		"https://x.test/a.json": `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"$id":"#num","maximum":3}},"properties":{"v":{"$ref":"#num"}}}`,
	}, location: "https://x.test/a.json", instances: []string{`{"v":3}`, `{"v":4}`}},
	{name: "default draft 7", docs: map[string]string{
		"https://x.test/a.json": `{"items":[{"type":"string"}],"additionalItems":false,"format":"date"}`,
	}, location: "https://x.test/a.json", draft7: true, instances: []string{`["a"]`, `["a",1]`, `[1]`, `"2024-01-01"`}},
	{name: "pointer escapes and percent-encoding", docs: map[string]string{
		"https://x.test/a.json": `{"$defs":{"a/b":{"type":"null"},"c~d":{"type":"boolean"},"e f%":{"const":1}},"anyOf":[{"$ref":"#/$defs/a~1b"},{"$ref":"#/$defs/c~0d"},{"$ref":"#/%24defs/e%20f%25"}]}`,
	}, location: "https://x.test/a.json", instances: []string{`null`, `true`, `1`, `2`}},
	{name: "location deep in a document", docs: map[string]string{
		"https://x.test/a.json": `{"$defs":{"x":{"properties":{"y":{"type":"string"}}}}}`,
	}, location: "https://x.test/a.json#/$defs/x/properties/y", instances: []string{`"s"`, `1`}},
	{name: "urn base with anchors", docs: map[string]string{
		"https://x.test/a.json": `{"$id":"urn:example:root","$defs":{"s":{"$anchor":"s","type":"string"}},"properties":{"p":{"$ref":"urn:example:root#s"},"q":{"$ref":"#/$defs/s"}}}`,
	}, location: "https://x.test/a.json", instances: []string{`{"p":"x","q":"y"}`, `{"p":1}`, `{"q":1}`}},
	{name: "draft-07 nested $id with relative refs", docs: map[string]string{
		"https://x.test/dir/a.json": `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"x":{"$id":"../other/x.json","definitions":{"y":{"type":"integer"}},"items":{"$ref":"#/definitions/y"}}},"properties":{"l":{"$ref":"../other/x.json"}}}`,
	}, location: "https://x.test/dir/a.json", instances: []string{`{"l":[1,2]}`, `{"l":[1.5]}`}},
	{name: "draft-07 siblings of $ref are compiled but not checked", docs: map[string]string{
		"https://x.test/a.json": `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"array"}},"$ref":"#/definitions/s","contains":{"const":1},"propertyNames":{"maxLength":1},"const":[2],"if":true,"then":false}`,
	}, location: "https://x.test/a.json", instances: []string{`[]`, `[3]`, `{}`}},
	{name: "ref through documents in a cycle", docs: map[string]string{
		"https://x.test/a.json": `{"type":"object","properties":{"b":{"$ref":"b.json"}}}`,
		"https://x.test/b.json": `{"type":"array","items":{"$ref":"a.json"}}`,
	}, location: "https://x.test/a.json", instances: []string{`{"b":[{"b":[]}]}`, `{"b":[{"b":{}}]}`}},
	{name: "draft-04 id anchor and base", docs: map[string]string{
		"https://x.test/a.json": `{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{"n":{"id":"#num","maximum":3,"exclusiveMaximum":true},"m":{"id":"sub/m.json","type":"array","items":{"$ref":"#/definitions/k"},"definitions":{"k":{"type":"integer"}}}},"properties":{"v":{"$ref":"#num"},"w":{"$ref":"sub/m.json"}}}`,
	}, location: "https://x.test/a.json", instances: []string{`{"v":2.5,"w":[1]}`, `{"v":3}`, `{"w":[1.5]}`}},
	{name: "draft-06 keywords", docs: map[string]string{
		"https://x.test/a.json": `{"$schema":"http://json-schema.org/draft-06/schema#","contains":{"const":1},"propertyNames":{"maxLength":1},"if":false,"format":"email"}`,
	}, location: "https://x.test/a.json", instances: []string{`[1]`, `[2]`, `{"a":1}`, `{"ab":1}`, `"x@y.test"`}},
	{name: "draft 2019-09", docs: map[string]string{
		"https://x.test/a.json": `{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true,"properties":{"c":{"$recursiveRef":"#"},"d":{"$ref":"#a:b"}},"items":[{"type":"string"}],"additionalItems":false,"$defs":{"a":{"$anchor":"a:b","type":"integer"}},"dependentRequired":{"x":["y"]},"format":"date"}`,
	}, location: "https://x.test/a.json", instances: []string{`["a"]`, `["a",1]`, `{"d":1}`, `{"d":1.5}`, `{"x":1}`, `{"c":{}}`, `"x"`}},
	{name: "ref into a place no keyword holds a schema at", docs: map[string]string{
		"https://x.test/a.json": `{"methods":{"m":{"type":"array"}},"$ref":"#/methods/m"}`,
	}, location: "https://x.test/a.json", instances: []string{`[]`, `{}`}},
}

func TestCompileJSONResolvesAsTheLibrary(t *testing.T) {
	for _, tc := range multiDocCases {
		t.Run(tc.name, func(t *testing.T) {
			docs := map[string][]byte{}
			for u, d := range tc.docs {
				docs[u] = []byte(d)
			}
			draft, ownDraft := jsonschema.Draft2020, fastschema.Draft2020
			if tc.draft7 {
				draft, ownDraft = jsonschema.Draft7, fastschema.Draft7
			}
			sch, err := libraryCompile(docs, tc.location, draft)
			require.NoError(t, err)
			own, err := fastschema.CompileJSON(docs, tc.location, ownDraft)
			require.NoError(t, err)
			var instances [][]byte
			for _, s := range tc.instances {
				instances = append(instances, []byte(s))
			}
			sameAsLibrary(t, sch, fastschema.Compile(sch), own, instances)
		})
	}
}

// refusedCase is a schema the library refuses, with the pointer of the
// keyword at fault.
type refusedCase struct {
	name, doc, pointer string
}

var refusedCases = []refusedCase{
	{"type of wrong JSON type", `{"type":1}`, "/type"},
	{"type name that does not exist", `{"type":"float"}`, "/type"},
	{"type list with a repeat", `{"type":["string","string"]}`, "/type"},
	{"empty type list", `{"type":[]}`, "/type"},
	{"negative minLength", `{"minLength":-1}`, "/minLength"},
	{"fractional maxItems", `{"maxItems":1.5}`, "/maxItems"},
	{"minProperties as a string", `{"minProperties":"1"}`, "/minProperties"},
	{"bad pattern", `{"pattern":"(a"}`, "/pattern"},
	{"bad patternProperties name", `{"patternProperties":{"[":{}}}`, "/patternProperties/["},
	{"multipleOf zero", `{"multipleOf":0}`, "/multipleOf"},
	{"minimum as a string", `{"minimum":"1"}`, "/minimum"},
	{"draft-07 boolean exclusiveMinimum", `{` + d7 + `"exclusiveMinimum":true}`, "/exclusiveMinimum"},
	{"required with a number", `{"required":["a",1]}`, "/required/1"},
	{"required with a repeat", `{"required":["a","a"]}`, "/required"},
	{"properties as an array", `{"properties":[]}`, "/properties"},
	{"property schema as a number", `{"properties":{"a":1}}`, "/properties/a"},
	{"nested bad keyword", `{"properties":{"a":{"items":{"maxLength":-2}}}}`, "/properties/a/items/maxLength"},
	{"empty allOf", `{"allOf":[]}`, "/allOf"},
	{"anyOf of a string", `{"anyOf":["x"]}`, "/anyOf/0"},
	{"2020 items as an array", `{"items":[{}]}`, "/items"},
	{"draft-07 empty items array", `{` + d7 + `"items":[]}`, "/items"},
	{"draft-07 enum with a repeat", `{` + d7 + `"enum":[1,1.0]}`, "/enum"},
	{"draft-07 empty enum", `{` + d7 + `"enum":[]}`, "/enum"},
	{"enum as an object", `{"enum":{}}`, "/enum"},
	{"dependentRequired with a number", `{"dependentRequired":{"a":[1]}}`, "/dependentRequired/a/0"},
	{"dependencies of a number", `{"dependencies":{"a":1}}`, "/dependencies/a"},
	{"$ref as a number", `{"$ref":1}`, "/$ref"},
	{"$id with a fragment in 2020", `{"$id":"https://x.test/a#f"}`, "/$id"},
	{"$anchor of a bad name", `{"$anchor":"1a"}`, "/$anchor"},
	{"format as a number", `{"format":1}`, "/format"},
	{"uniqueItems as a string", `{"uniqueItems":"yes"}`, "/uniqueItems"},
	{"definitions schema as a string", `{"$defs":{"a":"x"}}`, "/$defs/a"},
	{"bad keyword beside draft-07 $ref", `{` + d7 + `"definitions":{"a":{}},"$ref":"#/definitions/a","minLength":-1}`, "/minLength"},
	{"unused definition with a bad keyword", `{"$defs":{"unused":{"pattern":"("}}}`, "/$defs/unused/pattern"},
	{"root not a schema", `5`, ""},
	{"ref to a missing pointer", `{"$ref":"#/$defs/none"}`, "/$ref"},
	{"ref to a missing anchor", `{"$ref":"#none"}`, "/$ref"},
	{"ref to another document", `{"$ref":"other.json"}`, "/$ref"},
	{"$dynamicRef to nothing", `{"$dynamicRef":"other.json#x"}`, "/$dynamicRef"},
	{"draft-04 boolean schema", `{` + d4 + `"not":true}`, "/not"},
	{"draft-04 exclusiveMaximum without maximum", `{` + d4 + `"exclusiveMaximum":true}`, "/exclusiveMaximum"},
	{"draft-04 numeric exclusiveMinimum", `{` + d4 + `"minimum":1,"exclusiveMinimum":1}`, "/exclusiveMinimum"},
	{"draft-04 empty required", `{` + d4 + `"required":[]}`, "/required"},
	{"draft-04 empty dependency", `{` + d4 + `"dependencies":{"a":[]}}`, "/dependencies/a"},
	{"2019-09 anchor of a 2020-12 form", `{"$schema":"https://json-schema.org/draft/2019-09/schema","$anchor":"_a"}`, "/$anchor"},
	{"2019-09 $recursiveAnchor as a string", `{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":"a"}`, "/$recursiveAnchor"},
	{"2020-12 $recursiveAnchor as a boolean", `{"$recursiveAnchor":true}`, "/$recursiveAnchor"},
	{"duplicate anchor", `{"$defs":{"a":{"$anchor":"x"},"b":{"$anchor":"x"}}}`, "/$defs/b/$anchor"},
	{"duplicate $id", `{"$defs":{"a":{"$id":"https://x.test/s"},"b":{"$id":"https://x.test/s"}}}`, "/$defs/b/$id"},
}

func TestCompileJSONRefusesWhatTheLibraryRefuses(t *testing.T) {
	for _, tc := range refusedCases {
		t.Run(tc.name, func(t *testing.T) {
			_, libErr := tryCompileDoc(tc.doc)
			require.Error(t, libErr, "the library accepts %s", tc.doc)
			_, err := compileOwn(tc.doc)
			var se *fastschema.SchemaError
			require.ErrorAs(t, err, &se)
			if strings.HasSuffix(tc.pointer, "$ref") || strings.HasSuffix(tc.pointer, "$dynamicRef") {
				// which of two orders finds a duplicate is map order
				assert.Equal(t, ownDocURL+"#"+tc.pointer, se.Location, "%v", err)
			} else if strings.Contains(tc.name, "duplicate") {
				assert.Contains(t, se.Reason, "duplicate", "%v", err)
			} else {
				assert.Equal(t, ownDocURL+"#"+tc.pointer, se.Location, "%v", err)
			}
			assert.Contains(t, err.Error(), se.Location)
		})
	}
}

// unsupportedCase is a schema CompileJSON refuses although the library
// compiles it.
type unsupportedCase struct {
	name     string
	docs     map[string]string
	location string
	draft    int
	reason   string
}

var unsupportedCases = []unsupportedCase{
	{name: "a custom metaschema naming no draft", docs: map[string]string{ownDocURL: `{"$schema":"https://x.test/meta"}`, "https://x.test/meta": `{}`}, location: ownDocURL, draft: fastschema.Draft2020, reason: "must name a JSON Schema draft"},
	{name: "a custom metaschema choosing vocabularies", docs: map[string]string{ownDocURL: `{"$schema":"https://x.test/meta"}`, "https://x.test/meta": `{"$schema":"https://json-schema.org/draft/2020-12/schema","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true}}`}, location: ownDocURL, draft: fastschema.Draft2020, reason: "chooses vocabularies"},
	{name: "a reference to a metaschema", docs: map[string]string{ownDocURL: `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`}, location: ownDocURL, draft: fastschema.Draft2020, reason: "metaschema"},
	{name: "a resource of another draft", docs: map[string]string{ownDocURL: `{"$defs":{"a":{"$id":"https://x.test/a","$schema":"http://json-schema.org/draft-07/schema#"}}}`}, location: ownDocURL, draft: fastschema.Draft2020, reason: "another draft"},
	{name: "a number too large to read", docs: map[string]string{ownDocURL: `{"minimum":1e999999999}`}, location: ownDocURL, draft: fastschema.Draft2020, reason: "too large"},
}

func TestCompileJSONRefusesWhatItDoesNotSupport(t *testing.T) {
	for _, tc := range unsupportedCases {
		t.Run(tc.name, func(t *testing.T) {
			docs := map[string][]byte{}
			for u, d := range tc.docs {
				docs[u] = []byte(d)
			}
			_, err := fastschema.CompileJSON(docs, tc.location, tc.draft)
			var se *fastschema.SchemaError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, se.Reason, tc.reason)
		})
	}
}

func TestCompileJSONRefusesBadArguments(t *testing.T) {
	good := map[string][]byte{ownDocURL: []byte(`{}`)}
	for _, tc := range []struct {
		name     string
		docs     map[string][]byte
		location string
		draft    int
		want     string
	}{
		{"default draft not supported", good, ownDocURL, 3, "default draft 3"},
		{"relative location", good, "schema.json", fastschema.Draft2020, "not an absolute URL"},
		{"bad fragment escape", good, ownDocURL + "#%zz", fastschema.Draft2020, "bad fragment"},
		{"document not given", good, "mem:///other.json", fastschema.Draft2020, "not among the schema documents"},
		{"document not JSON", map[string][]byte{ownDocURL: []byte(`{`)}, ownDocURL, fastschema.Draft2020, "not a JSON document"},
		{"data after the document", map[string][]byte{ownDocURL: []byte(`{} {}`)}, ownDocURL, fastschema.Draft2020, "data after"},
		{"location at no value", good, ownDocURL + "#/nothing", fastschema.Draft2020, "no value at this JSON pointer"},
		{"location at a bad pointer", good, ownDocURL + "#/a~2", fastschema.Draft2020, "no value at this JSON pointer"},
		{"location at a missing anchor", good, ownDocURL + "#x", fastschema.Draft2020, "no such anchor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := fastschema.CompileJSON(tc.docs, tc.location, tc.draft)
			require.Error(t, err)
			assert.Nil(t, v)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// mutantValues are the values a keyword's value is replaced with: one of
// each JSON type, and the values keywords most often refuse.
var mutantValues = []any{nil, true, json.Number("0"), json.Number("-1"), json.Number("1.5"), "x", "(", []any{}, []any{"a", "a"}, map[string]any{}}

// mutants returns the documents made from doc by replacing one member's
// value, anywhere in it, with one of mutantValues.
func mutants(t testing.TB, doc string) []string {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	require.NoError(t, err)
	var out []string
	for _, s := range slots(v, nil) {
		if s.obj == nil {
			continue
		}
		old := s.obj[s.key]
		for _, m := range mutantValues {
			s.obj[s.key] = m
			b, err := json.Marshal(v)
			require.NoError(t, err)
			out = append(out, string(b))
		}
		s.obj[s.key] = old
	}
	return out
}

func TestCompileJSONRefusesMutantsTheLibraryRefuses(t *testing.T) {
	var docs []string
	for _, tc := range keywordCases {
		docs = append(docs, relabelled(tc.schema)...)
	}
	for _, tc := range refusedCases {
		docs = append(docs, tc.doc)
	}
	// Random schemas too, when the race detector does not make each
	// library compile ten times slower.
	randomDocs := 12
	if raceEnabled {
		randomDocs = 0
	}
	rnd := rand.New(rand.NewPCG(randomSeed, 27))
	for k := range randomDocs {
		g := &schemaGen{rnd: rnd, draft7: k%3 == 0}
		doc, err := json.Marshal(g.root())
		require.NoError(t, err)
		docs = append(docs, relabelled(string(doc))...)
	}
	docs = append(docs, toolInputSchema)
	tried, bothRefuse, onlyOwnRefuses := 0, 0, map[string]int{}
	for _, doc := range docs {
		for _, m := range mutants(t, doc) {
			tried++
			sch, libErr := tryCompileDoc(m)
			own, err := compileOwn(m)
			switch {
			case libErr != nil:
				require.Error(t, err, "the library refuses %s: %v", m, libErr)
				bothRefuse++
			case err != nil:
				var se *fastschema.SchemaError
				require.ErrorAs(t, err, &se)
				onlyOwnRefuses[se.Reason]++
			default:
				require.Equal(t, program(t, fastschema.Compile(sch)), program(t, own), "mutant %s", m)
			}
		}
	}
	t.Logf("%d mutants, %d refused by both, refused only by CompileJSON: %v", tried, bothRefuse, onlyOwnRefuses)
	require.Positive(t, bothRefuse)
}

func TestSchemaErrorNamesTheKeyword(t *testing.T) {
	_, err := compileOwn(`{"properties":{"a/b":{"minLength":-1}}}`)
	var se *fastschema.SchemaError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, ownDocURL+"#/properties/a~1b/minLength", se.Location)
	assert.Equal(t, "fastschema: schema "+ownDocURL+"#/properties/a~1b/minLength: must be a non-negative integer", err.Error())
}

// toolInputSchema is a typical MCP tool's input schema.
const toolInputSchema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "description": "What to search for", "minLength": 1},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
    "sort": {"type": "string", "enum": ["relevance", "date", "name"]},
    "filters": {
      "type": "object",
      "properties": {
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
        "after": {"type": "string", "format": "date-time"}
      },
      "additionalProperties": false
    }
  },
  "required": ["query"],
  "additionalProperties": false
}`

func TestToolInputSchemaCompilesAlike(t *testing.T) {
	sch := compileDoc(t, toolInputSchema)
	own, err := compileOwn(toolInputSchema)
	require.NoError(t, err)
	require.True(t, own.Exact())
	sameAsLibrary(t, sch, fastschema.Compile(sch), own, [][]byte{
		[]byte(`{"query":"go","limit":5,"sort":"date","filters":{"tags":["a","b"]}}`),
		[]byte(`{"query":""}`), []byte(`{"limit":5}`), []byte(`{"query":"x","filters":{"tags":["a","a"]}}`),
	})
}

func BenchmarkCompileToolInputSchema(b *testing.B) {
	docs := map[string][]byte{ownDocURL: []byte(toolInputSchema)}
	b.Run("CompileJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fastschema.CompileJSON(docs, ownDocURL, fastschema.Draft2020); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := libraryCompile(docs, ownDocURL, jsonschema.Draft2020); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("library+Compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sch, err := libraryCompile(docs, ownDocURL, jsonschema.Draft2020)
			if err != nil {
				b.Fatal(err)
			}
			fastschema.Compile(sch)
		}
	})
}

func FuzzCompileJSONAgreesWithLibrary(f *testing.F) {
	for _, tc := range keywordCases {
		f.Add(tc.schema)
	}
	for _, tc := range refusedCases {
		f.Add(tc.doc)
	}
	f.Add(toolInputSchema)
	f.Fuzz(func(t *testing.T, doc string) {
		if hugeNumber.MatchString(doc) {
			return // the library's big.Rat parsing spends long on these
		}
		own, err := compileOwn(doc)
		sch, libErr := libraryCompile(map[string][]byte{ownDocURL: []byte(doc)}, ownDocURL, jsonschema.Draft2020)
		switch {
		case libErr != nil:
			require.Error(t, err, "the library refuses %q: %v", doc, libErr)
		case err == nil:
			require.Equal(t, program(t, fastschema.Compile(sch)), program(t, own), "schema %q", doc)
		default:
			var se *fastschema.SchemaError
			require.ErrorAs(t, err, &se, "schema %q", doc)
		}
	})
}

func TestADocumentOfACustomMetaschemaIsCheckedAgainstIt(t *testing.T) {
	const meta = "https://x.test/meta"
	metaDoc := `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"title":{"type":"string"}}}`
	for _, tc := range []struct {
		name, doc, metaDoc, reason string
	}{
		{"the document fails its metaschema", `{"$schema":"` + meta + `","title":1}`, metaDoc, "does not validate against its metaschema"},
		{"the metaschema is not among the documents", `{"$schema":"https://x.test/elsewhere"}`, metaDoc, "neither a draft's URL nor among the schema documents"},
		{"the metaschema URL has a fragment", `{"$schema":"` + meta + `#x"}`, metaDoc, "has no fragment"},
		{"the metaschema is not JSON", `{"$schema":"` + meta + `"}`, `{`, "not a JSON document"},
		{"the metaschema does not compile", `{"$schema":"` + meta + `"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","minLength":-1}`, "does not compile"},
		{"the metaschema names a custom metaschema", `{"$schema":"` + meta + `"}`, `{"$schema":"` + meta + `"}`, "must name a JSON Schema draft"},
		{"the metaschema refers to a document of itself", `{"$schema":"` + meta + `"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"` + ownDocURL + `"}`, "more than 4 deep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := map[string][]byte{ownDocURL: []byte(tc.doc), meta: []byte(tc.metaDoc)}
			_, err := fastschema.CompileJSON(docs, ownDocURL, fastschema.Draft2020)
			var se *fastschema.SchemaError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, ownDocURL+"#/$schema", se.Location)
			assert.Contains(t, se.Reason, tc.reason)
		})
	}
	ok := map[string][]byte{ownDocURL: []byte(`{"$schema":"` + meta + `","title":"fine","type":"integer"}`), meta: []byte(metaDoc)}
	v, err := fastschema.CompileJSON(ok, ownDocURL, fastschema.Draft2020)
	require.NoError(t, err)
	assert.Equal(t, fastschema.Valid, v.Check([]byte(`1`)))
	assert.Equal(t, fastschema.Invalid, v.Check([]byte(`"1"`)))
}
