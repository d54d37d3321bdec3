package mcp

import (
	"bytes"
	"fmt"
	"io"

	"github.com/schemarpc/schemarpc/internal/sse"
	"github.com/schemarpc/schemarpc/rpc"
)

// sseReader reads the blocks of a text/event-stream body one at a time,
// with the parser of internal/sse. A block whose data or a line of which
// (a comment too) passes max bytes ends the stream with an error matching
// rpc.ErrMessageTooLarge, as soon as it passes.
type sseReader struct {
	r      io.Reader
	max    int
	parser *sse.Parser
	buf    []byte
	queue  []sse.Event // blocks parsed and not yet returned
	err    error
}

// newSSEReader returns a reader of r's blocks bounded by max bytes each.
func newSSEReader(r io.Reader, max int) *sseReader {
	s := &sseReader{r: r, max: max, buf: make([]byte, 4096)}
	s.parser = sse.NewParser(max, func(e *sse.Event) {
		ev := *e
		ev.Data = bytes.Clone(e.Data)
		s.queue = append(s.queue, ev)
	})
	return s
}

// next returns the next block with at least one field. At the end of the
// body it returns io.EOF (or the body's error); an unfinished block there
// is dropped, as the event-stream format says.
func (s *sseReader) next() (sse.Event, error) {
	for {
		if len(s.queue) > 0 {
			ev := s.queue[0]
			s.queue = s.queue[1:]
			if ev.TooLong {
				return sse.Event{}, s.tooLarge()
			}
			return ev, nil
		}
		if s.err != nil {
			return sse.Event{}, s.err
		}
		if s.parser.Overflowed() {
			return sse.Event{}, s.tooLarge()
		}
		n, err := s.r.Read(s.buf)
		_, _ = s.parser.Write(s.buf[:n])
		if err != nil {
			s.err = err
		}
	}
}

// tooLarge ends the stream with the error of a block over the bound.
func (s *sseReader) tooLarge() error {
	s.queue = nil
	s.err = fmt.Errorf("mcp: an event of the server's stream is too large: %w", &rpc.MessageTooLargeError{Limit: s.max})
	return s.err
}
