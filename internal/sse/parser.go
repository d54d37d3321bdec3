// Package sse reads the text/event-stream format (server-sent events) as
// it arrives: the client's HTTP transports and the proxy of cmd/rpcgen
// both feed it the bytes of a response body and get its blocks back.
package sse

import (
	"bytes"
	"strconv"
	"time"
)

// Event is one block of an event stream, up to the blank line that ends it.
type Event struct {
	// Type is the block's event field; "" when it has none.
	Type string
	// Data is the block's data lines joined with line feeds; empty when
	// TooLong. What the parser hands over is valid during the call only.
	Data []byte
	// HasData is true when the block had a data field: only then is it an
	// event to dispatch (a block with an id alone moves the cursor).
	HasData bool
	// ID is the block's id field, when HasID.
	ID    string
	HasID bool
	// Retry is the reconnection delay the block sets; 0 when it sets none.
	Retry time.Duration
	// TooLong is true when a line of the block (a comment too) or its data
	// passed the parser's bound; the data was then dropped.
	TooLong bool
}

// OfTypeMessage reports whether e is of the "message" type, the default.
func (e *Event) OfTypeMessage() bool { return e.Type == "" || e.Type == "message" }

// IsMessage reports whether e is a message event with something other
// than white space in its data: what a JSON-RPC stream carries.
func (e *Event) IsMessage() bool {
	return e.HasData && e.OfTypeMessage() && len(bytes.TrimSpace(e.Data)) > 0
}

// keepCap is the largest buffer kept from one block to the next, so that
// one huge event does not pin its memory for the rest of the stream.
const keepCap = 1 << 20

// fieldRoom is what a line may hold past the bound on data: the field
// name that says what the line is.
const fieldRoom = len("data: ")

var utf8BOM = []byte("\xef\xbb\xbf")

// Parser splits a stream fed in pieces of any size into its blocks. Lines
// may end in CR, LF or CRLF (a CRLF split across pieces too); a byte order
// mark at the start is dropped; comments are skipped. An event's data is
// bounded by max bytes and a line by max plus a field name: past that the
// block's bytes are dropped as they come and the block is handed over with
// TooLong set. A block still open when the stream ends is never handed
// over, as the format says.
type Parser struct {
	max  int
	emit func(*Event)

	started  bool   // past the optional byte order mark
	line     []byte // the current line, up to the bound
	lineOver bool   // the current line has passed the bound
	afterCR  bool   // the last byte was a CR, so a LF next ends nothing

	ev   Event // the block being read; its data has a LF after each line
	seen bool  // the block has a field, or passed the bound
}

// NewParser returns a parser bounded by max that hands each complete block
// with at least one field (or past the bound) to emit.
func NewParser(max int, emit func(*Event)) *Parser {
	return &Parser{max: max, emit: emit}
}

// Write feeds the next piece of the stream, calling emit for each block it
// completes. It never fails: it is an io.Writer so that a body can be
// teed into it.
func (p *Parser) Write(b []byte) (int, error) {
	n := len(b)
	if !p.started {
		// The mark may itself arrive in pieces.
		p.line = append(p.line, b...)
		if len(p.line) < len(utf8BOM) && bytes.HasPrefix(utf8BOM, p.line) {
			return n, nil
		}
		p.started = true
		b = bytes.Clone(bytes.TrimPrefix(p.line, utf8BOM))
		p.line = p.line[:0]
	}
	for len(b) > 0 {
		if p.afterCR && b[0] == '\n' {
			b = b[1:]
		}
		p.afterCR = false
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			p.add(b)
			break
		}
		p.add(b[:i])
		p.afterCR = b[i] == '\r'
		p.endLine()
		b = b[i+1:]
	}
	return n, nil
}

// Overflowed reports whether the block still being read has already
// passed the bound: a reader that gives up on such a block need not wait
// for its end.
func (p *Parser) Overflowed() bool { return p.ev.TooLong || p.lineOver }

// add appends a piece of the current line, keeping at most the bound.
func (p *Parser) add(b []byte) {
	if p.lineOver {
		return
	}
	if room := p.max + fieldRoom - len(p.line); len(b) > room {
		p.line = append(p.line, b[:max(room, 0)]...)
		p.lineOver = true
		return
	}
	p.line = append(p.line, b...)
}

// endLine interprets one complete line.
func (p *Parser) endLine() {
	line, over := p.line, p.lineOver
	p.line, p.lineOver = p.line[:0], false
	if cap(p.line) > keepCap {
		p.line = nil
	}
	if len(line) == 0 {
		p.dispatch()
		return
	}
	field, value, found := bytes.Cut(line, []byte(":"))
	if found && len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	if over {
		p.seen = true
		p.overflow()
		p.ev.HasData = p.ev.HasData || string(field) == "data"
		return
	}
	if line[0] == ':' {
		return // a comment
	}
	p.seen = true
	switch string(field) {
	case "event":
		p.ev.Type = string(value)
	case "data":
		p.ev.HasData = true
		switch {
		case p.ev.TooLong:
		case len(p.ev.Data)+len(value) > p.max:
			p.overflow()
		default:
			p.ev.Data = append(p.ev.Data, value...)
			p.ev.Data = append(p.ev.Data, '\n')
		}
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.ev.ID, p.ev.HasID = string(value), true
		}
	case "retry":
		if ms, err := strconv.ParseUint(string(value), 10, 31); err == nil {
			p.ev.Retry = time.Duration(ms) * time.Millisecond
		}
	}
}

// overflow marks the block as past the bound and drops its data.
func (p *Parser) overflow() {
	p.ev.TooLong = true
	p.ev.Data = p.ev.Data[:0]
}

// dispatch ends the current block, handing it over when it has something.
func (p *Parser) dispatch() {
	if p.seen {
		data := p.ev.Data
		p.ev.Data = bytes.TrimSuffix(data, []byte("\n"))
		p.emit(&p.ev)
		p.ev.Data = data
	}
	data := p.ev.Data[:0]
	if cap(data) > keepCap {
		data = nil
	}
	p.ev, p.seen = Event{Data: data}, false
}
