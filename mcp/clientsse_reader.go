package mcp

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// sseRecord is one block of an event stream, up to the blank line that
// ends it, as the client's transports read it.
type sseRecord struct {
	// event is the event type; "" stands for "message".
	event string
	// data is the data lines joined with line feeds.
	data []byte
	// dispatch is true when the block had a data field: only then is it an
	// event for the page (a block with an id alone moves the cursor).
	dispatch bool
	// id is the block's id field, when hasID.
	id    string
	hasID bool
	// retry is the reconnection delay the block sets; 0 when it sets none.
	retry time.Duration
}

// isMessage reports whether the record carries a JSON-RPC message: a
// "message" event (the default type) with something in its data.
func (r *sseRecord) isMessage() bool {
	return r.dispatch && (r.event == "" || r.event == "message") && len(bytes.TrimSpace(r.data)) > 0
}

// sseReader reads the blocks of a text/event-stream body. Lines may end in
// CR, LF or CRLF, also split across reads; comments (keep-alives) are
// skipped. A block larger than max bytes ends the stream with an error
// matching rpc.ErrMessageTooLarge.
type sseReader struct {
	r          io.Reader
	max        int
	buf        []byte
	start, end int  // the unread part of buf
	skipLF     bool // the last line ended with CR: a LF next belongs to it
	err        error
}

// newSSEReader returns a reader of r's blocks bounded by max bytes each.
func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{r: r, max: max, buf: make([]byte, min(4096, max+2))}
}

// next returns the next block with at least one field. At the end of the
// body it returns io.EOF (or the body's error); an unfinished block there
// is dropped, as the event-stream format says.
func (s *sseReader) next() (sseRecord, error) {
	var rec sseRecord
	var data bytes.Buffer
	seen, size := false, 0
	for {
		line, err := s.line()
		if err != nil {
			return sseRecord{}, err
		}
		if len(line) == 0 {
			if !seen {
				continue
			}
			rec.data = data.Bytes()
			if rec.dispatch && len(rec.data) > 0 && rec.data[len(rec.data)-1] == '\n' {
				rec.data = rec.data[:len(rec.data)-1]
			}
			return rec, nil
		}
		if size += len(line) + 1; size > s.max {
			return sseRecord{}, s.tooLarge()
		}
		if line[0] == ':' {
			continue
		}
		seen = true
		name, value, found := bytes.Cut(line, []byte(":"))
		if found && len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(name) {
		case "event":
			rec.event = string(value)
		case "data":
			rec.dispatch = true
			data.Write(value)
			data.WriteByte('\n')
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				rec.id, rec.hasID = string(value), true
			}
		case "retry":
			if ms, err := strconv.ParseUint(string(value), 10, 31); err == nil && isDigits(value) {
				rec.retry = time.Duration(ms) * time.Millisecond
			}
		}
	}
}

// tooLarge is the error of a block over the bound.
func (s *sseReader) tooLarge() error {
	s.err = fmt.Errorf("mcp: an event of the server's stream is too large: %w", &rpc.MessageTooLargeError{Limit: s.max})
	return s.err
}

// line returns the next line without its ending; it is valid until the
// next call.
func (s *sseReader) line() ([]byte, error) {
	for {
		if s.skipLF && s.start < s.end {
			if s.buf[s.start] == '\n' {
				s.start++
			}
			s.skipLF = false
		}
		if i := bytes.IndexAny(s.buf[s.start:s.end], "\r\n"); i >= 0 {
			line := s.buf[s.start : s.start+i]
			s.skipLF = s.buf[s.start+i] == '\r'
			s.start += i + 1
			return line, nil
		}
		if s.err != nil {
			return nil, s.err
		}
		if s.end-s.start > s.max {
			return nil, s.tooLarge()
		}
		if s.start > 0 {
			s.end = copy(s.buf, s.buf[s.start:s.end])
			s.start = 0
		}
		if s.end == len(s.buf) {
			s.buf = append(s.buf, make([]byte, min(len(s.buf), s.max+2-len(s.buf))+1)...)
		}
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.err = err
		}
	}
}

// isDigits reports whether b is one or more ASCII digits.
func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}
