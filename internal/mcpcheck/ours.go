package mcpcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/schema"
)

// OurVersion is the richest handshake version, the one LoadOurs loads and
// mcp/v20251125 is generated from. The older handshake versions have
// schemas of their own (see Versions).
const OurVersion = "2025-11-25"

// Method is one entry of the index of our MCP schema.
type Method struct {
	Name         string // wire name, such as "tools/call"
	Notification bool
	Direction    string // "client-to-server", "server-to-client" or "both"
	Params       string // absolute schema location of the params; "" when none
	Result       string // absolute schema location of the result; "" for notifications
}

// Ours is the project's MCP schema of one version, compiled from the
// embedded documents.
type Ours struct {
	version string
	dir     string               // where its documents live inside schema.FS
	lib     *jsonschema.Compiler // the library, over schema.FS alone
	methods map[string]Method
	defs    map[string]string // definition name → absolute location
}

// LoadOurs reads the index and family documents of our MCP schema of
// OurVersion from schema.FS.
func LoadOurs() (*Ours, error) { return LoadOursFor(OurVersion) }

// LoadOursFor reads our MCP schema of one version, any of Versions, from
// schema.FS (the directory mcp/<version>).
func LoadOursFor(version string) (*Ours, error) {
	lib := jsonschema.NewCompiler()
	lib.UseLoader(embeddedLoader{})
	dir := "mcp/" + version
	o := &Ours{version: version, dir: dir, lib: lib, methods: map[string]Method{}, defs: map[string]string{}}
	files, err := fs.Glob(schema.FS, dir+"/*.json")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := fs.ReadFile(schema.FS, f)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Defs    map[string]json.RawMessage `json:"$defs"`
			Methods []struct {
				Name      string            `json:"name"`
				Kind      string            `json:"kind"`
				Direction string            `json:"direction"`
				Params    map[string]string `json:"params"`
				Result    map[string]string `json:"result"`
			} `json:"methods"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("mcpcheck: %s: %w", f, err)
		}
		base := schema.BaseURL + f
		for name := range doc.Defs {
			if prev, dup := o.defs[name]; dup {
				return nil, fmt.Errorf("mcpcheck: definition %s is in both %s and %s", name, prev, base)
			}
			o.defs[name] = base + "#/$defs/" + name
		}
		for _, m := range doc.Methods {
			params, err := resolve(base, m.Params["$ref"])
			if err != nil {
				return nil, err
			}
			result, err := resolve(base, m.Result["$ref"])
			if err != nil {
				return nil, err
			}
			o.methods[m.Name] = Method{
				Name:         m.Name,
				Notification: m.Kind == "notification",
				Direction:    m.Direction,
				Params:       params,
				Result:       result,
			}
		}
	}
	if len(o.methods) == 0 {
		return nil, fmt.Errorf("mcpcheck: no methods in %s/index.json", dir)
	}
	return o, nil
}

// resolve turns a relative $ref of the index into an absolute location.
func resolve(base, ref string) (string, error) {
	if ref == "" {
		return "", nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("mcpcheck: bad $ref %q: %w", ref, err)
	}
	return b.ResolveReference(r).String(), nil
}

// Version returns the protocol version the schema describes.
func (o *Ours) Version() string { return o.version }

// Method returns the index entry of a method.
func (o *Ours) Method(name string) (Method, bool) {
	m, ok := o.methods[name]
	return m, ok
}

// Methods returns every method of the index, sorted by name.
func (o *Ours) Methods() []Method {
	out := make([]Method, 0, len(o.methods))
	for _, m := range o.methods {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Defs returns the names of every definition of our family documents,
// sorted.
func (o *Ours) Defs() []string {
	out := make([]string, 0, len(o.defs))
	for n := range o.defs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// HasDef reports whether one of our family documents defines name.
func (o *Ours) HasDef(name string) bool {
	_, ok := o.defs[name]
	return ok
}

// Def compiles our definition of name.
func (o *Ours) Def(name string) (*jsonschema.Schema, error) {
	loc, ok := o.defs[name]
	if !ok {
		return nil, fmt.Errorf("mcpcheck: our schema has no definition %s", name)
	}
	return o.lib.Compile(loc)
}

// Compile compiles an absolute schema location, such as a Method's Params.
func (o *Ours) Compile(location string) (*jsonschema.Schema, error) {
	return o.lib.Compile(location)
}

// envelope compiles the JSON-RPC 2.0 message schema.
func (o *Ours) envelope() (*jsonschema.Schema, error) {
	return o.lib.Compile(schema.BaseURL + path.Join("jsonrpc", "message.json"))
}

// shortLocation trims the common URL prefix from a location for messages.
func (o *Ours) shortLocation(loc string) string {
	return strings.TrimPrefix(loc, schema.BaseURL+o.dir+"/")
}

// embeddedLoader loads the project's schema documents from schema.FS, and
// nothing else.
type embeddedLoader struct{}

// Load decodes the document at url.
func (embeddedLoader) Load(url string) (any, error) {
	rel, ok := strings.CutPrefix(url, schema.BaseURL)
	if !ok {
		return nil, fmt.Errorf("mcpcheck: %s is not one of the project's schema documents", url)
	}
	b, err := fs.ReadFile(schema.FS, rel)
	if err != nil {
		return nil, fmt.Errorf("mcpcheck: %s is not one of the project's schema documents", url)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}
