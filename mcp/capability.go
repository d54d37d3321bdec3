package mcp

import (
	"encoding/json"
	"slices"

	"github.com/schemarpc/schemarpc/rpc"
)

// capability is one server capability a method can depend on.
type capability uint

const (
	capTools capability = 1 << iota
	capResources
	capSubscribe
	capPrompts
	capCompletions
	capLogging
	capTasks
	capTasksExtension // the 2026-07-28 tasks extension
	capUnknown        // a capability the schema names that the server never offers
)

// capabilityOf returns the capability that gates a method, as its schema
// declares it (the x-capability member of its entry in the method index:
// the name of a member of ServerCapabilities, "resources.subscribe" for
// the subscriptions of resources, or an extension's name); 0 for a method
// served whatever the server offers.
func capabilityOf(f rpc.MethodFacts) capability {
	name, _ := f.Extension("x-capability")
	switch name {
	case "":
		return 0
	case `"tools"`:
		return capTools
	case `"resources"`:
		return capResources
	case `"resources.subscribe"`:
		return capSubscribe
	case `"prompts"`:
		return capPrompts
	case `"completions"`:
		return capCompletions
	case `"logging"`:
		return capLogging
	case `"tasks"`:
		return capTasks
	case `"` + extensionTasks + `"`:
		return capTasksExtension
	}
	// A capability this server does not know: it offers none such.
	return capUnknown
}

// capSet is a set of server capabilities.
type capSet uint

func (c capSet) has(x capability) bool { return uint(c)&uint(x) != 0 }

func (c *capSet) add(x capability) { *c = capSet(uint(*c) | uint(x)) }

// offer returns the capabilities a session of version v is offered: each
// one offers says it is.
func (s *Server) offer(v string) capSet {
	var c capSet
	for x := capTools; x < capUnknown; x <<= 1 {
		if s.offers(v, x) {
			c.add(x)
		}
	}
	return c
}

// offers reports whether a session of version v is offered capability x:
// each kind that is registered (or declared in the options), logging
// always, completions when a handler is set, tasks when enabled: as the
// core capability of the versions that have it, as the tasks extension in
// the stateless ones. A request that needs one capability asks for it
// alone, without the locks the others take.
func (s *Server) offers(v string, x capability) bool {
	switch x {
	case capLogging:
		return true
	case capTools:
		return s.opts.HasTools || s.tools.len() > 0
	case capResources, capSubscribe:
		return s.opts.HasResources || s.resources.len() > 0 || s.templates.len() > 0
	case capPrompts:
		return s.opts.HasPrompts || s.prompts.len() > 0
	case capCompletions:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.complete != nil
	case capTasks:
		return s.opts.Tasks && featuresOf(v).tasks
	case capTasksExtension:
		return s.opts.Tasks && slices.Contains(StatelessVersions(), v)
	}
	return false
}

// capabilities is the ServerCapabilities object of the initialize result
// for the offered set, in the shape of a version with features f. Every
// list announces its changes. Before 2025-03-26 completion/complete has no
// capability: a session of 2024-11-05 is served it without one announced.
func (c capSet) capabilities(f features) ServerCapabilities {
	yes := true
	empty := func() map[string]json.RawMessage { return map[string]json.RawMessage{} }
	var out ServerCapabilities
	if c.has(capTools) {
		out.Tools = &ServerCapabilitiesTools{ListChanged: &yes}
	}
	if c.has(capResources) {
		sub := c.has(capSubscribe)
		out.Resources = &ServerCapabilitiesResources{ListChanged: &yes, Subscribe: &sub}
	}
	if c.has(capPrompts) {
		out.Prompts = &ServerCapabilitiesPrompts{ListChanged: &yes}
	}
	if c.has(capCompletions) && f.completions {
		out.Completions = empty()
	}
	if c.has(capLogging) {
		out.Logging = empty()
	}
	if c.has(capTasks) {
		out.Tasks = &ServerCapabilitiesTasks{
			List:   empty(),
			Cancel: empty(),
			Requests: &ServerCapabilitiesTasksRequests{
				Tools: &ServerCapabilitiesTasksRequestsTools{Call: empty()},
			},
		}
	}
	if c.has(capTasksExtension) {
		out.Extra = map[string]json.RawMessage{"extensions": rawJSON(map[string]any{extensionTasks: map[string]any{}})}
	}
	return out
}
