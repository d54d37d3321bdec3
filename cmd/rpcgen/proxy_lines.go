package main

import "bytes"

// lineSplitter cuts a byte stream that arrives in pieces into lines, as
// newline-delimited JSON-RPC frames them. Each non-blank line, without its
// line ending and surrounding white space, goes to line; a line longer than
// max goes to tooLong instead, and is never held whole: past the bound its
// bytes are dropped as they come.
type lineSplitter struct {
	max     int
	line    func([]byte)
	tooLong func()

	buf  []byte
	over bool // the current line has passed max
}

// keepCap is the largest buffer kept between lines, so that one huge line
// does not pin its memory for the rest of the stream.
const keepCap = 1 << 20

// write feeds the next piece of the stream.
func (s *lineSplitter) write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.add(p)
			return
		}
		s.add(p[:i])
		s.end()
		p = p[i+1:]
	}
}

// flush ends the stream: a last line without a newline still counts.
func (s *lineSplitter) flush() {
	if len(s.buf) > 0 || s.over {
		s.end()
	}
}

func (s *lineSplitter) add(p []byte) {
	if s.over {
		return
	}
	if len(s.buf)+len(p) > s.max {
		s.over = true
		s.buf = s.buf[:0]
		return
	}
	s.buf = append(s.buf, p...)
}

// end finishes the current line.
func (s *lineSplitter) end() {
	switch {
	case s.over:
		s.tooLong()
	default:
		if line := bytes.TrimSpace(s.buf); len(line) > 0 {
			s.line(line)
		}
	}
	s.over = false
	if cap(s.buf) > keepCap {
		s.buf = nil
	} else {
		s.buf = s.buf[:0]
	}
}
