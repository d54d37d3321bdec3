package gen

import (
	"bytes"
	"fmt"
	"io/fs"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// compileCheck compiles every schema the generated code may compile at run
// time, with the same documents and the same refusal of anything else, so a
// schema the validator rejects fails generation instead of panicking in a
// server.
func compileCheck(l *loader, svc *service, idx *document, p *problems) {
	c, check, ok := schemaChecker(l, p)
	if !ok {
		return
	}
	for _, m := range svc.methods {
		if m.hasParams {
			check(m.origin.at("params"), m.paramsURL)
		}
		if !m.notification {
			at := m.origin.at("result")
			check(at, at.url())
		}
	}
	if defs := idx.root.get("$defs"); defs != nil {
		for _, m := range defs.members {
			at := loc{idx, pointerJoin("", "$defs", m.key)}
			check(at, at.url())
		}
	}
	compileProgram(c, svc)
}

// schemaChecker loads every input document into a validator and returns it
// with a function that compiles the schema at an absolute location,
// reporting a rejection at `at`. Documents without $schema are read as Draft 2020-12,
// as rpc.SchemaSet reads them by default. ok is false when a document
// cannot be added (the problem is recorded).
func schemaChecker(l *loader, p *problems) (c *schemaCompiler, check func(at loc, location string), ok bool) {
	c, ok = checkCompiler(l.order, jsonschema.Draft2020, p)
	if !ok {
		return nil, nil, false
	}
	return c, func(at loc, location string) {
		if _, err := c.Compile(location); err != nil {
			p.add(at, "the schema validator rejects this schema: %v", err)
		}
	}, true
}

// schemaCompiler compiles schemas as the generated code does at run time
// (an rpc.SchemaSet: schemarpc's own compiler, fastschema.JSONCompiler) and
// as the jsonschema library, the oracle, does: a schema either one refuses
// fails generation, instead of failing calls in a server.
type schemaCompiler struct {
	lib *jsonschema.Compiler
	own *fastschema.JSONCompiler
}

// Compile compiles the schema at location with both compilers and returns
// the library's schema (for the questions the generator asks of it).
func (c *schemaCompiler) Compile(location string) (*jsonschema.Schema, error) {
	sch, err := c.lib.Compile(location)
	if err != nil {
		return nil, err
	}
	v, err := c.own.Compile(location)
	if err != nil {
		return nil, fmt.Errorf("schemarpc's run-time compiler refuses it: %w", err)
	}
	if f := v.Refuses(); f != "" {
		return nil, fmt.Errorf("it uses %s, which schemarpc's run time does not evaluate", f)
	}
	return sch, nil
}

// draftVersions names the library's drafts as fastschema numbers them.
var draftVersions = map[*jsonschema.Draft]int{
	jsonschema.Draft4: fastschema.Draft4, jsonschema.Draft6: fastschema.Draft6, jsonschema.Draft7: fastschema.Draft7,
	jsonschema.Draft2019: fastschema.Draft2019, jsonschema.Draft2020: fastschema.Draft2020,
}

// checkCompiler returns a compiler that holds docs and nothing else, and
// reads those without $schema as draft: the documents and the default the
// generated SchemaSet has at run time. ok is false when a document cannot
// be added (the problem is recorded).
func checkCompiler(docs []*document, draft *jsonschema.Draft, p *problems) (*schemaCompiler, bool) {
	texts := make(map[string][]byte, len(docs))
	for _, d := range docs {
		texts[d.url] = d.raw
	}
	own, err := fastschema.NewJSONCompiler(func(u string) ([]byte, error) {
		if b, ok := texts[u]; ok {
			return b, nil
		}
		return nil, fs.ErrNotExist
	}, draftVersions[draft])
	if err != nil {
		panic(err) // the drafts the generator names are all supported
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	c.UseLoader(refusingLoader{})
	for _, d := range docs {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(d.raw))
		if err == nil {
			err = c.AddResource(d.url, v)
		}
		if err != nil {
			p.add(loc{d, ""}, "%v", err)
			return nil, false
		}
	}
	return &schemaCompiler{lib: c, own: own}, true
}

// refusingLoader stands in for the network and the file system: every
// document must already be in the set.
type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is not one of the input documents", url)
}
