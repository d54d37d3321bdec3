package rpc

import (
	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// failures decides data against the schema and says why it fails: none for
// a valid value. It explains with the schema compiled from the set's
// documents, whose failures name the keyword locations (a program's
// validators do not carry them).
func (s *Schema) failures(data []byte) ([]fastschema.Failure, error) {
	v, err := s.compiled()
	if err != nil {
		return nil, err
	}
	return v.Explain(data)
}
