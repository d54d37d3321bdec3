package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/schemarpc/schemarpc/mcp"
)

// coreScenarios lists the scenarios that are not about authorization.
func coreScenarios() map[string]scenarioFunc {
	return map[string]scenarioFunc{
		"initialize":                          playInitialize,
		"tools_call":                          playToolsCall,
		"elicitation-sep1034-client-defaults": playElicitationDefaults,
		"sse-retry":                           playSSERetry,
		"request-metadata":                    playRequestMetadata,
		"sep-2322-client-request-state":       playRequestState,
		"http-standard-headers":               playStandardHeaders,
		"http-custom-headers":                 playCustomHeaders,
		"http-invalid-tool-headers":           playInvalidToolHeaders,
		"json-schema-ref-no-deref":            playRefNoDeref,
		"json-schema-2020-12-preservation":    playSchemaPreservation,
	}
}

// playInitialize opens a session (initialize, then notifications/initialized), lists the
// tools and closes it.
func playInitialize(ctx context.Context, env *scenarioEnv) error {
	return withSession(ctx, env, nil, nil, func(s *mcp.ClientSession) error {
		_, err := listTools(ctx, s)
		return err
	})
}

// playToolsCall calls add_numbers with 1 and 2, on either wire.
func playToolsCall(ctx context.Context, env *scenarioEnv) error {
	return withSession(ctx, env, nil, nil, func(s *mcp.ClientSession) error {
		tools, err := listTools(ctx, s)
		if err != nil {
			return err
		}
		if _, err := findTool(tools, "add_numbers"); err != nil {
			return err
		}
		text, err := callTool(ctx, s, "add_numbers", json.RawMessage(`{"a":1,"b":2}`))
		if err != nil {
			return err
		}
		return expectText("add_numbers", text, "3")
	})
}

// playElicitationDefaults calls the tool that asks for a form whose fields all have
// defaults and accepts with no content at all: filling in the defaults is the client
// library's job.
func playElicitationDefaults(ctx context.Context, env *scenarioEnv) error {
	asked := 0
	opts := &mcp.ClientOptions{
		Elicit: func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			asked++
			return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept, Content: map[string]mcp.ElicitResultContentValue{}}, nil
		},
	}
	return withSession(ctx, env, opts, nil, func(s *mcp.ClientSession) error {
		text, err := callTool(ctx, s, "test_client_elicitation_defaults", nil)
		if err != nil {
			return err
		}
		if asked != 1 {
			return fmt.Errorf("the server asked %d times for input, want once", asked)
		}
		return expectText("test_client_elicitation_defaults", text, "Elicitation completed")
	})
}

// playSSERetry calls the tool whose response stream the server closes early: the
// transport must wait the announced retry interval and resume with GET and Last-Event-ID,
// where the result arrives.
func playSSERetry(ctx context.Context, env *scenarioEnv) error {
	return withSession(ctx, env, nil, nil, func(s *mcp.ClientSession) error {
		tools, err := listTools(ctx, s)
		if err != nil {
			return err
		}
		if _, err := findTool(tools, "test_reconnection"); err != nil {
			return err
		}
		text, err := callTool(ctx, s, "test_reconnection", nil)
		if err != nil {
			return err
		}
		return expectText("test_reconnection", text, "Reconnection test completed")
	})
}

// everyCapability are client options that declare sampling, elicitation and roots, with
// handlers that decline (no scenario that uses them expects an answer).
func everyCapability() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		CreateMessage: func(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
			return nil, fmt.Errorf("this client has no model to sample")
		},
		Elicit: func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: mcp.ElicitResultActionDecline}, nil
		},
		ListRoots: func(ctx context.Context) (*mcp.ListRootsResult, error) {
			return &mcp.ListRootsResult{Roots: []mcp.Root{}}, nil
		},
	}
}

