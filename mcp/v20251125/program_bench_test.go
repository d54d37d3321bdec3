package v20251125

import (
	"testing"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// toolsCallRoot is the index of tools/call's params schema among the roots
// of schemaProgram (the order of the locations in schema_gen.go).
const toolsCallRoot = 4

// BenchmarkFirstToolsCallCheck measures what the first check of a
// tools/call's params costs a fresh process: reading the program, then
// checking. "whole" decodes every root first (fastschema.Decode), "root"
// only tools/call's (what rpc.SchemaSet does).
func BenchmarkFirstToolsCallCheck(b *testing.B) {
	params := []byte(`{"name":"add","arguments":{"a":1,"b":2}}`)
	for name, first := range map[string]func() (*fastschema.Validator, error){
		"whole": func() (*fastschema.Validator, error) {
			vs, err := fastschema.Decode(schemaProgram)
			if err != nil {
				return nil, err
			}
			return vs[toolsCallRoot], nil
		},
		"root": func() (*fastschema.Validator, error) {
			p, err := fastschema.Open(schemaProgram)
			if err != nil {
				return nil, err
			}
			return p.Root(toolsCallRoot)
		},
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v, err := first()
				if err != nil {
					b.Fatal(err)
				}
				if v.Check(params) != fastschema.Valid || v.Check([]byte(`{}`)) != fastschema.Invalid {
					b.Fatal("root is not tools/call's params schema")
				}
			}
		})
	}
}
