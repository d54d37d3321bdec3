package mcp

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
)

// capSet is a set of server capabilities.
type capSet uint

func (c capSet) has(x capability) bool { return uint(c)&uint(x) != 0 }

func (c *capSet) add(x capability) { *c = capSet(uint(*c) | uint(x)) }

// offer returns the capabilities a session of version v is offered: each
// kind that is registered (or declared in the options), logging always,
// completions when a handler is set, tasks when enabled and the version
// has them.
func (s *Server) offer(v string) capSet {
	var c capSet
	c.add(capLogging)
	if s.opts.HasTools || s.tools.len() > 0 {
		c.add(capTools)
	}
	if s.opts.HasResources || s.resources.len() > 0 || s.templates.len() > 0 {
		c.add(capResources)
		c.add(capSubscribe)
	}
	if s.opts.HasPrompts || s.prompts.len() > 0 {
		c.add(capPrompts)
	}
	s.mu.Lock()
	hasComplete := s.complete != nil
	s.mu.Unlock()
	if hasComplete {
		c.add(capCompletions)
	}
	if s.opts.Tasks && featuresOf(v).tasks {
		c.add(capTasks)
	}
	return c
}

// capabilitiesJSON is the ServerCapabilities object of the initialize
// result for the offered set. Lists announce their changes.
func (c capSet) capabilitiesJSON() map[string]any {
	out := map[string]any{}
	listChanged := map[string]any{"listChanged": true}
	if c.has(capTools) {
		out["tools"] = listChanged
	}
	if c.has(capResources) {
		out["resources"] = map[string]any{"listChanged": true, "subscribe": c.has(capSubscribe)}
	}
	if c.has(capPrompts) {
		out["prompts"] = listChanged
	}
	if c.has(capCompletions) {
		out["completions"] = map[string]any{}
	}
	if c.has(capLogging) {
		out["logging"] = map[string]any{}
	}
	if c.has(capTasks) {
		out["tasks"] = map[string]any{
			"list":     map[string]any{},
			"cancel":   map[string]any{},
			"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}},
		}
	}
	return out
}
