package rpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/internal/jsonwrite"
	"github.com/schemarpc/schemarpc/schema"
)

// Request is a call received from the peer: a request when ID is set, a
// notification when it is the zero ID.
type Request struct {
	// Method is the name of the method to invoke.
	Method string
	// ID identifies the request; the zero ID marks a notification.
	ID ID
	// Params holds the params as JSON, nil when absent. When the method
	// declares ParamNames, by-position params arrive here as an object.
	Params json.RawMessage

	tree    any  // Params as a validation tree, when already parsed
	hasTree bool // tree is set (a tree may legitimately be nil: JSON null)
	// recurStart and recurEnd locate in Params a value that recurs from
	// request to request (MarkRecurring); recurEnd is 0 when none is known.
	// 32 bits each, they fit beside hasTree without making a Request larger.
	recurStart, recurEnd int32
	// scanned are the params as the strict scanner accepted them with
	// their message; Params replaced since are checked in full.
	scanned json.RawMessage
	// index lists the top-level members of scanned, as the strict scanner
	// found them (IndexedParams); nil when it kept no list.
	index *jsonscan.Index
}

// IndexedParams reports how many top-level members the params have, when
// the reader that checked the request's message listed them while it did
// (see ParamsMember), so that a handler or middleware looking for a few
// of them need not walk the params again. ok is false when there is no
// such list: the params are not an object read with their message, were
// replaced since (or dropped), or have more members than the list holds;
// read Params then.
func (r *Request) IndexedParams() (n int, ok bool) {
	if r == nil || r.index == nil || !r.paramsScanned() {
		return 0, false
	}
	return r.index.Len()
}

// ParamsMember returns the i-th top-level member of the params, i below
// the count IndexedParams reports: its name as raw string content
// (between the quotes, escapes as written) and its value, both slices of
// Params that end where Params does.
func (r *Request) ParamsMember(i int) (name, value []byte) {
	return r.index.Member(r.Params[:len(r.Params):len(r.Params)], i)
}

// MarkRecurring tells the check of the request's params against its
// method's schema that the value at Params[start:end], a member's value,
// recurs from request to request (the _meta of one MCP client's requests
// is written the same on every one): the check remembers the last such
// value it found valid and steps over the same bytes when they recur,
// instead of checking them again. It applies only to params read with
// their message; an extent outside them is ignored, and a wrong one keeps
// the value from being remembered without changing any verdict.
func (r *Request) MarkRecurring(start, end int) {
	if 0 <= start && start < end && end <= len(r.Params) && end <= math.MaxInt32 {
		r.recurStart, r.recurEnd = int32(start), int32(end)
	}
}

// IsNotification reports whether the request has no id and so gets no reply.
func (r *Request) IsNotification() bool { return r.ID.IsZero() }

// DecodeParams decodes the params into v. Member names match exactly (never
// case-insensitively), so the value decoded is the value the schema checked.
// Absent params leave v untouched. A failure is a -32602 *Error.
func (r *Request) DecodeParams(v any) error {
	if len(r.Params) == 0 {
		return nil
	}
	if err := r.decodeParams(v); err != nil {
		return InvalidParams("cannot decode: " + DecodeReason(err))
	}
	return nil
}

// decodeParams is DecodeJSON(r.Params, v), which params read with their
// message skip the check of: the strict scanner has accepted them, and
// params of at most 2*membersMaxDepth bytes nest at most membersMaxDepth
// levels (a level takes two brackets), within DecodeJSON's limit whatever
// the connection's, so a CheckedUnmarshaler decodes them unchecked.
func (r *Request) decodeParams(v any) error {
	u, checked := v.(CheckedUnmarshaler)
	if !checked || !r.paramsScanned() || len(r.Params) > 2*membersMaxDepth || !directTarget(v) {
		return DecodeJSON(r.Params, v)
	}
	if err := u.UnmarshalCheckedJSON(trimSpace(r.Params)); err != nil {
		return methodError(r.Params, v, err)
	}
	return nil
}

