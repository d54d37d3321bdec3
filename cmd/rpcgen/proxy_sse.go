package main

import "github.com/schemarpc/schemarpc/internal/sse"

// sseParser reads a text/event-stream body that arrives in pieces and hands
// over the data of each complete message event, as an EventSource would
// dispatch it: the data lines of one event joined with newlines. Comments
// and the id and retry fields are ignored; events without data (a priming
// event) are skipped. Events of a type other than "message" (the endpoint
// event of the old HTTP+SSE transport, say) go to other, when set. An event
// still open when the stream ends is dropped, as a client drops it.
//
// Both a line and an event's data are bounded by max: an event with a line
// (a comment too) or data past it is reported to tooLong (a message event)
// or dropped (any other), its bytes dropped as they come. The parsing is
// internal/sse's, which the client's transports use too.
type sseParser struct {
	max     int
	event   func(data []byte)
	tooLong func()
	other   func(eventType string, data []byte)

	parser *sse.Parser // made on the first write
}

// write feeds the next piece of the stream.
func (p *sseParser) write(b []byte) {
	if p.parser == nil {
		p.parser = sse.NewParser(p.max, p.dispatch)
	}
	_, _ = p.parser.Write(b)
}

// dispatch routes one block of the stream.
func (p *sseParser) dispatch(e *sse.Event) {
	switch {
	case !e.HasData:
	case !e.OfTypeMessage():
		if p.other != nil && !e.TooLong {
			p.other(e.Type, e.Data)
		}
	case e.TooLong:
		p.tooLong()
	case e.IsMessage():
		p.event(e.Data)
	}
}
