package inspect

import (
	"bytes"
	"encoding/json"

	"github.com/santhosh-tekuri/jsonschema/v6"

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
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(res.StructuredContent))
	if err != nil {
		return []Finding{{Pointer: "/structuredContent", Code: rpc.CodeInternalError, Reason: err.Error()}}
	}
	verr := sch.Validate(inst)
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
// unless it says otherwise; no reference is fetched from anywhere.
func compileSchema(schema json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	const url = "urn:rpcgen-inspect:outputSchema"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}