// DropParams forgets the params, raw and parsed, once they have been
// decoded for the handler: a call that then waits long (for the peer, say)
// no longer keeps the bytes of the message it came in, which Params
// shares. Middleware that reads Params after the handler returns sees nil.
func (r *Request) DropParams() {
	r.Params, r.tree, r.hasTree, r.scanned, r.index = nil, nil, false, nil, nil
}

// paramsScanned reports whether Params are the params the strict scanner
// accepted with the request's message, not bytes set since.
func (r *Request) paramsScanned() bool {
	return len(r.Params) > 0 && len(r.Params) == len(r.scanned) && &r.Params[0] == &r.scanned[0]
}

// paramsTree returns the params as a validation tree, parsing Params if the
// request did not come off the wire.
func (r *Request) paramsTree() (any, error) {
	if r.hasTree {
		return r.tree, nil
	}
	if len(r.Params) == 0 {
		return nil, nil
	}
	t, err := parse(r.Params, DefaultMaxDepth)
	if err != nil {
		return nil, err
	}
	r.tree, r.hasTree = t, true
	return t, nil
}

// Response is the peer's answer to one of our requests.
type Response struct {
	// ID is the id of the request answered.
	ID ID
	// Result is the result as JSON; nil when Error is set.
	Result json.RawMessage
	// Error is the failure, nil on success.
	Error *Error

	tree any   // Result as a validation tree, when read off the wire
	err  error // a local failure standing in for the response (Conn.Fail)
}

// inbound is one message of a frame, classified.
type inbound struct {
	req     *Request  // a request or notification
	resp    *Response // a response
	invalid *Error    // not a valid message: answer with this error...
	id      ID        // ...and this id (null when unreadable)
	dropped *Error    // a malformed response: logged, never answered
}

// envelopes are the JSON-RPC envelope schemas from package schema, checked
// by the program compiled into envelope_program_gen.go; the library
// compiles them only to explain a message that fails.
type envelopes struct {
	request, notification, response, errorResponse *Schema
}

//go:generate go run ./internal/envprogram envelope_program_gen.go

// envelopeSchemas returns the envelope schemas, made on the first message:
// their fast validators decode from envelopeProgram, and the documents in
// schema.FS are named, not read nor listed, until a message that fails
// is explained.
var envelopeSchemas = sync.OnceValue(func() envelopes {
	base := schema.BaseURL + "jsonrpc/"
	locs := make([]string, len(envelopeFiles))
	for i, f := range envelopeFiles {
		locs[i] = base + f
	}
	set := NewSchemaSet(nil, WithFS(schema.FS, schema.BaseURL, envelopeDocuments...), WithProgram(envelopeProgram, locs...))
	return envelopes{
		request:       set.Schema(locs[0]),
		notification:  set.Schema(locs[1]),
		response:      set.Schema(locs[2]),
		errorResponse: set.Schema(locs[3]),
	}
})

// decodeFrame parses one frame: a single message or a batch. A frame that is
// not one acceptable JSON text is a -32700 error.
func decodeFrame(b []byte, maxDepth int) (items []inbound, batch bool, perr *Error) {
	return decodeFrameIn(b, maxDepth, nil, nil, nil)
}

// loneMessage holds what the parser reads of a frame of one message: the
// item served and, for a call the fast path classifies, its request. Kept
// together they cost a frame one allocation instead of two. Nothing in it
// refers to the frame's bytes but the request's params, which a call drops
// once it has decoded them (Request.DropParams): a call held long keeps
// the request, and must not keep the message with it.
type loneMessage struct {
	item  [1]inbound
	req   Request
	index jsonscan.Index // the params' members, for req (Request.IndexedParams)
}

