package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/schemarpc/schemarpc/rpc"
)

// MaxPending is how many unanswered requests a Checker remembers per
// sender. Past it the oldest is forgotten, so memory stays bounded however
// long the transcript; a late answer to a forgotten request is reported as
// answering an unknown id, with a note saying requests were forgotten.
const MaxPending = 1 << 16

// maxAnswered is how many answered ids a Checker remembers per sender, to
// tell a second answer from an answer to an id never sent.
const maxAnswered = 4096

// Checker checks the messages of one conversation in order, tracking
// request ids per sender so that each response is matched with the request
// it answers and checked against that method's result schema. A Checker of
// the following set (FollowSet) also follows the conversation's MCP
// version. A Checker is not safe for concurrent use; the proxy keeps one
// per conversation and feeds it under a lock.
type Checker struct {
	set      *Set
	pending  [3]*idTable // by the side that sent the request
	answered [3]*idTable
	forgot   int    // pending requests evicted
	asked    [3]int // requests seen, by sender
	// follow is the version state of a following checker, nil otherwise.
	follow *following
}

// request is what a Checker remembers of a request.
type request struct {
	method string
	at     Position
	// sets are the versions the request was checked under.
	sets []*Set
}

// NewChecker returns a Checker with no requests pending.
func (s *Set) NewChecker() *Checker {
	c := &Checker{set: s}
	for i := range c.pending {
		c.pending[i] = newIDTable(MaxPending)
		c.answered[i] = newIDTable(maxAnswered)
	}
	if s.versions != nil {
		c.follow = &following{}
	}
	return c
}

// Pending returns how many requests are waiting for their response.
func (c *Checker) Pending() int {
	n := 0
	for _, t := range c.pending {
		n += t.len()
	}
	return n
}

// Check checks one frame — a message or a batch — sent by from and read at
// at, and returns its findings (none when it is valid). Each finding has
// the JSON pointer of the offending value in the frame and the reason.
// Feed a conversation's frames of both directions in the order they
// travelled; CheckItem also takes what the transport said about a frame.
func (c *Checker) Check(b []byte, from Direction, at Position) []Finding {
	return c.check(b, from, at, "")
}

func (c *Checker) check(b []byte, from Direction, at Position, header string) []Finding {
	f, perr := rpc.ParseFrame(b)
	if perr != nil {
		return []Finding{{Position: at, Code: perr.Code, Reason: "not JSON: " + strings.TrimPrefix(perr.Message, "parse error: "), Kind: "invalid", From: from}}
	}
	var out []Finding
	if f.Batch {
		switch sets := c.governing(); {
		case len(f.Messages) == 0:
			out = append(out, Finding{Position: at, Code: rpc.CodeInvalidRequest, Reason: "an empty batch", Kind: "batch", From: from})
		case !slices.ContainsFunc(sets, (*Set).batchesAllowed):
			out = append(out, Finding{Position: at, Code: rpc.CodeInvalidRequest, Reason: fmt.Sprintf("MCP %s has no batches (only 2025-03-26 has)", versionsText(sets)), Kind: "batch", From: from})
		}
	}
	for i := range f.Messages {
		prefix := ""
		if f.Batch {
			prefix = "/" + strconv.Itoa(i)
		}
		out = c.message(&f.Messages[i], prefix, from, at, header, out)
	}
	return out
}

// message checks one message of a frame; prefix locates it in the frame.
func (c *Checker) message(m *rpc.Message, prefix string, from Direction, at Position, header string, out []Finding) []Finding {
	switch m.Kind {
	case rpc.KindInvalid:
		kind := "invalid"
		if m.LooksLikeResponse {
			kind = "response"
			c.answer(m.ID, from) // a malformed answer still answers
		} else if !m.ID.IsNull() && !m.ID.IsZero() {
			// The peer answers a malformed call with an error under its id.
			c.remember(m.ID, from, request{at: at, sets: c.governing()})
		}
		return append(out, errorFinding(at, prefix, "", m.Invalid, kind, "", from))
	case rpc.KindRequest, rpc.KindNotification:
		return c.call(m, prefix, from, at, header, out)
	}
	return c.response(m, prefix, from, at, out)
}

