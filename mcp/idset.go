package mcp

// idSet is a set of request ids: the requests of one POST that are not
// answered yet. Nearly every POST carries one request, whose id it holds
// without a map; a batch's ids go in a map. An id is the JSON text of a
// request id, never empty, so an empty one means none.
type idSet struct {
	one  string          // an id in the set, or ""
	many map[string]bool // the ids besides one
}

// add puts id in the set and reports whether it was not in it already.
func (s *idSet) add(id string) bool {
	if s.contains(id) {
		return false
	}
	if s.one == "" && len(s.many) == 0 {
		s.one = id
		return true
	}
	if s.many == nil {
		s.many = map[string]bool{}
	}
	s.many[id] = true
	return true
}

// remove takes id out of the set.
func (s *idSet) remove(id string) {
	if s.one != "" && s.one == id {
		s.one = ""
		return
	}
	delete(s.many, id)
}

// len is the number of ids in the set.
func (s *idSet) len() int {
	n := len(s.many)
	if s.one != "" {
		n++
	}
	return n
}

// list returns the ids in the set, in no particular order.
func (s *idSet) list() []string {
	ids := make([]string, 0, s.len())
	s.each(func(id string) { ids = append(ids, id) })
	return ids
}

// contains reports whether id is in the set.
func (s *idSet) contains(id string) bool {
	return s.one != "" && s.one == id || s.many[id]
}

// each calls f with every id in the set, in no particular order; f must
// not change the set.
func (s *idSet) each(f func(id string)) {
	if s.one != "" {
		f(s.one)
	}
	for id := range s.many {
		f(id)
	}
}