// decodeFrameIn is decodeFrame keeping a lone message in item, and its
// request, when the fast path reads one, in req, with the list of its
// params' members in index (nil: none kept). A nil item means all three
// in a loneMessage of their own; a nil req, a request of its own.
func decodeFrameIn(b []byte, maxDepth int, item *[1]inbound, req *Request, index *jsonscan.Index) (items []inbound, batch bool, perr *Error) {
	p := parser{data: b, maxDepth: maxDepth}
	p.skipSpace()
	if p.pos >= len(b) {
		return nil, false, ParseError("empty message")
	}
	if IsBatch(b) {
		batch = true
		p.pos++
		p.skipSpace()
		if p.pos < len(b) && b[p.pos] == ']' {
			p.pos++
		} else {
			for {
				it, err := p.element(2, nil, nil)
				if err != nil {
					return nil, true, ParseError(err.Error())
				}
				items = append(items, it)
				p.skipSpace()
				if p.pos < len(b) && b[p.pos] == ',' {
					p.pos++
					p.skipSpace()
					continue
				}
				if p.pos < len(b) && b[p.pos] == ']' {
					p.pos++
					break
				}
				return nil, true, ParseError((&syntaxError{p.pos, "expected ',' or ']' in a batch"}).Error())
			}
		}
	} else {
		if item == nil {
			lone := new(loneMessage)
			item, req, index = &lone.item, &lone.req, &lone.index
		}
		it, err := p.element(1, req, index)
		if err != nil {
			return nil, false, ParseError(err.Error())
		}
		item[0] = it
		items = item[:]
	}
	if err := p.end(); err != nil {
		return nil, batch, ParseError(err.Error())
	}
	return items, batch, nil
}

// element reads one message at depth and classifies it. The strict
// scanner checks it first; the fast path classifies it from the bytes, the
// slow path from the tree it builds (whose schema errors explain). A
// request the fast path reads is kept in req when it is not nil.
func (p *parser) element(depth int, req *Request, index *jsonscan.Index) (inbound, error) {
	start := p.pos
	if depth == 1 {
		// A lone message is the whole frame (whitespace around it): its
		// check and its envelope take one pass, which lists the params'
		// members into index when there is one.
		if e, ok := scanEnvelope(p.data, p.maxDepth, index); ok {
			if it, ok := classifyEnvelope(p.data[start:], e, req); ok {
				if it.req != nil && index != nil {
					it.req.index = index
				}
				p.pos = len(p.data)
				return it, nil
			}
		}
	}
	end := jsonscan.StrictEnd(p.data, start, depth, p.maxDepth)
	if end < 0 {
		return inbound{}, p.explain(start, depth)
	}
	if p.data[start] != '{' {
		p.pos = end
		return inbound{invalid: InvalidRequest("a message must be a JSON object"), id: NullID()}, nil
	}
	if it, ok := classifyScanned(p.data[start:end], req); ok {
		p.pos = end
		return it, nil
	}
	obj, members, ok := p.object(depth, true)
	if !ok {
		return inbound{}, p.explain(start, depth)
	}
	return classify(p.data, p.data[start:p.pos], obj, members), nil
}