// call checks a request or notification under the versions it may belong
// to: it is valid when one of them accepts it.
func (c *Checker) call(m *rpc.Message, prefix string, from Direction, at Position, header string, out []Finding) []Finding {
	req := m.Request
	n := len(out)
	sets, out := c.callSets(m, prefix, from, at, header, out)
	if from == Unknown {
		for _, s := range sets {
			if meth := s.methods[req.Method]; meth != nil {
				from = sender(meth.Direction)
				break
			}
		}
		for i := n; i < len(out); i++ {
			out[i].From = from // the version's findings were made before
		}
	}
	remember := m.Kind == rpc.KindRequest
	if remember {
		if c.set.mcp && !mcpID(req.ID) {
			out = append(out, Finding{Position: at, Pointer: prefix, Code: rpc.CodeInvalidRequest, Reason: fmt.Sprintf("MCP request ids are strings or integers, not %s", req.ID), Kind: "request", Method: req.Method, From: from})
		}
		if prev, ok := c.pending[from].get(req.ID.String()); ok {
			out = append(out, Finding{Position: at, Pointer: prefix, Code: rpc.CodeInvalidRequest, Reason: fmt.Sprintf("id %s is already used by the unanswered request at %s", req.ID, where(prev.at)), Kind: "request", Method: req.Method, From: from})
			remember = false
		}
	}
	out, accepted := callUnder(m, prefix, from, at, sets, out)
	if remember {
		if len(accepted) > 0 {
			sets = accepted // the response is checked under these
		}
		c.remember(req.ID, from, request{method: req.Method, at: at, sets: sets})
	}
	return out
}

// callUnder checks a call under each of sets and returns the findings of
// the closest when none accepts it, and the sets that accept it.
func callUnder(m *rpc.Message, prefix string, from Direction, at Position, sets []*Set, out []Finding) ([]Finding, []*Set) {
	if len(sets) == 1 {
		fs := callFindings(sets[0], m, prefix, from, at)
		if len(fs) == 0 {
			return out, sets
		}
		return append(out, fs...), nil
	}
	var accepted []*Set
	var best []Finding
	var bestSet *Set
	having := 0 // sets that have the method
	for _, s := range sets {
		has := s.methods[m.Request.Method] != nil
		if has {
			having++
		}
		fs := callFindings(s, m, prefix, from, at)
		switch {
		case len(fs) == 0:
			accepted = append(accepted, s)
		case !has:
		case bestSet == nil || weight(fs) < weight(best):
			best, bestSet = fs, s
		}
	}
	if len(accepted) > 0 {
		return out, accepted
	}
	if having == 0 {
		return append(out, Finding{Position: at, Pointer: prefix, Code: rpc.CodeMethodNotFound,
			Reason: fmt.Sprintf("method %q is in none of the MCP versions the conversation may be in (%s)", m.Request.Method, versionsText(sets)),
			Kind:   m.Kind.String(), Method: m.Request.Method, From: from}), nil
	}
	for i := range best {
		best[i].Reason += fmt.Sprintf(" (under MCP %s, the closest of the versions the conversation may be in: %s)", bestSet.version, versionsText(sets))
	}
	return append(out, best...), nil
}

// weight ranks the findings of a message under a version: fewer findings,
// then fewer violations, is closer.
func weight(fs []Finding) int {
	n := 0
	for _, f := range fs {
		n += 1<<8 + len(f.Violations)
	}
	return n
}

// callFindings checks a call against one set: its method, kind, sender and
// params.
func callFindings(s *Set, m *rpc.Message, prefix string, from Direction, at Position) []Finding {
	req := m.Request
	kind := m.Kind.String()
	var out []Finding
	finding := func(code int, reason string) {
		out = append(out, Finding{Position: at, Pointer: prefix, Code: code, Reason: reason, Kind: kind, Method: req.Method, From: from})
	}
	if s.methods == nil {
		return nil
	}
	meth := s.methods[req.Method]
	switch {
	case meth == nil:
		finding(rpc.CodeMethodNotFound, fmt.Sprintf("method %q is not in %s", req.Method, s.name))
		return out
	case meth.Notification != (m.Kind == rpc.KindNotification):
		if meth.Notification {
			finding(rpc.CodeInvalidRequest, fmt.Sprintf("%s is a notification, sent here with an id", req.Method))
		} else {
			finding(rpc.CodeInvalidRequest, fmt.Sprintf("%s is a request, sent here without an id", req.Method))
		}
	}
	if wrong := wrongSender(meth.Direction, from); wrong != "" {
		finding(rpc.CodeMethodNotFound, fmt.Sprintf("%s sent by the %s: %s", req.Method, from, wrong))
	}
	if meth.params == nil {
		return out
	}
	if meth.ParamsRequired && req.Params == nil {
		finding(rpc.CodeInvalidParams, "invalid params: params are required")
		return out
	}
	if e := req.CheckParams(meth.params, meth.structure, meth.ParamNames); e != nil {
		out = append(out, errorFinding(at, prefix, "/params", e, kind, req.Method, from))
	}
	return out
}

