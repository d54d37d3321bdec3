package fastschema

import (
	"fmt"
	"maps"
	"net/url"
	"sync"
)

// JSONCompiler compiles locations of one set of schema documents into
// Validators, without the jsonschema library, each location once: a
// document is read once however many locations it serves, and a
// sub-schema that several locations reach is one node shared by their
// validators, as in a program. A location that does not compile keeps its
// error. A JSONCompiler is safe for concurrent use.
type JSONCompiler struct {
	mu     sync.Mutex
	c      *jsonCompiler
	done   map[string]*Validator
	failed map[string]error
}

// NewJSONCompiler returns a compiler reading documents from docs, which
// returns the JSON text of the document at an absolute URL, or an error
// matching [fs.ErrNotExist] when there is none (any other error is
// reported as a document that cannot be read). A document without "$schema" is read as defaultDraft
// (Draft2020, Draft2019, Draft7, Draft6 or Draft4). The texts docs returns
// are read once and not kept.
func NewJSONCompiler(docs func(url string) ([]byte, error), defaultDraft int) (*JSONCompiler, error) {
	if subschemaKeywords[defaultDraft] == nil {
		return nil, fmt.Errorf("fastschema: default draft %d is not supported (%d, %d, %d, %d or %d)", defaultDraft, Draft2020, Draft2019, Draft7, Draft6, Draft4)
	}
	return newJSONCompiler(docs, defaultDraft, 0), nil
}

// newJSONCompiler is NewJSONCompiler inside metaDepth custom metaschemas.
func newJSONCompiler(docs func(string) ([]byte, error), draft, metaDepth int) *JSONCompiler {
	return &JSONCompiler{
		c:    &jsonCompiler{docs: docs, draft: draft, roots: map[string]*jsonRoot{}, nodes: map[string]*node{}, metaDepth: metaDepth},
		done: map[string]*Validator{},
	}
}

// Compile returns the validator of the schema at location (a document
// URL, optionally with a fragment: a JSON pointer or an anchor). A schema
// the library refuses is refused with a *SchemaError naming the keyword at
// fault (see [CompileJSON]).
func (jc *JSONCompiler) Compile(location string) (*Validator, error) {
	jc.mu.Lock()
	defer jc.mu.Unlock()
	if v, ok := jc.done[location]; ok {
		return v, nil
	}
	if err, ok := jc.failed[location]; ok {
		return nil, err
	}
	v, err := jc.compile(location)
	if err != nil {
		if jc.failed == nil {
			jc.failed = map[string]error{}
		}
		jc.failed[location] = err
		return nil, err
	}
	jc.done[location] = v
	return v, nil
}

// compile compiles location into new nodes and finishes them; on failure
// it forgets the nodes it made, so that a later location reaching the same
// schemas compiles them afresh (and fails the same way).
func (jc *JSONCompiler) compile(location string) (*Validator, error) {
	c := jc.c
	start := len(c.all)
	root, err := c.compileRoot(location)
	if err != nil {
		made := make(map[*node]bool, len(c.all)-start)
		for _, n := range c.all[start:] {
			made[n] = true
		}
		maps.DeleteFunc(c.nodes, func(_ string, n *node) bool { return made[n] })
		clear(c.all[start:])
		c.all = c.all[:start]
		return nil, err
	}
	// Nodes made before reach none made now, so the cycles among the new
	// nodes are found among them alone.
	fresh := c.all[start:]
	markInPlaceCycles(fresh)
	finish(fresh)
	return newValidator(root), nil
}

// compileRoot returns the node of location.
func (c *jsonCompiler) compileRoot(location string) (*node, error) {
	docURL, frag, err := splitRef(location)
	if err != nil {
		return nil, &SchemaError{Location: location, Reason: err.Error()}
	}
	if u, err := url.Parse(docURL); err != nil || !u.IsAbs() {
		return nil, &SchemaError{Location: location, Reason: "the location is not an absolute URL"}
	}
	r, err := c.root(docURL)
	if err != nil {
		return nil, err
	}
	ptr, err := r.fragment(r.resources[""], frag)
	if err != nil {
		return nil, err
	}
	return c.node(r, ptr)
}
