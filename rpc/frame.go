package rpc

import "github.com/schemarpc/schemarpc/internal/jsonscan"

// Frame is one unit of a JSON-RPC stream — a single message or a batch —
// read exactly as a connection reads it. Tools that check recorded traffic
// (rpcgen validate, rpcgen proxy) use it to reach the runtime's verdicts.
type Frame struct {
	// Batch is true when the frame was a JSON array.
	Batch bool
	// Messages are the frame's messages in order; empty for an empty batch.
	Messages []Message

	// What the parser read, kept so that a connection serving the frame
	// (Conn.ServeParsedFrame) does not read it again: the bytes, the
	// messages as the engine takes them, and the nesting limit applied.
	raw   []byte
	items []inbound
	depth int
}

// loneFrame is a Frame of one message with its message and the item the
// parser read, in one allocation: nearly every frame a server reads is one
// message. Its request is not in it: a call held long keeps its request,
// which must not keep the frame's bytes (raw) with it. The request refers
// to index, the list of its params' members, until it drops its params,
// which keep the same bytes until then.
type loneFrame struct {
	Frame
	msg   [1]Message
	item  [1]inbound
	index jsonscan.Index // the params' members (Request.IndexedParams)
}

// MessageKind says what a message of a frame is.
type MessageKind int

// The kinds of message.
const (
	// KindInvalid is a message the envelope schemas reject: Message.Invalid
	// says why.
	KindInvalid MessageKind = iota
	// KindRequest is a call that expects a response.
	KindRequest
	// KindNotification is a call without an id.
	KindNotification
	// KindResponse is an answer: a result or an error.
	KindResponse
)

// String names the kind in lower case: invalid, request, notification,
// response.
func (k MessageKind) String() string {
	switch k {
	case KindRequest:
		return "request"
	case KindNotification:
		return "notification"
	case KindResponse:
		return "response"
	}
	return "invalid"
}

// Message is one classified message of a Frame.
type Message struct {
	// Kind classifies the message.
	Kind MessageKind
	// Request is set for requests and notifications.
	Request *Request
	// Response is set for responses.
	Response *Response
	// Invalid is the -32600 error of a message the envelope rejects: the
	// error a server answers a malformed call with, or the reason a
	// malformed response is ignored.
	Invalid *Error
	// LooksLikeResponse is true for an invalid message that looked like a response
	// (it has "result" or "error" and no "method"): nobody answers it.
	LooksLikeResponse bool
	// ID is the message's id: the request's or response's own, or, for an
	// invalid message, the id an error response would carry (null when
	// it cannot be read).
	ID ID
}

// ParseFrame reads b as one frame with the strict parser and envelope
// schemas of a connection (default nesting limit). Bytes that are not one
// JSON text are a -32700 error. An empty batch is a frame with no messages;
// whether that is acceptable is the caller's decision (a server answers it
// with -32600).
func ParseFrame(b []byte) (*Frame, *Error) {
	var f *Frame
	var items []inbound
	var batch bool
	var perr *Error
	if IsBatch(b) {
		f = new(Frame)
		items, batch, perr = decodeFrame(b, DefaultMaxDepth)
		f.Messages = make([]Message, len(items))
	} else {
		lf := new(loneFrame)
		f = &lf.Frame
		items, batch, perr = decodeFrameIn(b, DefaultMaxDepth, &lf.item, nil, &lf.index)
		f.Messages = lf.msg[:len(items)]
	}
	if perr != nil {
		return nil, perr
	}
	f.Batch, f.raw, f.items, f.depth = batch, b, items, DefaultMaxDepth
	for i, it := range items {
		m := &f.Messages[i]
		switch {
		case it.req != nil:
			m.Request, m.ID = it.req, it.req.ID
			m.Kind = KindRequest
			if it.req.IsNotification() {
				m.Kind = KindNotification
			}
		case it.resp != nil:
			m.Kind, m.Response, m.ID = KindResponse, it.resp, it.resp.ID
		case it.dropped != nil:
			m.Invalid, m.ID, m.LooksLikeResponse = it.dropped, it.id, true
		default:
			m.Invalid, m.ID = it.invalid, it.id
		}
	}
	return f, nil
}

// CheckParams validates the request's params the way a Router does for a
// method registered with this schema, structure and positional names
// (by-position params are read as an object keyed by names). It returns
// nil, or the -32602 error the router would answer with.
func (r *Request) CheckParams(params *Schema, structure ParamStructure, names []string) *Error {
	m := Method{Params: params, ParamStructure: structure, ParamNames: names}
	if err := m.checkParams(r); err != nil {
		return asWireError(err)
	}
	return nil
}

// CheckResult validates a successful response's result against the schema.
// It returns nil, or an error with the given code whose data lists the
// violations like a -32602 error's (instance locations relative to the
// result). A response that carries an error has no result to check.
func (r *Response) CheckResult(result *Schema, code int) *Error {
	if r.Error != nil || result == nil {
		return nil
	}
	if validFast(result, r.Result) {
		return nil
	}
	if r.tree == nil {
		// A result built in memory is held to the strict parser's rules.
		if _, err := parse(r.Result, DefaultMaxDepth); err != nil {
			return &Error{Code: code, Message: "invalid result: " + err.Error()}
		}
	}
	if err := result.explainJSON(r.Result); err != nil {
		return validationError(code, "invalid result: ", err)
	}
	return nil
}