// playRequestMetadata talks to a stateless server that refuses the first request's
// version (-32022, naming the versions it serves): the client retries with one of them,
// and every request carries the MCP-Protocol-Version header equal to _meta's
// protocolVersion, the client capabilities (sampling, elicitation and roots declared) and
// the client info.
func playRequestMetadata(ctx context.Context, env *scenarioEnv) error {
	return withSession(ctx, env, everyCapability(), nil, func(s *mcp.ClientSession) error {
		if !s.Stateless() {
			return fmt.Errorf("negotiated %s, want the stateless protocol", s.ProtocolVersion())
		}
		_, err := listTools(ctx, s)
		return err
	})
}

// playRequestState plays the multi-round-trip tools: the library answers each
// input_required result through the elicitation handler and retries with a new id,
// echoing requestState exactly when there was one; an unrelated call in between carries
// nothing of the other flow; a result without resultType is complete.
func playRequestState(ctx context.Context, env *scenarioEnv) error {
	opts := &mcp.ClientOptions{
		Elicit: func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept, Content: map[string]mcp.ElicitResultContentValue{
				"confirmed": {Value: mcp.ElicitResultContentValueBoolean(true)},
			}}, nil
		},
	}
	return withSession(ctx, env, opts, nil, func(s *mcp.ClientSession) error {
		tools, err := listTools(ctx, s)
		if err != nil {
			return err
		}
		calls := []struct{ tool, want string }{
			{"test_mrtr_echo_state", "echo-state-ok"},
			{"test_mrtr_unrelated", "unrelated-ok"},
			{"test_mrtr_no_state", "no-state-ok"},
			{"test_mrtr_no_result_type", "no-result-type-test-ok"},
		}
		for _, c := range calls {
			if _, err := findTool(tools, c.tool); err != nil {
				return err
			}
			text, err := callTool(ctx, s, c.tool, nil)
			if err != nil {
				return err
			}
			if err := expectText(c.tool, text, c.want); err != nil {
				return err
			}
		}
		return nil
	})
}

// playStandardHeaders sends every request the scenario grades for its Mcp-Method and
// Mcp-Name headers: tools/list, tools/call of each tool (one with a hyphen in its name),
// resources/list, resources/read of each resource (percent-encoded and query URIs),
// prompts/list and prompts/get.
func playStandardHeaders(ctx context.Context, env *scenarioEnv) error {
	return withSession(ctx, env, nil, nil, func(s *mcp.ClientSession) error {
		tools, err := listTools(ctx, s)
		if err != nil {
			return err
		}
		if len(tools) == 0 {
			return fmt.Errorf("the server lists no tools")
		}
		for _, t := range tools {
			if _, err := callTool(ctx, s, t.Name, nil); err != nil {
				return err
			}
		}
		read := 0
		for r, err := range s.Resources(ctx) {
			if err != nil {
				return fmt.Errorf("resources/list: %w", err)
			}
			if _, err := s.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: r.URI}); err != nil {
				return fmt.Errorf("resources/read %s: %w", r.URI, err)
			}
			read++
		}
		got := 0
		for p, err := range s.Prompts(ctx) {
			if err != nil {
				return fmt.Errorf("prompts/list: %w", err)
			}
			if _, err := s.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: p.Name}); err != nil {
				return fmt.Errorf("prompts/get %s: %w", p.Name, err)
			}
			got++
		}
		if read == 0 || got == 0 {
			return fmt.Errorf("read %d resources and got %d prompts, want at least one of each", read, got)
		}
		return nil
	})
}

