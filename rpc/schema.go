package rpc

import (
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// Schema is one schema that messages are checked against: a location in a
// [SchemaSet], or a schema compiled already ([SchemaOf]).
//
// Making one compiles nothing. A message is first checked straight from its
// bytes by the schema's fast validator: the one the generator compiled into
// the set's program ([WithProgram]) when there is one, so a generated
// service starts without compiling any schema. The jsonschema library
// compiles the schema only when it must decide or explain: when a message
// fails the fast check, or the fast validator cannot tell. A Schema is safe
// for concurrent use.
type Schema struct {
	set      *SchemaSet
	location string
	root     int // index of the location among the set's program roots, -1 for none
	compiled *jsonschema.Schema
	fastV    atomic.Pointer[fastschema.Validator] // the fast validator, once known
}

// Schema returns the schema at location (a document URL, optionally with a
// JSON-pointer fragment such as "#/$defs/AddParams"), compiling nothing.
// A location that does not compile makes checks against it fail with the
// compile error; use [SchemaSet.Compile] to find that out at once.
func (s *SchemaSet) Schema(location string) *Schema {
	root := -1
	if i, ok := s.programRoots[location]; ok {
		root = i
	}
	return &Schema{set: s, location: location, root: root}
}

// SchemaOf returns the Schema of a schema compiled already (nil for nil).
func SchemaOf(sch *jsonschema.Schema) *Schema {
	if sch == nil {
		return nil
	}
	return &Schema{root: -1, compiled: sch, location: sch.Location}
}

// Location returns the schema's absolute location.
func (s *Schema) Location() string { return s.location }

// Compile returns the schema compiled by the jsonschema library, compiling
// it on first use (the set keeps what it compiled).
func (s *Schema) Compile() (*jsonschema.Schema, error) {
	if s.compiled != nil {
		return s.compiled, nil
	}
	return s.set.Compile(s.location)
}

// Validate validates a decoded value (objects as map[string]any, numbers
// as json.Number) with the jsonschema library. It returns the compile error
// if the schema does not compile.
func (s *Schema) Validate(v any) error {
	sch, err := s.Compile()
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// fast returns the schema's fast validator: from the set's program, or
// compiled from the schema. nil means there is none, because the schema
// does not compile; the slow path then reports why.
func (s *Schema) fast() *fastschema.Validator {
	if v := s.fastV.Load(); v != nil {
		return v
	}
	var v *fastschema.Validator
	if s.root >= 0 {
		v = s.set.program(s.root)
	}
	if v == nil {
		sch, err := s.Compile()
		if err != nil {
			return nil
		}
		v = fastFor(sch)
	}
	s.fastV.Store(v)
	return v
}
