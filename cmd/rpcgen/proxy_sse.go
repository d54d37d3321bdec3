package main

import "bytes"

// sseParser reads a text/event-stream body that arrives in pieces and hands
// over the data of each complete message event, as an EventSource would
// dispatch it: the data lines of one event joined with newlines. Comments
// and the id and retry fields are ignored; events without data (a priming
// event) are skipped. Events of a type other than "message" (the endpoint
// event of the old HTTP+SSE transport, say) go to other, when set. An event
// still open when the stream ends is dropped, as a client drops it.
//
// Both a line and an event's data are bounded by max: past it the event is
// reported to tooLong (a message event) or dropped (any other), its bytes
// dropped as they come.
type sseParser struct {
	max     int
	event   func(data []byte)
	tooLong func()
	other   func(eventType string, data []byte)

	line     []byte
	lineOver bool // the current line has passed max
	afterCR  bool // the last byte was a CR, so a LF next ends nothing
	started  bool // past the optional byte order mark

	data     []byte
	hasData  bool
	dataOver bool   // the current event's data has passed max
	typ      string // the current event's type, "" for message
}

var utf8BOM = []byte("\xef\xbb\xbf")

// write feeds the next piece of the stream.
func (p *sseParser) write(b []byte) {
	if !p.started {
		// A stream may start with a byte order mark, which is not part
		// of the first line; it may itself arrive in pieces.
		p.line = append(p.line, b...)
		if len(p.line) < len(utf8BOM) && bytes.HasPrefix(utf8BOM, p.line) {
			return
		}
		p.started = true
		b = bytes.TrimPrefix(p.line, utf8BOM)
		p.line = nil
		if len(b) > 0 {
			b = append([]byte(nil), b...)
		}
	}
	for len(b) > 0 {
		if p.afterCR && b[0] == '\n' {
			b = b[1:]
		}
		p.afterCR = false
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			p.add(b)
			return
		}
		p.add(b[:i])
		p.afterCR = b[i] == '\r'
		p.endLine()
		b = b[i+1:]
	}
}

func (p *sseParser) add(b []byte) {
	if p.lineOver {
		return
	}
	if len(p.line)+len(b) > p.max+len("data: ") {
		// Keep the start: the field name says what the line was.
		room := max(p.max+len("data: ")-len(p.line), 0)
		p.line = append(p.line, b[:room]...)
		p.lineOver = true
		return
	}
	p.line = append(p.line, b...)
}

// endLine interprets one complete line.
func (p *sseParser) endLine() {
	line, over := p.line, p.lineOver
	p.line, p.lineOver = p.line[:0], false
	if cap(p.line) > keepCap {
		p.line = nil
	}
	if len(line) == 0 {
		p.dispatch()
		return
	}
	if line[0] == ':' {
		return // a comment
	}
	field, value, found := bytes.Cut(line, []byte(":"))
	if found && len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	switch string(field) {
	case "data":
		p.hasData = true
		if p.dataOver {
			return
		}
		if over || len(p.data)+len(value)+1 > p.max+1 {
			p.dataOver = true
			p.data = p.data[:0]
			return
		}
		p.data = append(p.data, value...)
		p.data = append(p.data, '\n')
	case "event":
		switch {
		case over:
			p.typ = "(too long)"
		case string(value) == "message":
			p.typ = ""
		default:
			p.typ = string(value)
		}
	}
}

// dispatch ends the current event.
func (p *sseParser) dispatch() {
	data := bytes.TrimSuffix(p.data, []byte("\n"))
	switch {
	case !p.hasData:
	case p.typ != "":
		if p.other != nil && !p.dataOver {
			p.other(p.typ, data)
		}
	case p.dataOver:
		p.tooLong()
	default:
		if len(bytes.TrimSpace(data)) > 0 {
			p.event(data)
		}
	}
	p.hasData, p.dataOver, p.typ = false, false, ""
	p.data = p.data[:0]
	if cap(p.data) > keepCap {
		p.data = nil
	}
}
