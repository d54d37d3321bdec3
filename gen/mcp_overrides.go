package gen

// The MCP front end derives the method index by convention (mcp_index.go).
// The published schema.json files say nothing explicit about which result a
// request has, and a few definitions carry a method name without being
// messages; this file holds the hand-kept exceptions. Each entry applies
// only when the schema defines the types it names, which is how one table
// serves every published version: 2025-11-25 defines CreateTaskResult,
// 2026-07-28 defines InputRequiredResult, neither defines both.

// mcpResultOverrides gives the result of requests whose definition has no
// <Stem>Result companion (the FooRequest → FooResult rule finds nothing).
// The first definition of the list that exists is used: "EmptyResult" is
// an alias of "Result" in every published version.
var mcpResultOverrides = map[string][]string{
	"ping":                  {"EmptyResult", "Result"},
	"logging/setLevel":      {"EmptyResult", "Result"},
	"resources/subscribe":   {"EmptyResult", "Result"},
	"resources/unsubscribe": {"EmptyResult", "Result"},
}

// mcpAltResult is another result a request may answer with.
type mcpAltResult struct {
	method string
	result string // definition name; the entry applies when it exists
}

// mcpAltResults lists the other results requests may answer with, in the
// order they appear in methods.lock.json.
var mcpAltResults = []mcpAltResult{
	// 2025-11-25: a task-augmented request (params.task) is answered with
	// CreateTaskResult; the real result comes from tasks/result.
	{"tools/call", "CreateTaskResult"},
	{"sampling/createMessage", "CreateTaskResult"},
	{"elicitation/create", "CreateTaskResult"},
	// 2026-07-28: multi-round-trip requests are answered with
	// InputRequiredResult until the client has supplied the input asked for
	// (dispatch on resultType: "input_required").
	{"tools/call", "InputRequiredResult"},
	{"prompts/get", "InputRequiredResult"},
	{"resources/read", "InputRequiredResult"},
}

// mcpPayloads are definitions that carry a method const but are not
// JSON-RPC messages: 2026-07-28's multi-round-trip input requests, sent only
// inside InputRequiredResult.inputRequests. They are skipped as methods (their
// types are still generated) when they have no id and belong to no
// Client…/Server… union; a definition that looks like them but is not listed
// here fails generation rather than being dropped.
var mcpPayloads = map[string]string{
	"CreateMessageRequest": "sampling/createMessage",
	"ElicitRequest":        "elicitation/create",
	"ListRootsRequest":     "roots/list",
}

// mcpUnionSpec is one of the union definitions whose members say which side
// sends a message.
type mcpUnionSpec struct {
	name         string
	notification bool
	sender       direction // the direction of a method this union's side sends
}

// mcpUnions are the definitions whose members say which side sends a
// message: a method in a Client… union is sent by the client (handled by the
// server), one in a Server… union is sent by the server.
var mcpUnions = []mcpUnionSpec{
	{"ClientRequest", false, toServer},
	{"ServerRequest", false, toClient},
	{"ClientNotification", true, toServer},
	{"ServerNotification", true, toClient},
}
