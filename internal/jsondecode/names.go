package jsondecode

// maxListedNames is how many member names of one object are compared in
// place before they move to a set.
const maxListedNames = 16

// nameSet holds the member names of one object read so far, as spans of
// the input, to find a repeated one; past maxListedNames they move to a
// map of decoded names.
type nameSet struct {
	spans []nameSpan
	set   map[string]struct{}
}

// nameSpan is a raw member name: data[start:end], escaped when it has
// escape sequences.
type nameSpan struct {
	start, end int
	escaped    bool
}

func (s *nameSet) reset() {
	s.spans = s.spans[:0]
	s.set = nil
}

// add records the name data[start:end], reporting false when the object
// already has a member of that name.
func (s *nameSet) add(data []byte, start, end int, escaped bool) bool {
	n := nameSpan{start, end, escaped}
	if s.set != nil {
		return addDecoded(s.set, data, n)
	}
	if len(s.spans) < maxListedNames {
		for _, m := range s.spans {
			if sameName(data, m, n) {
				return false
			}
		}
		s.spans = append(s.spans, n)
		return true
	}
	s.set = make(map[string]struct{}, 2*maxListedNames)
	for _, m := range s.spans {
		addDecoded(s.set, data, m)
	}
	return addDecoded(s.set, data, n)
}

func sameName(data []byte, a, b nameSpan) bool {
	if !a.escaped && !b.escaped {
		return string(data[a.start:a.end]) == string(data[b.start:b.end])
	}
	return decodeName(data[a.start:a.end], a.escaped) == decodeName(data[b.start:b.end], b.escaped)
}

func addDecoded(set map[string]struct{}, data []byte, n nameSpan) bool {
	name := decodeName(data[n.start:n.end], n.escaped)
	if _, dup := set[name]; dup {
		return false
	}
	set[name] = struct{}{}
	return true
}
