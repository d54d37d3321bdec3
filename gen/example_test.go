package gen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schemarpc/schemarpc/gen"
)

func ExampleGenerate() {
	dir, err := os.MkdirTemp("", "rpcgen-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	index := `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.com/greeter/greeter.json",
  "service": "Greeter",
  "methods": [
    {"name": "greet", "params": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}, "result": {"type": "string"}}
  ]
}`
	input := filepath.Join(dir, "greeter.json")
	if err := os.WriteFile(input, []byte(index), 0o644); err != nil {
		panic(err)
	}

	files, err := gen.Generate(gen.Options{Input: input, Package: "greeterrpc"})
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		fmt.Println(f.Name)
		for _, line := range strings.Split(string(f.Content), "\n") {
			if strings.HasPrefix(line, "\tGreet(") || strings.HasPrefix(line, "type GreetParams") {
				fmt.Println("   ", strings.TrimSpace(line))
			}
		}
	}
	// Output:
	// types_gen.go
	//     type GreetParams struct {
	// methods_gen.go
	//     Greet(ctx context.Context, params *GreetParams) (string, error)
	// schema_gen.go
}

func ExampleGenerate_errors() {
	dir, err := os.MkdirTemp("", "rpcgen-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	index := `{
  "$id": "https://example.com/greeter/greeter.json",
  "service": "Greeter",
  "methods": [
    {"name": "greet", "kind": "notification", "result": {"type": "string"}},
    {"name": "wave", "result": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/Email"}, {"type": "integer"}]}}
  ],
  "$defs": {"Email": {"type": "string", "format": "email"}}
}`
	input := filepath.Join(dir, "greeter.json")
	if err := os.WriteFile(input, []byte(index), 0o644); err != nil {
		panic(err)
	}

	_, err = gen.Generate(gen.Options{Input: input, Package: "greeterrpc"})
	fmt.Println(err)
	// Output:
	// greeter.json#/methods/0/result: a notification has no result: drop result, or make kind "request"
	// greeter.json#/methods/1/result: cannot tell the variants of WaveResult apart: WaveResultString, Email are all strings; map it to raw JSON in the config (types: "greeter.json#/methods/1/result": "encoding/json.RawMessage"), or change the schema
}
