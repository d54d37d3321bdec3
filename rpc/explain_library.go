package rpc

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// failures decides data against the schema and says why it fails: none for
// a valid value.
func (s *Schema) failures(data []byte) ([]fastschema.Failure, error) {
	if _, err := s.compiled(); err != nil {
		return nil, err
	}
	return s.set.lib.failures(s.set, s.location, data)
}

// libraryExplainer explains failures with the jsonschema library.
type libraryExplainer struct {
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	cache    map[string]*jsonschema.Schema
}

var printer = message.NewPrinter(language.English)

func (l *libraryExplainer) failures(set *SchemaSet, location string, data []byte) ([]fastschema.Failure, error) {
	sch, err := l.compile(set, location)
	if err != nil {
		return nil, err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	err = sch.Validate(v)
	if err == nil {
		return nil, nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return nil, err
	}
	out := libFailures(ve, nil)
	if len(out) == 0 {
		out = []fastschema.Failure{libFailure(ve)}
	}
	return out, nil
}

func (l *libraryExplainer) compile(set *SchemaSet, location string) (*jsonschema.Schema, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if sch, ok := l.cache[location]; ok {
		return sch, nil
	}
	if l.compiler == nil {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(map[Draft]*jsonschema.Draft{Draft4: jsonschema.Draft4, Draft6: jsonschema.Draft6, Draft7: jsonschema.Draft7, Draft2019: jsonschema.Draft2019, Draft2020: jsonschema.Draft2020}[set.draft])
		c.UseLoader(setLoader{set})
		l.compiler = c
		l.cache = map[string]*jsonschema.Schema{}
	}
	sch, err := l.compiler.Compile(location)
	if err != nil {
		return nil, fmt.Errorf("rpc: compiling schema %s: %w", location, err)
	}
	l.cache[location] = sch
	return sch, nil
}

func libFailures(e *jsonschema.ValidationError, out []fastschema.Failure) []fastschema.Failure {
	if len(e.Causes) == 0 {
		return append(out, libFailure(e))
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		f := libFailure(e)
		for _, c := range e.Causes {
			f.Alternatives = append(f.Alternatives, libFailures(c, nil))
		}
		return append(out, f)
	}
	for _, c := range e.Causes {
		out = libFailures(c, out)
	}
	return out
}

func libFailure(e *jsonschema.ValidationError) fastschema.Failure {
	if k, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
		slices.Sort(k.Properties)
	}
	loc := e.SchemaURL
	if !strings.Contains(loc, "#") {
		loc += "#"
	}
	path := e.ErrorKind.KeywordPath()
	for _, k := range path {
		loc += "/" + escapePointer(k)
	}
	kw := "false"
	if len(path) > 0 {
		kw = path[0]
	}
	return fastschema.Failure{Instance: e.InstanceLocation, Location: loc, Keyword: kw, Message: e.ErrorKind.LocalizedString(printer)}
}

// setLoader resolves URLs from the set's documents only.
type setLoader struct{ s *SchemaSet }

func (l setLoader) Load(url string) (any, error) {
	doc, ok := l.s.docs[url]
	if !ok {
		return nil, fmt.Errorf("schema %s is not in the schema set", url)
	}
	return jsonschema.UnmarshalJSON(strings.NewReader(doc))
}
