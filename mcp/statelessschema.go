package mcp

import (
	"encoding/json"
	"sync"

	"github.com/schemarpc/schemarpc/rpc"
)

// statelessSchema is what the server compiles of the project's 2026-07-28
// schema (see versionSchema), once: the definitions the server checks
// multi-round-trip answers against. (The params schemas come with the
// generated bindings.)
type statelessSchema struct {
	defs map[string]*rpc.Schema // definition name → schema, as needed
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
	vs, err := schemaOf(Version20260728)
	if err != nil {
		return nil, err
	}
	out := &statelessSchema{defs: map[string]*rpc.Schema{}}
	for _, name := range statelessAnswerDefs {
		if out.defs[name], err = vs.compileDef(name); err != nil {
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
	return sch.defs[name].ValidateJSON(raw) == nil
}