// toolCall is one call the suite asks for in MCP_CONFORMANCE_CONTEXT.
type toolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// contextToolCalls reads the toolCalls member of the scenario context.
func contextToolCalls(raw json.RawMessage) ([]toolCall, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT is missing: it must list the toolCalls to make")
	}
	var c struct {
		ToolCalls []toolCall `json:"toolCalls"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
	}
	if len(c.ToolCalls) == 0 {
		return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT lists no toolCalls")
	}
	for i, tc := range c.ToolCalls {
		if tc.Name == "" {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: toolCalls[%d] has no name", i)
		}
	}
	return c.ToolCalls, nil
}

// playCustomHeaders makes the tool calls the context lists, after listing the tools so
// that the transport knows which arguments their input schemas mirror into Mcp-Param-*
// headers (x-mcp-header), with the encoding the values need and none for null.
func playCustomHeaders(ctx context.Context, env *scenarioEnv) error {
	calls, err := contextToolCalls(env.Context)
	if err != nil {
		return err
	}
	return withSession(ctx, env, nil, nil, func(s *mcp.ClientSession) error {
		tools, err := listTools(ctx, s)
		if err != nil {
			return err
		}
		for _, c := range calls {
			if _, err := findTool(tools, c.Name); err != nil {
				return err
			}
			if _, err := callTool(ctx, s, c.Name, c.Arguments); err != nil {
				return err
			}
		}
		return nil
	})
}

// playInvalidToolHeaders lists tools among which most declare an x-mcp-header the
// specification forbids, and calls every tool the client library offers: the library
// must leave out (or refuse to call) the invalid ones and keep valid_tool.
func playInvalidToolHeaders(ctx context.Context, env *scenarioEnv) error {
	return withSession(ctx, env, nil, nil, func(s *mcp.ClientSession) error {
		tools, err := listTools(ctx, s)
		if err != nil {
			return err
		}
		valid, err := findTool(tools, "valid_tool")
		if err != nil {
			return err
		}
		var refused []string
		for _, t := range tools {
			args, err := placeholderArguments(t.InputSchema)
			if err != nil {
				return fmt.Errorf("tool %s: %w", t.Name, err)
			}
			if _, err := callTool(ctx, s, t.Name, args); err != nil {
				if t == valid {
					return err
				}
				refused = append(refused, t.Name)
			}
		}
		if len(refused) > 0 {
			fmt.Fprintf(os.Stderr, "conformance-client: the library refused to call %s\n", strings.Join(refused, ", "))
		}
		return nil
	})
}

// placeholderArguments builds arguments for a tool: a value of the declared type for each
// required property of its input schema.
func placeholderArguments(schema json.RawMessage) (json.RawMessage, error) {
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if len(schema) > 0 {
		if err := json.Unmarshal(schema, &s); err != nil {
			return nil, fmt.Errorf("input schema: %w", err)
		}
	}
	args := map[string]any{}
	for _, name := range s.Required {
		var typ string
		_ = json.Unmarshal(s.Properties[name].Type, &typ)
		switch typ {
		case "string":
			args[name] = "us-west1"
		case "integer", "number":
			args[name] = 1
		case "boolean":
			args[name] = true
		case "object":
			args[name] = map[string]any{}
		case "array":
			args[name] = []any{}
		default:
			args[name] = nil
		}
	}
	return json.Marshal(args)
}

// playRefNoDeref lists tools whose input schema holds a $ref to a network URL: the client
// must not fetch it.
func playRefNoDeref(ctx context.Context, env *scenarioEnv) error {
	return withSession(ctx, env, nil, nil, func(s *mcp.ClientSession) error {
		tools, err := listTools(ctx, s)
		if err != nil {
			return err
		}
		_, err = findTool(tools, "lookup_user")
		return err
	})
}

// playSchemaPreservation sends the input schema of json_schema_2020_12_tool, as the
// client received it, back through json_schema_echo: every 2020-12 keyword must survive.
func playSchemaPreservation(ctx context.Context, env *scenarioEnv) error {
	return withSession(ctx, env, nil, nil, func(s *mcp.ClientSession) error {
		tools, err := listTools(ctx, s)
		if err != nil {
			return err
		}
		focal, err := findTool(tools, "json_schema_2020_12_tool")
		if err != nil {
			return err
		}
		if _, err := findTool(tools, "json_schema_echo"); err != nil {
			return err
		}
		args, err := json.Marshal(map[string]json.RawMessage{"schema": focal.InputSchema})
		if err != nil {
			return err
		}
		_, err = callTool(ctx, s, "json_schema_echo", args)
		return err
	})
}
