package rpc

// WithFirstID makes the connection number its own calls from n+1 on
// instead of from 1. Connections that answer to one peer through a shared
// path (the replicas of one MCP session, whose responses may reach every
// replica) start far apart so that their ids do not meet. n must leave
// room for the calls to come: ids stay below 2^53 for peers that read
// them as floating-point numbers.
func WithFirstID(n int64) Option { return func(o *options) { o.firstID = n } }

// Awaits reports whether the connection is waiting for the response with
// this id to one of its calls: a response it would accept now, where any
// other is dropped as unknown.
func (c *Conn) Awaits(id ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[id]
	return ok
}
