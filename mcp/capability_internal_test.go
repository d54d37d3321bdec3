package mcp

import (
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
