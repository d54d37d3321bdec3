package gen

import (
	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// program is what the generator compiles of a service's schemas for the
// generated code: the fast validators of the params schemas, as one
// program (see rpc.WithProgram), so that a generated server checks params
// without compiling a schema when it starts.
type program struct {
	text      string   // fastschema.Encode of the validators
	locations []string // the params locations, in the program's order
}

// compileProgram compiles the params schema of every method with c, the
// compiler that checked them (the same documents and default draft as the
// generated schema set), into svc's program. A location that does not
// compile was reported by the check; then there is no program.
func compileProgram(c *schemaCompiler, svc *service) {
	var locs []string
	var vs []*fastschema.Validator
	seen := map[string]bool{}
	for _, m := range svc.methods {
		if !m.hasParams || seen[m.paramsURL] {
			continue
		}
		seen[m.paramsURL] = true
		v, err := c.own.Compile(m.paramsURL)
		if err != nil {
			return
		}
		locs = append(locs, m.paramsURL)
		vs = append(vs, v)
	}
	if len(locs) == 0 {
		return
	}
	text, err := fastschema.Encode(vs)
	if err != nil {
		return // not expected of what JSONCompiler makes; the run time compiles then
	}
	svc.program = program{text: text, locations: locs}
}
