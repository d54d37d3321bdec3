package mcp

// callsInFlight is the requests of a session being served, by id, so that
// notifications/cancelled can reach them. A session whose client sends one
// call at a time has at most one in flight: it is held without a map, so
// that such a session makes none per call. The map is made only while two
// or more are in flight, and goes once one is left, so that an idle
// session holds none. The session's lock guards it.
type callsInFlight struct {
	lone *requestContext            // the only request in flight; nil while there are none or several
	byID map[string]*requestContext // with several: every one of them
}

// get returns the request in flight with this id, or nil.
func (c *callsInFlight) get(id string) *requestContext {
	if c.lone != nil {
		if c.lone.id.String() == id {
			return c.lone
		}
		return nil
	}
	return c.byID[id]
}

// put registers rc under its id, in place of any request registered
// under the same id.
func (c *callsInFlight) put(rc *requestContext) {
	id := rc.id.String()
	switch {
	case c.byID != nil:
	case c.lone == nil || c.lone.id.String() == id:
		c.lone = rc
		return
	default:
		c.byID = map[string]*requestContext{c.lone.id.String(): c.lone}
		c.lone = nil
	}
	c.byID[id] = rc
}

// remove unregisters rc, if it is the request registered under its id.
func (c *callsInFlight) remove(rc *requestContext) {
	if c.lone == rc {
		c.lone = nil
		return
	}
	id := rc.id.String()
	if c.byID == nil || c.byID[id] != rc {
		return
	}
	delete(c.byID, id)
	if len(c.byID) == 1 {
		for _, last := range c.byID {
			c.lone = last
		}
		c.byID = nil
	}
}

// all returns the requests in flight.
func (c *callsInFlight) all() []*requestContext {
	if c.lone != nil {
		return []*requestContext{c.lone}
	}
	calls := make([]*requestContext, 0, len(c.byID))
	for _, rc := range c.byID {
		calls = append(calls, rc)
	}
	return calls
}