// classify checks a message object against the envelope schemas: its
// kind is Envelope.Kind of its members, as on the fast path. data is the
// frame the members point into, msg the object's own text.
func classify(data, msg []byte, obj map[string]any, members []member) inbound {
	var e Envelope
	var idTree, paramsTree, resultTree any
	for _, m := range members {
		v := json.RawMessage(data[m.val.start:m.val.end])
		switch m.key {
		case "id":
			e.ID, idTree = v, m.tree
		case "method":
			e.Method = v
		case "params":
			e.Params, paramsTree = v, m.tree
		case "result":
			e.Result, resultTree = v, m.tree
		case "error":
			e.Error = v
		}
	}
	replyID := NullID()
	if e.ID != nil {
		switch idTree.(type) {
		case string, json.Number, nil:
			replyID = ID{raw: string(e.ID)}
		}
	}
	env := envelopeSchemas()
	switch kind := e.Kind(); kind {
	case KindRequest, KindNotification:
		sch := env.notification
		if kind == KindRequest {
			sch = env.request
		}
		if err := sch.explainJSON(msg); err != nil {
			return inbound{invalid: validationError(CodeInvalidRequest, "invalid request: ", err), id: replyID}
		}
		req := &Request{Method: obj["method"].(string)}
		if kind == KindRequest {
			req.ID = replyID
		}
		if e.Params != nil {
			req.Params, req.scanned = e.Params, e.Params
			req.tree, req.hasTree = paramsTree, true
		}
		return inbound{req: req}
	case KindResponse:
		sch := env.response
		if e.Error != nil {
			sch = env.errorResponse
		}
		if err := sch.explainJSON(msg); err != nil {
			return inbound{dropped: validationError(CodeInvalidRequest, "invalid response: ", err), id: replyID}
		}
		resp := &Response{ID: replyID}
		if e.Result != nil {
			resp.Result = e.Result
			resp.tree = resultTree
		} else {
			// Decoded from the raw bytes, so data keeps its exact text.
			var er Error
			if err := DecodeJSON(e.Error, &er); err != nil {
				return inbound{dropped: InvalidRequest("invalid response: error: " + err.Error()), id: replyID}
			}
			resp.Error = &er
		}
		return inbound{resp: resp}
	default:
		// Neither a call nor a response: report it as a call missing its method.
		err := env.request.explainJSON(msg)
		if err == nil {
			return inbound{invalid: InvalidRequest("missing method"), id: replyID}
		}
		return inbound{invalid: validationError(CodeInvalidRequest, "invalid request: ", err), id: replyID}
	}
}

// encodeResponse renders a response for id carrying result or err, the
// error's echoes of the peer's input bounded (BoundError).
func encodeResponse(id ID, result any, err *Error) ([]byte, error) {
	b := make([]byte, 0, messageBufferSize)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id.IsZero() {
		b = append(b, "null"...)
	} else {
		b = append(b, id.raw...)
	}
	var e error
	if err != nil {
		b = append(b, `,"error":`...)
		b, e = appendValue(b, err.bounded())
	} else {
		b = append(b, `,"result":`...)
		b, e = appendValue(b, result)
	}
	if e != nil {
		return nil, e
	}
	return append(b, '}'), nil
}

// messageBufferSize is the room a message's buffer starts with: enough for
// a small response, such as a tool's short text result, in one allocation.
const messageBufferSize = 256

// EncodeNotification renders a notification as [Conn.Notify] sends it, for
// a transport that writes its messages itself (an SSE stream, say).
func EncodeNotification(method string, params any) ([]byte, error) {
	return encodeRequest(ID{}, method, params)
}

// encodeRequest renders a request (or, with the zero id, a notification).
func encodeRequest(id ID, method string, params any) ([]byte, error) {
	b := make([]byte, 0, messageBufferSize)
	b = append(b, `{"jsonrpc":"2.0",`...)
	if !id.IsZero() {
		b = append(b, `"id":`...)
		b = append(b, id.raw...)
		b = append(b, ',')
	}
	b = append(b, `"method":`...)
	b = jsonwrite.String(b, method)
	if params != nil {
		const key = `,"params":`
		start := len(b) + len(key)
		b = append(b, key...)
		var err error
		if b, err = appendValue(b, params); err != nil {
			return nil, err
		}
		switch c := b[start]; c {
		case '{', '[':
		case 'n': // params that encode as null are left out
			b = b[:start-len(key)]
		default:
			return nil, fmt.Errorf("rpc: params must encode as a JSON object or array, not %q", c)
		}
	}
	return append(b, '}'), nil
}

// encodeValue appends v to buf as appendValue does.
func encodeValue(buf *bytes.Buffer, v any) error {
	b, err := appendValue(buf.AvailableBuffer(), v)
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// appendValue appends v as compact JSON without HTML escaping. Raw JSON is
// compacted, never re-encoded, so numbers keep their exact text; a
// JSONAppender (every generated type) writes itself.
func appendValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case json.RawMessage:
		if len(x) == 0 {
			return append(b, "null"...), nil
		}
		return jsonwrite.Raw(b, x)
	}
	return AppendJSONValue(b, v)
}
