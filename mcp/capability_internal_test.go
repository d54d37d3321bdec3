package mcp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/mcp/v20260728/tasksext"
	"github.com/schemarpc/schemarpc/rpc"
)

func TestTheSchemaNamesTheCapabilityThatGatesAMethod(t *testing.T) {
	facts := func(f rpc.MethodFacts, _ bool) rpc.MethodFacts { return f }
	withCap := func(json string) rpc.MethodFacts {
		return rpc.MethodFacts{Extensions: []rpc.MethodExtension{{Name: "x-capability", Value: json}}}
	}
	for _, tc := range []struct {
		name  string
		facts rpc.MethodFacts
		want  capability
	}{
		{"2026 tools/call", facts(v20260728.MCPMethodFacts("tools/call")), capTools},
		{"2026 resources/read", facts(v20260728.MCPMethodFacts("resources/read")), capResources},
		{"2026 prompts/get", facts(v20260728.MCPMethodFacts("prompts/get")), capPrompts},
		{"2026 completion/complete", facts(v20260728.MCPMethodFacts("completion/complete")), capCompletions},
		{"2026 server/discover: always served", facts(v20260728.MCPMethodFacts("server/discover")), 0},
		{"2025 resources/subscribe", facts(v20251125.MCPMethodFacts("resources/subscribe")), capSubscribe},
		{"2025 logging/setLevel", facts(v20251125.MCPMethodFacts("logging/setLevel")), capLogging},
		{"2025 tasks/list", facts(v20251125.MCPMethodFacts("tasks/list")), capTasks},
		{"2025 ping: always served", facts(v20251125.MCPMethodFacts("ping")), 0},
		{"the tasks extension's tasks/get", facts(tasksext.TasksMethodFacts("tasks/get")), capTasksExtension},
		{"the tasks extension's tasks/update", facts(tasksext.TasksMethodFacts("tasks/update")), capTasksExtension},
		{"the tasks extension's tasks/cancel", facts(tasksext.TasksMethodFacts("tasks/cancel")), capTasksExtension},
		{"a capability the server does not know", withCap(`"sandboxes"`), capUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, capabilityOf(tc.facts))
		})
	}
}

func TestNoServerOffersACapabilityItDoesNotKnow(t *testing.T) {
	s := NewServer(&Implementation{Name: "s", Version: "1"}, &ServerOptions{HasTools: true, HasResources: true, HasPrompts: true, Tasks: true})
	for _, v := range append(SupportedVersions(), StatelessVersions()...) {
		assert.False(t, s.offer(v).has(capUnknown), v)
	}
}

func TestAServerOffersWhatItHasRegisteredOrDeclared(t *testing.T) {
	bare := func() *Server { return NewServer(&Implementation{Name: "s", Version: "1"}, nil) }
	withTool := bare()
	AddTool(withTool, &Tool{Name: "t"}, func(context.Context, *CallToolRequest, struct{}) (*CallToolResult, any, error) {
		return nil, nil, nil
	})
	removed := bare()
	AddTool(removed, &Tool{Name: "t"}, func(context.Context, *CallToolRequest, struct{}) (*CallToolResult, any, error) {
		return nil, nil, nil
	})
	removed.RemoveTools("t")
	withCompletion := bare()
	withCompletion.SetCompletionHandler(func(context.Context, *CompleteRequest) (*CompleteResult, error) {
		return &CompleteResult{}, nil
	})
	declared := NewServer(&Implementation{Name: "s", Version: "1"}, &ServerOptions{HasResources: true, HasPrompts: true, Tasks: true})
	for _, tc := range []struct {
		name    string
		s       *Server
		version string
		want    []capability
	}{
		{"nothing registered", bare(), Version20251125, []capability{capLogging}},
		{"a tool", withTool, Version20260728, []capability{capLogging, capTools}},
		{"a tool removed again", removed, Version20260728, []capability{capLogging}},
		{"a completion handler", withCompletion, Version20251125, []capability{capCompletions, capLogging}},
		{"declared, handshake", declared, Version20251125, []capability{capResources, capSubscribe, capPrompts, capLogging, capTasks}},
		{"declared, stateless", declared, Version20260728, []capability{capResources, capSubscribe, capPrompts, capLogging, capTasksExtension}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want capSet
			for _, x := range tc.want {
				want.add(x)
			}
			assert.Equal(t, want, tc.s.offer(tc.version))
			for x := capTools; x <= capUnknown; x <<= 1 {
				assert.Equal(t, want.has(x), tc.s.offers(tc.version, x), "capability %b", x)
			}
		})
	}
}
