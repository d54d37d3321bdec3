package mcp

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/schemarpc/schemarpc/schema"
)

// statelessSchema is the project's schema of 2026-07-28 (schema/mcp/2026-07-28),
// compiled once: the params schema of every method, and the definitions the
// server checks multi-round-trip answers against.
type statelessSchema struct {
	params map[string]*jsonschema.Schema // method → params schema
	defs   map[string]*jsonschema.Schema // definition name → schema, as needed
}

var (
	statelessOnce sync.Once
	stateless     *statelessSchema
	statelessErr  error
)

// statelessSchemas returns the compiled 2026-07-28 schema.
func statelessSchemas() (*statelessSchema, error) {
	statelessOnce.Do(func() { stateless, statelessErr = loadStateless() })
	return stateless, statelessErr
}

// statelessAnswerDefs are the definitions the answers of input requests are
// checked against.
var statelessAnswerDefs = []string{"ElicitResult", "CreateMessageResult", "ListRootsResult"}

func loadStateless() (*statelessSchema, error) {
	const dir = "mcp/" + Version20260728
	set, err := rpc.NewSchemaSetFS(schema.FS, ".", schema.BaseURL)
	if err != nil {
		return nil, err
	}
	files, err := fs.Glob(schema.FS, dir+"/*.json")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("mcp: no %s schema embedded", Version20260728)
	}
	out := &statelessSchema{params: map[string]*jsonschema.Schema{}, defs: map[string]*jsonschema.Schema{}}
	defs := map[string]string{}
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
			} `json:"methods"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("mcp: %s: %w", f, err)
		}
		base, _ := url.Parse(schema.BaseURL + f)
		for name := range doc.Defs {
			defs[name] = base.String() + "#/$defs/" + name
		}
		for _, m := range doc.Methods {
			ref := m.Params["$ref"]
			if ref == "" {
				continue
			}
			r, err := url.Parse(ref)
			if err != nil {
				return nil, fmt.Errorf("mcp: %s: method %s: %w", f, m.Name, err)
			}
			sch, err := set.Compile(base.ResolveReference(r).String())
			if err != nil {
				return nil, err
			}
			out.params[m.Name] = sch
		}
	}
	for _, name := range statelessAnswerDefs {
		loc, ok := defs[name]
		if !ok {
			return nil, fmt.Errorf("mcp: the %s schema lacks %s", Version20260728, name)
		}
		if out.defs[name], err = set.Compile(loc); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// validDef reports whether raw is a valid instance of a definition the
// server loaded (statelessAnswerDefs).
func validDef(name string, raw json.RawMessage) bool {
	sch, err := statelessSchemas()
	if err != nil || sch.defs[name] == nil {
		return false
	}
	inst, err := decodeInstance(raw)
	return err == nil && sch.defs[name].Validate(inst) == nil
}
