package jsonscan

// Members steps through the members of one JSON object while checking it
// as Strict does, so that a caller who needs both the check and the
// members reads the text once. The members before a fault are handed out
// before the fault is found: a caller that must not act on a faulty
// object finishes the check with Rest before it reports anything.
type Members struct {
	p       strict
	names   nameSet
	started bool
	state   membersState
	// indexName and index: see Indexing.
	indexName string
	index     *Index
}

// membersState is where a Members is in its walk.
type membersState uint8

const (
	membersStepping membersState = iota
	membersDone                  // the closing brace and the end of the text were reached cleanly
	membersBad                   // the text is not one object Strict accepts
)

// NewMembers starts stepping through data, which must hold one JSON object
// (whitespace around it allowed) nested at most maxDepth levels deep; ok is
// false when it does not start with '{' (null included) or maxDepth is
// below one.
func NewMembers(data []byte, maxDepth int) (m Members, ok bool) {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' || maxDepth < 1 {
		return Members{state: membersBad}, false
	}
	return Members{p: strict{data: data, pos: i + 1, maxDepth: maxDepth}}, true
}

// Knowing tells the walk one value the text may hold, so that where an
// object within a member's value is those bytes, it is stepped over as
// checked instead of being scanned: known must be an object that Strict
// accepts, nesting depth levels (Depth). A caller that has checked a
// value before (the _meta every request of one client repeats) skips it
// this way. The verdict is Strict's; given anything else, it means
// nothing.
func (m *Members) Knowing(known []byte, depth int) {
	if len(known) > 0 && known[0] == '{' && depth > 0 {
		m.p.known, m.p.knownDepth = known, depth
	}
}

// Indexing asks the walk to record, into x, the members of the value of
// the member named name when that value is an object (see Index): the
// params of a JSON-RPC message, which later readers then find without
// walking them again. x is left incomplete when no such object is met.
func (m *Members) Indexing(name string, x *Index) {
	m.indexName, m.index = name, x
	x.n, x.complete = 0, false
}

// Next checks the next member and returns it: its name as raw string
// content (between the quotes, escapes left as written), whether the name
// has escapes, and the value's bytes, which Strict's rules hold for. ok is
// false at the end of the object or at the first fault; Err tells which.
func (m *Members) Next() (name []byte, escaped bool, value []byte, ok bool) {
	if m.state != membersStepping {
		return nil, false, nil, false
	}
	p := &m.p
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' && !m.started {
		return m.close()
	}
	if m.started {
		if p.pos >= len(p.data) {
			return m.fail()
		}
		switch p.data[p.pos] {
		case '}':
			return m.close()
		case ',':
			p.pos++
			p.skipSpace()
		default:
			return m.fail()
		}
	}
	m.started = true
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return m.fail()
	}
	start := p.pos + 1
	esc, ok := p.skipStr()
	if !ok {
		return m.fail()
	}
	key := span{start, p.pos - 1}
	if !m.names.add(p, key, esc) {
		return m.fail()
	}
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return m.fail()
	}
	p.pos++
	p.skipSpace()
	vstart := p.pos
	if m.index != nil && vstart < len(p.data) && p.data[vstart] == '{' && NameIs(p.data[key.start:key.end], m.indexName) {
		p.index, m.index = m.index, nil // skipObject takes it; any other value leaves it unused
	}
	ok = p.skip(2)
	p.index = nil
	if !ok {
		return m.fail()
	}
	return p.data[key.start:key.end], esc, p.data[vstart:p.pos], true
}

// close ends the walk at the object's closing brace, which must be
// followed by nothing but whitespace.
func (m *Members) close() ([]byte, bool, []byte, bool) {
	m.p.pos++
	if SkipSpace(m.p.data, m.p.pos) != len(m.p.data) {
		return m.fail()
	}
	m.state = membersDone
	return nil, false, nil, false
}

func (m *Members) fail() ([]byte, bool, []byte, bool) {
	m.state = membersBad
	return nil, false, nil, false
}

// Err reports whether the walk stopped on a fault rather than at the end
// of the object.
func (m *Members) Err() bool { return m.state == membersBad }

// Rest checks the members not yet handed out, without handing them out,
// and reports whether the whole text is one object Strict accepts.
func (m *Members) Rest() bool {
	for {
		if _, _, _, ok := m.Next(); !ok {
			return m.state == membersDone
		}
	}
}
