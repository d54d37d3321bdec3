package rpc

import (
	"encoding/json"
	"sync/atomic"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// Schema is one schema that messages are checked against: a location in a
// [SchemaSet].
//
// Making one compiles nothing. A message is first checked straight from its
// bytes by the schema's fast validator: the one the generator compiled into
// the set's program ([WithProgram]) when there is one, so a generated
// service starts without compiling any schema. The set compiles the schema
// from its documents only when it must: to explain a message that fails,
// or to decide what the fast validator cannot tell. A Schema is safe for
// concurrent use.
type Schema struct {
	set      *SchemaSet
	location string
	root     int                                  // index of the location among the set's program roots, -1 for none
	fastV    atomic.Pointer[fastschema.Validator] // the fast validator, once known
}

// Schema returns the schema at location (a document URL, optionally with a
// JSON-pointer fragment such as "#/$defs/AddParams"), compiling nothing.
// A location that does not compile makes checks against it fail with the
// compile error; use [SchemaSet.Compile] to find that out at once.
//
// It is kept out of line: a generated package calls it once per method
// when it starts, and inlined, each call site would carry the map lookup
// and the allocation (some 150 bytes more code per method).
//
//go:noinline
func (s *SchemaSet) Schema(location string) *Schema {
	root := -1
	if i, ok := s.programRoots[location]; ok {
		root = i
	}
	return &Schema{set: s, location: location, root: root}
}

// Location returns the schema's absolute location.
func (s *Schema) Location() string { return s.location }

// Validate checks a decoded value (objects as map[string]any, numbers as
// json.Number or any Go number) against the schema. It returns nil, a
// *[ValidationError] listing the violations, or the [CompileError] of a
// schema that does not compile.
func (s *Schema) Validate(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.ValidateJSON(data)
}

// ValidateJSON checks one JSON text against the schema, as [Schema.Validate]
// does a decoded value.
func (s *Schema) ValidateJSON(data []byte) error {
	if validFast(s, data) {
		return nil
	}
	return s.explainJSON(data)
}

// explainJSON decides data the slow way and returns nil, a
// *ValidationError or the error that stopped it: for callers whose fast
// check has already failed.
func (s *Schema) explainJSON(data []byte) error {
	fails, err := s.failures(data)
	if err != nil {
		return err
	}
	if len(fails) == 0 {
		return nil
	}
	return &ValidationError{Violations: violations(fails, nil)}
}

// compiled returns the schema compiled from the set's documents.
func (s *Schema) compiled() (*fastschema.Validator, error) {
	return s.set.compile(s.location)
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
		c, err := s.compiled()
		if err != nil {
			return nil
		}
		v = c
	}
	s.fastV.Store(v)
	return v
}
