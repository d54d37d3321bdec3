package fastschema_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
	"github.com/schemarpc/schemarpc/schema"
)

// specDir is where the published MCP schemas and examples live, relative to
// this package's directory (the repository root is two levels up).
const specDir = "../../../shared/mcp-spec"

// mcpVersions are the protocol versions the project has schemas for.
var mcpVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// target is one schema location with its compiled forms.
type target struct {
	url  string
	sch  *jsonschema.Schema
	fast *fastschema.Validator
}

// projectSchemas holds every schema location of the project's own schema
// tree, compiled once for all tests.
type projectSchemas struct {
	set *jsonschema.Compiler // the library, over the project's documents alone
	mu  sync.Mutex
	all map[string]*target

	jsonrpc []string                        // locations of the JSON-RPC envelopes and their definitions
	defs    map[string][]string             // definition name → locations, every version
	methods map[string]map[string][2]string // version → method → params, result locations
}

var (
	projectOnce sync.Once
	project     *projectSchemas
	projectErr  error
)

// loadProject reads the project's schema tree.
func loadProject(t testing.TB) *projectSchemas {
	t.Helper()
	projectOnce.Do(func() { project, projectErr = readProject() })
	require.NoError(t, projectErr)
	return project
}

func readProject() (*projectSchemas, error) {
	set, err := projectCompiler()
	if err != nil {
		return nil, err
	}
	p := &projectSchemas{set: set, all: map[string]*target{}, defs: map[string][]string{}, methods: map[string]map[string][2]string{}}
	files, err := fs.Glob(schema.FS, "*/*.json")
	if err != nil {
		return nil, err
	}
	more, err := fs.Glob(schema.FS, "mcp/*/*.json")
	if err != nil {
		return nil, err
	}
	files = append(files, more...)
	for _, f := range files {
		b, err := fs.ReadFile(schema.FS, f)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Defs    map[string]json.RawMessage `json:"$defs"`
			Methods []struct {
				Name   string            `json:"name"`
				Params map[string]string `json:"params"`
				Result map[string]string `json:"result"`
			} `json:"methods"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, err
		}
		base, _ := url.Parse(schema.BaseURL + f)
		if strings.HasPrefix(f, "jsonrpc/") {
			p.jsonrpc = append(p.jsonrpc, base.String())
		}
		for _, name := range sortedNames(doc.Defs) {
			loc := base.String() + "#/$defs/" + name
			if strings.HasPrefix(f, "jsonrpc/") {
				p.jsonrpc = append(p.jsonrpc, loc)
			}
			p.defs[name] = append(p.defs[name], loc)
		}
		if len(doc.Methods) > 0 {
			version := filepath.Base(filepath.Dir(f))
			ms := map[string][2]string{}
			for _, m := range doc.Methods {
				ms[m.Name] = [2]string{resolve(base, m.Params["$ref"]), resolve(base, m.Result["$ref"])}
			}
			p.methods[version] = ms
		}
	}
	return p, nil
}

// resolve returns ref resolved against base, or "" for "".
func resolve(base *url.URL, ref string) string {
	if ref == "" {
		return ""
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	return base.ResolveReference(r).String()
}

// sortedNames returns the keys of m in order.
func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// target compiles the location loc once.
func (p *projectSchemas) target(t testing.TB, loc string) *target {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if tg, ok := p.all[loc]; ok {
		return tg
	}
	sch, err := p.set.Compile(loc)
	require.NoError(t, err)
	tg := &target{url: loc, sch: sch, fast: fastschema.Compile(sch)}
	p.all[loc] = tg
	return tg
}

// locations lists every location of the tree: envelopes, definitions, and
// each method's params and result.
func (p *projectSchemas) locations() []string {
	seen := map[string]bool{}
	var out []string
	add := func(l string) {
		if l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	for _, l := range p.jsonrpc {
		add(l)
	}
	for _, name := range sortedNames(p.defs) {
		for _, l := range p.defs[name] {
			add(l)
		}
	}
	for _, v := range mcpVersions {
		for _, m := range sortedNames(p.methods[v]) {
			add(p.methods[v][m][0])
			add(p.methods[v][m][1])
		}
	}
	return out
}

// example is one instance from the published MCP examples.
type example struct {
	def  string // the definition it is an instance of
	file string
	data []byte
}

// loadExamples reads the published examples, or skips the test when they
// are not there.
func loadExamples(t testing.TB) []example {
	t.Helper()
	dir := filepath.Join(specDir, "2026-07-28", "examples")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the published MCP examples are not at %s (they live in ../shared/mcp-spec beside the repository): %v", dir, err)
	}
	var out []example
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out = append(out, example{def: filepath.Base(filepath.Dir(path)), file: path, data: b})
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, out)
	return out
}

// message is the part of a JSON-RPC message the tests route by.
type message struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// tally counts the verdicts of one group of checks.
type tally struct {
	checks, unknown int
	unknownAt       map[string]int
}

func (ty *tally) add(loc string, v fastschema.Verdict) {
	ty.checks++
	if v == fastschema.Unknown {
		ty.unknown++
		if ty.unknownAt == nil {
			ty.unknownAt = map[string]int{}
		}
		ty.unknownAt[loc]++
	}
}

func TestEveryProjectSchemaLocationCompiles(t *testing.T) {
	p := loadProject(t)
	locs := p.locations()
	require.Greater(t, len(locs), 400)
	inexact := 0
	for _, l := range locs {
		tg := p.target(t, l)
		if !tg.fast.Exact() {
			inexact++
			t.Logf("not exact: %s", l)
		}
	}
	t.Logf("%d locations, %d not exact", len(locs), inexact)
	for _, l := range p.jsonrpc {
		require.True(t, p.target(t, l).fast.Exact(), "JSON-RPC location %s", l)
	}
	for _, v := range mcpVersions {
		require.True(t, p.target(t, p.methods[v]["tools/call"][0]).fast.Exact(), "tools/call params of %s", v)
	}
}

func TestPublishedExamplesAgreeWithOracleOnProjectSchemas(t *testing.T) {
	exs := loadExamples(t)
	p := loadProject(t)
	var envelopes, toolsCall, params, results, defs tally
	for _, ex := range exs {
		for _, l := range p.jsonrpc {
			tg := p.target(t, l)
			envelopes.add(l, agree(t, tg.sch, tg.fast, ex.data))
		}
		for _, l := range p.defs[ex.def] {
			tg := p.target(t, l)
			defs.add(l, agree(t, tg.sch, tg.fast, ex.data))
		}
		if base, ok := strings.CutSuffix(ex.def, "Response"); ok {
			var msg message
			require.NoError(t, json.Unmarshal(ex.data, &msg))
			for _, l := range p.defs[base] {
				if msg.Result == nil {
					continue
				}
				tg := p.target(t, l)
				results.add(l, agree(t, tg.sch, tg.fast, msg.Result))
			}
		}
		var msg message
		if json.Unmarshal(ex.data, &msg) != nil || msg.Method == "" || msg.Params == nil {
			continue
		}
		for _, v := range mcpVersions {
			loc := p.methods[v][msg.Method][0]
			if loc == "" {
				continue
			}
			tg := p.target(t, loc)
			verdict := agree(t, tg.sch, tg.fast, msg.Params)
			params.add(loc, verdict)
			if msg.Method == "tools/call" {
				toolsCall.add(loc, verdict)
			}
		}
	}
	for name, ty := range map[string]*tally{"envelopes": &envelopes, "tools/call params": &toolsCall, "params": &params, "results": &results, "definitions": &defs} {
		t.Logf("%s: %d checks, %d unknown %v", name, ty.checks, ty.unknown, ty.unknownAt)
		require.Positive(t, ty.checks, name)
		require.LessOrEqual(t, ty.unknown*50, ty.checks, "%s: unknown must be rare", name)
	}
	require.Zero(t, envelopes.unknown, "JSON-RPC envelopes")
	require.Zero(t, toolsCall.unknown, "tools/call params")
}

// publishedSchema compiles the published schema.json of one version.
func publishedSchema(t testing.TB, version string) (*jsonschema.Compiler, string, map[string]bool) {
	t.Helper()
	path := filepath.Join(specDir, version, "schema.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("the published MCP schema is not at %s (../shared/mcp-spec beside the repository): %v", path, err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	u := "https://spec.invalid/" + version + "/schema.json"
	require.NoError(t, c.AddResource(u, doc))
	names := map[string]bool{}
	m := doc.(map[string]any)
	key := "$defs"
	if _, ok := m["definitions"]; ok {
		key = "definitions"
	}
	for name := range m[key].(map[string]any) {
		names[name] = true
	}
	return c, u + "#/" + key + "/", names
}

func TestPublishedExamplesAgreeWithOracleOnPublishedSchemas(t *testing.T) {
	exs := loadExamples(t)
	var all tally
	for _, version := range mcpVersions {
		c, prefix, names := publishedSchema(t, version)
		compiled := map[string]*target{}
		get := func(name string) *target {
			if tg, ok := compiled[name]; ok {
				return tg
			}
			sch, err := c.Compile(prefix + name)
			require.NoError(t, err)
			tg := &target{url: prefix + name, sch: sch, fast: fastschema.Compile(sch)}
			compiled[name] = tg
			return tg
		}
		for _, ex := range exs {
			if !names[ex.def] {
				continue
			}
			tg := get(ex.def)
			all.add(version+" "+ex.def, agree(t, tg.sch, tg.fast, ex.data))
			for _, other := range []string{"JSONRPCMessage", "JSONRPCRequest", "JSONRPCResponse", "JSONRPCNotification", "ContentBlock", "Result"} {
				if names[other] {
					tg := get(other)
					all.add(version+" "+other, agree(t, tg.sch, tg.fast, ex.data))
				}
			}
		}
	}
	t.Logf("%d checks, %d unknown %v", all.checks, all.unknown, all.unknownAt)
	require.Positive(t, all.checks)
	require.LessOrEqual(t, all.unknown*20, all.checks, "unknown must be rare")
}

// projectCompiler returns the library's compiler of the project's schema
// documents and nothing else, reading those without $schema as 2020-12.
func projectCompiler() (*jsonschema.Compiler, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	docs, err := readProjectDocs()
	if err != nil {
		return nil, err
	}
	for u, text := range docs {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
		if err != nil {
			return nil, err
		}
		if err := c.AddResource(u, v); err != nil {
			return nil, err
		}
	}
	return c, nil
}
