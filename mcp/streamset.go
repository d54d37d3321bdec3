package mcp

// streamSet is the POST streams of a session that have answers to come,
// found by name and by the ids of their unanswered requests. A session
// whose POSTs come one at a time has at most one such stream at once: the
// set holds it without a map, so that such a session makes none per POST.
// The maps are made only while two or more streams are live, and go once
// one is left, so that an idle session holds none either. The session's
// lock guards it.
type streamSet struct {
	lone   *stream            // the only live stream; nil while there are none or several
	byName map[string]*stream // with several: every live stream by name
	byID   map[string]*stream // with several: the stream of each unanswered request id
}

// named returns the live stream named name, or nil.
func (s *streamSet) named(name string) *stream {
	if s.lone != nil {
		if s.lone.id == name {
			return s.lone
		}
		return nil
	}
	return s.byName[name]
}

// holding returns the live stream whose request id is still unanswered,
// or nil.
func (s *streamSet) holding(id string) *stream {
	if s.lone != nil {
		if s.lone.pending.contains(id) {
			return s.lone
		}
		return nil
	}
	return s.byID[id]
}

// add puts in a new stream, whose pending ids no live stream holds.
func (s *streamSet) add(st *stream) {
	switch {
	case s.lone == nil && s.byName == nil:
		s.lone = st
		return
	case s.lone != nil:
		s.byName, s.byID = map[string]*stream{}, map[string]*stream{}
		s.index(s.lone)
		s.lone = nil
	}
	s.index(st)
}

// index puts st in the maps.
func (s *streamSet) index(st *stream) {
	s.byName[st.id] = st
	st.pending.each(func(id string) { s.byID[id] = st })
}

// answered marks the request id of st answered. It reports false, doing
// nothing, when st does not hold id unanswered.
func (s *streamSet) answered(st *stream, id string) bool {
	if st == nil || s.holding(id) != st {
		return false
	}
	st.pending.remove(id)
	delete(s.byID, id)
	return true
}

// answeredAll marks every request of st answered. A lone request, the
// common case, is taken without listing the ids first.
func (s *streamSet) answeredAll(st *stream) {
	if st.pending.many == nil {
		if id := st.pending.one; id != "" {
			s.answered(st, id)
		}
		return
	}
	for _, id := range st.pending.list() {
		s.answered(st, id)
	}
}

// remove takes st out of the set, with the request ids it still holds.
// It reports false, doing nothing, when st is not in the set.
func (s *streamSet) remove(st *stream) bool {
	if s.lone == st && st != nil {
		s.lone = nil
		return true
	}
	if st == nil || s.byName[st.id] != st {
		return false
	}
	delete(s.byName, st.id)
	st.pending.each(func(id string) {
		if s.byID[id] == st {
			delete(s.byID, id)
		}
	})
	if len(s.byName) == 1 {
		for _, last := range s.byName {
			s.lone = last
		}
		s.byName, s.byID = nil, nil
	}
	return true
}

// each calls f with every live stream; f must not change the set.
func (s *streamSet) each(f func(*stream)) {
	if s.lone != nil {
		f(s.lone)
	}
	for _, st := range s.byName {
		f(st)
	}
}

// clear empties the set.
func (s *streamSet) clear() { *s = streamSet{} }
