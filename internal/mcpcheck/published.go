package mcpcheck

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ErrNoSpec is returned by FindSpecDir when no shared/mcp-spec directory is
// found.
var ErrNoSpec = errors.New("mcpcheck: no shared/mcp-spec directory above the working directory")

// FindSpecDir looks for shared/mcp-spec in the working directory and each of
// its parents, and returns the first one found.
func FindSpecDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		cand := filepath.Join(dir, "shared", "mcp-spec")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoSpec
		}
		dir = parent
	}
}

// resultOverrides are the requests whose result is not found by the
// FooRequest → FooResult naming rule of the published schemas.
var resultOverrides = map[string]string{
	"ping":                  "EmptyResult",
	"logging/setLevel":      "EmptyResult",
	"resources/subscribe":   "EmptyResult",
	"resources/unsubscribe": "EmptyResult",
}

// altResults are further results a request may be answered with, used when
// the published schema defines them (CreateTaskResult exists in 2025-11-25
// only, InputRequiredResult from 2026-07-28 on).
var altResults = map[string][]string{
	"tools/call":             {"CreateTaskResult", "InputRequiredResult"},
	"sampling/createMessage": {"CreateTaskResult"},
	"elicitation/create":     {"CreateTaskResult"},
	"prompts/get":            {"InputRequiredResult"},
	"resources/read":         {"InputRequiredResult"},
}

// unionDefs are the published definitions that list messages rather than
// being one.
var unionDefs = map[string]bool{
	"ClientRequest": true, "ServerRequest": true,
	"ClientNotification": true, "ServerNotification": true,
}

// Published is the published schema.json of one protocol version, compiled
// as it is (draft-07 up to 2025-06-18, 2020-12 from 2025-11-25 on).
type Published struct {
	Version   string
	container string // "definitions" or "$defs"
	url       string
	defs      map[string]any
	messages  map[string]string // method → message definition
	compiler  *jsonschema.Compiler
	mu        sync.Mutex
	cache     map[string]*jsonschema.Schema
}

// LoadPublished reads specDir/version/schema.json.
func LoadPublished(specDir, version string) (*Published, error) {
	file := filepath.Join(specDir, version, "schema.json")
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("mcpcheck: %w", err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("mcpcheck: %s: %w", file, err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("mcpcheck: %s is not a JSON object", file)
	}
	p := &Published{Version: version, cache: map[string]*jsonschema.Schema{}, messages: map[string]string{}}
	for _, c := range []string{"$defs", "definitions"} {
		if d, ok := root[c].(map[string]any); ok {
			p.container, p.defs = c, d
			break
		}
	}
	if p.defs == nil {
		return nil, fmt.Errorf("mcpcheck: %s has neither $defs nor definitions", file)
	}
	for name, d := range p.defs {
		if unionDefs[name] {
			continue
		}
		if m, ok := methodConst(d); ok {
			p.messages[m] = name
		}
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	p.url = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	p.compiler = jsonschema.NewCompiler()
	if err := p.compiler.AddResource(p.url, doc); err != nil {
		return nil, fmt.Errorf("mcpcheck: %s: %w", file, err)
	}
	return p, nil
}

// methodConst returns properties.method.const of a definition.
func methodConst(def any) (string, bool) {
	d, _ := def.(map[string]any)
	props, _ := d["properties"].(map[string]any)
	m, _ := props["method"].(map[string]any)
	c, ok := m["const"].(string)
	return c, ok
}

// HasDef reports whether the schema defines name.
func (p *Published) HasDef(name string) bool {
	_, ok := p.defs[name]
	return ok
}

// Defs returns the names of every definition, sorted.
func (p *Published) Defs() []string {
	return slices.Sorted(maps.Keys(p.defs))
}

// Def compiles the definition name.
func (p *Published) Def(name string) (*jsonschema.Schema, error) {
	if !p.HasDef(name) {
		return nil, fmt.Errorf("mcpcheck: the published %s schema has no definition %s", p.Version, name)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.cache[name]; ok {
		return s, nil
	}
	s, err := p.compiler.Compile(p.url + "#/" + p.container + "/" + escape(name))
	if err != nil {
		return nil, fmt.Errorf("mcpcheck: compiling the published %s definition %s: %w", p.Version, name, err)
	}
	p.cache[name] = s
	return s, nil
}

// escape escapes a definition name for a JSON pointer.
func escape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// MessageDef returns the definition of the message whose method const is
// method.
func (p *Published) MessageDef(method string) (string, bool) {
	d, ok := p.messages[method]
	return d, ok
}

// ResultDefs returns the definitions a response to method may match: the
// one the FooRequest → FooResult rule (or the override table) names, then
// the alternatives this version defines.
func (p *Published) ResultDefs(method string) []string {
	var out []string
	if r, ok := resultOverrides[method]; ok {
		out = append(out, r)
	} else if d, ok := p.messages[method]; ok && strings.HasSuffix(d, "Request") {
		out = append(out, strings.TrimSuffix(d, "Request")+"Result")
	}
	for _, alt := range altResults[method] {
		if p.HasDef(alt) {
			out = append(out, alt)
		}
	}
	var have []string
	for _, d := range out {
		if p.HasDef(d) {
			have = append(have, d)
		}
	}
	return have
}
