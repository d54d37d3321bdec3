package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// toolSchemaURL names a tool's schema while it is compiled; nothing is
// ever fetched from it.
const toolSchemaURL = "https://schemarpc.dev/mcp/tool/"

// compileToolSchema compiles a tool's input or output schema. The text is
// checked in place first (one JSON object; an input schema's "type" is
// "object"), so that the compiler's reading of it is the only decoding: a
// decoder runs before it only to say why a text that is not JSON is not.
// A schema without $schema is Draft 2020-12, as the protocol says.
// References may point only inside the schema itself: any other URL is
// refused at registration, never fetched.
func compileToolSchema(raw json.RawMessage, tool, which string) (*rpc.Schema, error) {
	if !json.Valid(raw) {
		_, err := decodeInstance(raw) // the same scanner as json.Valid's, so it fails too
		return nil, fmt.Errorf("mcp: tool %q: %s is not JSON: %w", tool, which, err)
	}
	isObject, objectType := objectSchema(raw)
	if !isObject {
		return nil, fmt.Errorf("mcp: tool %q: %s must be a JSON object", tool, which)
	}
	if which == "inputSchema" && !objectType {
		return nil, fmt.Errorf(`mcp: tool %q: inputSchema must have "type": "object"`, tool)
	}
	sch, err := compileSelfContained(toolSchemaURL+tool+"/"+which+".json", raw)
	if err != nil {
		return nil, fmt.Errorf("mcp: tool %q: %s does not compile: %w", tool, which, err)
	}
	return sch, nil
}

// objectSchema reports whether the JSON text raw is an object, and whether
// its "type" member is the string "object" (the last one, when the name
// repeats, as a decoder keeps it).
func objectSchema(raw []byte) (isObject, objectType bool) {
	o, isObject := jsonscan.NewObject(raw)
	if !isObject {
		return false, false
	}
	for {
		k, v, ok := o.Next()
		if !ok {
			return !o.Err(), objectType
		}
		if jsonscan.NameIs(k, "type") {
			objectType = jsonscan.StringIs(v, "object")
		}
	}
}

// compileSelfContained compiles the schema document text under url, a name
// nothing is fetched from. A document without $schema is Draft 2020-12;
// references may point only inside the document.
func compileSelfContained(url string, text []byte) (*rpc.Schema, error) {
	return rpc.NewSchemaSet(map[string]string{url: string(text)}).Compile(url)
}

// schemaFor derives a JSON Schema from the Go type of T: struct fields by
// their json names, required unless omitempty or omitzero, and what the
// field tag `jsonschema:"…"` says (see schematag.go).
func schemaFor[T any]() (json.RawMessage, error) {
	t := reflect.TypeFor[T]()
	s, err := inferSchema(t)
	if err != nil {
		return nil, fmt.Errorf("mcp: cannot derive a JSON Schema from %v: %w", t, err)
	}
	return marshalToolSchema(s)
}

// inferSchema derives the schema of t (schemainfer.go), then sets what
// the keyword tags say (schematag.go).
func inferSchema(t reflect.Type) (*toolSchema, error) {
	s, err := inferToolSchema(t, map[reflect.Type]bool{})
	if err != nil {
		return nil, err
	}
	if err := applyKeywordTags(t, s, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	return s, nil
}

// decodeInstance reads one JSON text with numbers kept exact
// (json.Number).
func decodeInstance(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}
