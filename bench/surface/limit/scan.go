package limit

// scanner walks JSON text without building anything: it finds where values
// start and end and leaves their bytes where they are. It checks only what
// it needs to find its way; malformed input makes it stop with ok false.
type scanner struct {
	b  []byte
	i  int
	ok bool
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// str reads the string at s.i and returns its bytes between the quotes,
// escapes left as they are.
func (s *scanner) str() []byte {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		s.ok = false
		return nil
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch s.b[j] {
		case '\\':
			j++
		case '"':
			s.i = j + 1
			return s.b[start:j]
		}
	}
	s.ok = false
	return nil
}

// value skips the value at s.i and returns its bytes.
func (s *scanner) value() []byte {
	s.space()
	start := s.i
	if s.i >= len(s.b) {
		s.ok = false
		return nil
	}
	switch s.b[s.i] {
	case '"':
		s.str()
		return s.b[start:s.i]
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				s.str()
				if !s.ok {
					return nil
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return s.b[start:s.i]
				}
			}
			s.i++
		}
		s.ok = false
		return nil
	}
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return s.b[start:s.i]
		}
		s.i++
	}
	return s.b[start:s.i]
}

// object calls member for each member of the object at s.i with s.i at the
// member's value; member must move s.i past the value (s.value does).
func (s *scanner) object(member func(key []byte)) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		s.ok = false
		return
	}
	s.i++
	for s.ok {
		s.space()
		if s.i < len(s.b) && s.b[s.i] == '}' {
			s.i++
			return
		}
		key := s.str()
		s.space()
		if !s.ok || s.i >= len(s.b) || s.b[s.i] != ':' {
			s.ok = false
			return
		}
		s.i++
		s.space()
		member(key)
		s.space()
		if s.i >= len(s.b) {
			s.ok = false
			return
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return
		default:
			s.ok = false
		}
	}
}
