package mcp

import (
	"reflect"
	"testing"
)

// benchToolInput is a typical tool's input: the example of
// docs/mcp-server.md ("Schemas from Go types") and a nested option.
type benchToolInput struct {
	Query   string   `json:"query" jsonschema:"what to search for, in plain words"`
	Sort    string   `json:"sort,omitempty" jsonschema:"enum=relevance|date,default=relevance"`
	Limit   int      `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=10,description=how many results, at most"`
	Lang    string   `json:"lang,omitempty" jsonschema:"pattern=^[a-z]{2}$,examples=en|fr"`
	Tags    []string `json:"tags,omitempty" jsonschema:"maxLength=20,description=labels to filter by"`
	Options *struct {
		Exact bool `json:"exact" jsonschema:"match the words exactly"`
	} `json:"options,omitempty"`
}

// BenchmarkInferToolSchema measures deriving a typical tool's input schema
// from its Go type, ours against the schema library's path it replaced.
func BenchmarkInferToolSchema(b *testing.B) {
	t := reflect.TypeFor[benchToolInput]()
	for _, bc := range []struct {
		name  string
		infer func(reflect.Type) ([]byte, error)
	}{{"ours", inferredSchemaFor}, {"library", librarySchemaFor}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.infer(t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
