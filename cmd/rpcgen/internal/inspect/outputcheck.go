package inspect

import (
	"encoding/json"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// checkOutput checks a tool's structured content against its output
// schema, as the protocol asks a client to: findings point into the
// result ("/structuredContent/..."). A tool error (isError) need not have
// structured content.
func checkOutput(schema json.RawMessage, res *mcp.CallToolResult) []Finding {
	if len(schema) == 0 {
		return nil
	}
	sch, err := compileSchema(schema)
	if err != nil {
		return []Finding{{Pointer: "", Code: rpc.CodeInternalError, Reason: "the tool's outputSchema does not compile: " + err.Error()}}
	}
	if len(res.StructuredContent) == 0 {
		if res.IsError != nil && *res.IsError {
			return nil
		}
		return []Finding{{Pointer: "", Code: rpc.CodeInternalError, Reason: "the tool has an outputSchema, and its result no structuredContent"}}
	}
	verr := sch.ValidateJSON(res.StructuredContent)
	if verr == nil {
		return nil
	}
	e := rpc.SchemaError(rpc.CodeInternalError, "", verr)
	var data rpc.ValidationData
	if json.Unmarshal(e.Data, &data) != nil || len(data.Errors) == 0 {
		return []Finding{{Pointer: "/structuredContent", Code: e.Code, Reason: e.Message}}
	}
	out := make([]Finding, 0, len(data.Errors))
	for _, v := range data.Errors {
		out = append(out, Finding{Pointer: "/structuredContent" + v.InstanceLocation, Code: e.Code, Reason: v.Message, Violations: []rpc.Violation{v}})
	}
	return out
}

// compileSchema compiles a tool's schema, a JSON Schema 2020-12 document
// unless it says otherwise, as an MCP client built on package mcp does; no
// reference is fetched from anywhere.
func compileSchema(schema json.RawMessage) (*rpc.Schema, error) {
	const url = "https://schemarpc.dev/inspect/outputSchema.json"
	return rpc.NewSchemaSet(map[string]string{url: string(schema)}).Compile(url)
}
