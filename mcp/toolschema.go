package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	gojsonschema "github.com/google/jsonschema-go/jsonschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// toolSchemaURL names a tool's schema while it is compiled; nothing is
// ever fetched from it.
const toolSchemaURL = "https://schemarpc.dev/mcp/tool/"

// compileToolSchema compiles a tool's input or output schema. A schema
// without $schema is Draft 2020-12, as the protocol says. References may
// point only inside the schema itself: any other URL is refused at
// registration, never fetched.
func compileToolSchema(raw json.RawMessage, tool, which string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("mcp: tool %q: %s is not JSON: %w", tool, which, err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("mcp: tool %q: %s must be a JSON object", tool, which)
	}
	if which == "inputSchema" && obj["type"] != "object" {
		return nil, fmt.Errorf(`mcp: tool %q: inputSchema must have "type": "object"`, tool)
	}
	sch, err := compileSelfContained(toolSchemaURL+tool+"/"+which+".json", doc)
	if err != nil {
		return nil, fmt.Errorf("mcp: tool %q: %s does not compile: %w", tool, which, err)
	}
	return sch, nil
}

// compileSelfContained compiles a schema document (as read by
// jsonschema.UnmarshalJSON) under url, a name nothing is fetched from. A
// document without $schema is Draft 2020-12; references may point only
// inside the document.
func compileSelfContained(url string, doc any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// noLoader refuses every external reference.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("external schema references are not fetched: " + url)
}

// schemaFor derives a JSON Schema from the Go type of T: struct fields by
// their json names, required unless omitempty or omitzero, and the field
// tag `jsonschema:"…"` as the property's description.
func schemaFor[T any]() (json.RawMessage, error) {
	s, err := gojsonschema.For[T](&gojsonschema.ForOptions{})
	if err != nil {
		return nil, fmt.Errorf("mcp: cannot derive a JSON Schema from %v: %w", reflect.TypeFor[T](), err)
	}
	return json.Marshal(s)
}

// decodeInstance reads JSON for validation: numbers stay exact.
func decodeInstance(raw []byte) (any, error) {
	return jsonschema.UnmarshalJSON(bytes.NewReader(raw))
}