// response matches a response with its request and checks its result.
func (c *Checker) response(m *rpc.Message, prefix string, from Direction, at Position, out []Finding) []Finding {
	resp := m.Response
	req, sentBy, ok := c.answer(resp.ID, from)
	if from == Unknown && ok {
		from = sentBy.other()
	}
	if !ok {
		if resp.ID.IsNull() && resp.Error != nil {
			return out // the answer to a message whose id could not be read
		}
		prev, seen := c.wasAnswered(resp.ID, from)
		if !seen && !c.askedBy(from) {
			return c.lone(resp, prefix, from, at, c.governing(), out)
		}
		reason := fmt.Sprintf("a response to id %s, which no request is waiting for", resp.ID)
		if seen {
			reason = fmt.Sprintf("a second response to id %s (the request at %s was already answered)", resp.ID, where(prev.at))
		} else if c.forgot > 0 {
			reason += fmt.Sprintf(" (%d older unanswered requests were forgotten)", c.forgot)
		}
		return append(out, Finding{Position: at, Pointer: prefix + "/id", Code: rpc.CodeInvalidRequest, Reason: reason, Kind: "response", From: from})
	}
	sets := req.sets
	if c.follow != nil && req.method == "initialize" {
		sets, out = c.negotiate(resp, prefix, from, at, sets, out)
	}
	if resp.Error != nil {
		return out
	}
	var first failure
	var firstSet *Set
	for _, s := range sets {
		meth := s.methods[req.method]
		if meth == nil || len(meth.results) == 0 {
			continue
		}
		for i, sch := range meth.results {
			e := resp.CheckResult(sch, rpc.CodeInternalError)
			if e == nil {
				return out
			}
			// The method's own result (not an alternative such as a task)
			// says how close a version came.
			if i != 0 {
				continue
			}
			if f := newFailure(e); first.err == nil || f.closer(first) {
				first, firstSet = f, s
			}
		}
	}
	if first.err == nil {
		return out
	}
	f := failureFinding(at, prefix, "/result", first, "response", req.method, from)
	if len(sets) > 1 {
		f.Reason += fmt.Sprintf(" (under MCP %s, the closest of the versions its request may belong to: %s)", firstSet.version, versionsText(sets))
	}
	return append(out, f)
}

// askedBy reports whether the conversation has seen a request a response
// from the given side could answer.
func (c *Checker) askedBy(from Direction) bool {
	if from == Unknown {
		return c.asked[FromClient]+c.asked[FromServer]+c.asked[Unknown] > 0
	}
	return c.asked[from.other()]+c.asked[Unknown] > 0
}

// remember records a request as waiting for its answer.
func (c *Checker) remember(id rpc.ID, from Direction, r request) {
	c.asked[from]++
	if c.pending[from].put(id.String(), r) {
		c.forgot++
	}
}

// answer finds and removes the request a response from the given side
// answers: one the other side sent, or one whose sender is unknown. With
// the responder unknown, the earliest waiting request with the id wins.
func (c *Checker) answer(id rpc.ID, from Direction) (request, Direction, bool) {
	key := id.String()
	var sides []Direction
	switch from {
	case Unknown:
		sides = []Direction{FromClient, FromServer, Unknown}
	default:
		sides = []Direction{from.other(), Unknown}
	}
	best, bestSide, found := request{}, Unknown, false
	for _, side := range sides {
		if r, ok := c.pending[side].get(key); ok && (!found || r.at.Index < best.at.Index) {
			best, bestSide, found = r, side, true
		}
	}
	if found {
		c.pending[bestSide].remove(key)
		c.answered[bestSide].put(key, best)
	}
	return best, bestSide, found
}

