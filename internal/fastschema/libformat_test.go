package fastschema

import (
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/internal/jsonformat"
)

// formatOf is our check standing for the library's format f, nil when it
// has none: f is a format the library registers itself (every compiler
// shares those), not one a user registered under the same name or another.
// "regex" is made afresh for every schema; it is taken to be Go's regexp,
// the library's default engine.
func formatOf(f *jsonschema.Format) *jsonformat.Format {
	if f.Name != "regex" && libraryFormats()[f.Name] != f {
		return nil
	}
	return jsonformat.Lookup(f.Name)
}

// libraryFormats are the library's own format checks by name, read once
// from a draft-07 schema asserting each name jsonformat knows. The schema
// is a constant the library always compiles, as MustCompile's patterns are.
var libraryFormats = sync.OnceValue(func() map[string]*jsonschema.Format {
	props := map[string]any{}
	for _, name := range jsonformat.Names() {
		props[name] = map[string]any{"format": name}
	}
	c := jsonschema.NewCompiler()
	const loc = "urn:fastschema:formats"
	doc := map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "properties": props}
	if err := c.AddResource(loc, doc); err != nil {
		panic("fastschema: the library refuses the schema of its formats: " + err.Error())
	}
	sch := c.MustCompile(loc)
	out := map[string]*jsonschema.Format{}
	for name, p := range sch.Properties {
		if p.Format != nil {
			out[name] = p.Format
		}
	}
	return out
})