// wasAnswered looks for an already answered request with the id.
func (c *Checker) wasAnswered(id rpc.ID, from Direction) (request, bool) {
	sides := []Direction{from.other(), Unknown}
	if from == Unknown {
		sides = []Direction{FromClient, FromServer, Unknown}
	}
	for _, side := range sides {
		if r, ok := c.answered[side].get(id.String()); ok {
			return r, true
		}
	}
	return request{}, false
}

// sender infers who sends a method from its direction.
func sender(direction string) Direction {
	switch direction {
	case "client-to-server":
		return FromClient
	case "server-to-client":
		return FromServer
	}
	return Unknown
}

// wrongSender says why a method may not come from the given side, or "".
func wrongSender(direction string, from Direction) string {
	switch {
	case from == FromServer && direction == "client-to-server":
		return "only clients send it, and clients do not serve it"
	case from == FromClient && direction == "server-to-client":
		return "only servers send it, and servers do not serve it"
	}
	return ""
}

// mcpID reports whether id is an MCP request id: a string or an integer.
func mcpID(id rpc.ID) bool {
	s := id.String()
	if s == "" || s == "null" {
		return false
	}
	if s[0] == '"' {
		return true
	}
	return !strings.ContainsAny(s, ".eE")
}

// where describes a position for a reason text.
func where(p Position) string {
	if p.Line > 0 {
		return fmt.Sprintf("message %d (line %d)", p.Index, p.Line)
	}
	return fmt.Sprintf("message %d", p.Index)
}

// errorFinding turns a runtime error into a finding: the pointer of its
// first violation, made relative to the message.
func errorFinding(at Position, prefix, member string, e *rpc.Error, kind, method string, from Direction) Finding {
	return failureFinding(at, prefix, member, newFailure(e), kind, method, from)
}

// failureFinding is errorFinding of an error already decoded.
func failureFinding(at Position, prefix, member string, fl failure, kind, method string, from Direction) Finding {
	f := Finding{Position: at, Pointer: prefix + member, Code: fl.err.Code, Reason: fl.err.Message, Kind: kind, Method: method, From: from}
	if vs := fl.vs; len(vs) > 0 {
		f.Pointer = prefix + member + vs[0].InstanceLocation
		f.Violations = vs
		// The pointer says where; the reason says what, and how much more.
		f.Reason = vs[0].Message
		if more := len(vs) - 1; more > 0 || fl.truncated {
			f.Reason += fmt.Sprintf(" (and %d more%s)", more, map[bool]string{true: ", not all listed"}[fl.truncated])
		}
	}
	return f
}

// Conversations keeps one Checker per conversation of a transcript, as
// named by its records' "session" member, so that ids of concurrent
// sessions do not collide. It holds at most max conversations; past that
// the least recently used is forgotten.
type Conversations struct {
	set   *Set
	max   int
	byID  map[string]*Checker
	order []string // least recently used first
}

// NewConversations returns an empty Conversations of the set.
func (s *Set) NewConversations(max int) *Conversations {
	return &Conversations{set: s, max: max, byID: map[string]*Checker{}}
}

// Checker returns the checker of the named conversation, making it on first
// use.
func (cs *Conversations) Checker(session string) *Checker {
	c, ok := cs.byID[session]
	if ok {
		for i, k := range cs.order {
			if k == session {
				cs.order = append(cs.order[:i], cs.order[i+1:]...)
				break
			}
		}
	} else {
		if len(cs.order) >= cs.max {
			delete(cs.byID, cs.order[0])
			cs.order = cs.order[1:]
		}
		c = cs.set.NewChecker()
		cs.byID[session] = c
	}
	cs.order = append(cs.order, session)
	return c
}

// CheckItem checks a message read by Read, or seen by a proxy. from is the
// sender when the item does not name one (a transcript record's "from"
// wins); a Broken item is a -32700 finding. The item's ProtocolVersion is
// the MCP-Protocol-Version header that came with it.
func (c *Checker) CheckItem(it Item, from Direction) []Finding {
	if it.From != Unknown {
		from = it.From
	}
	if it.Broken != "" {
		return []Finding{{Position: it.Position, Code: rpc.CodeParseError, Reason: it.Broken, Kind: "invalid", From: from}}
	}
	return c.check(it.Bytes, from, it.Position, it.ProtocolVersion)
}
