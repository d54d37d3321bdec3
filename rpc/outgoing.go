package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// WithOutgoing adds middleware, outermost first, around every call and
// notification a [Conn] sends with Call and Notify: the mirror of a
// [Router]'s middleware for the other direction. The Handler it wraps sends
// the message and waits for the answer. req.ID is zero for a notification;
// req.Params is the encoded params (nil when absent), which middleware may
// replace (to add trace context, say). The result is the peer's result as a
// json.RawMessage (nil for a notification); middleware may return another
// value, which is encoded. An error returned without calling next refuses
// the message: nothing is sent. Batch sends its calls as they are.
func WithOutgoing(mw ...Middleware) Option {
	return func(o *options) { o.outgoing = append(o.outgoing, mw...) }
}

// sender builds the outgoing chain of a Conn, nil when there is none.
func (c *Conn) sender(mws []Middleware) Handler {
	if len(mws) == 0 {
		return nil
	}
	var h Handler = HandlerFunc(func(ctx context.Context, req *Request) (any, error) {
		var params any
		if req.Params != nil {
			params = req.Params
		}
		if req.IsNotification() {
			return nil, c.notify(ctx, req.Method, params)
		}
		var raw json.RawMessage
		err := c.call(ctx, req.ID, req.Method, params, &raw)
		return raw, err
	})
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

// sendVia runs a call or notification through the outgoing chain.
func (c *Conn) sendVia(ctx context.Context, id ID, method string, params, result any) error {
	var raw json.RawMessage
	if params != nil {
		var buf bytes.Buffer
		if err := encodeValue(&buf, params); err != nil {
			return err
		}
		if b := buf.Bytes(); !bytes.Equal(b, []byte("null")) {
			raw = b
		}
	}
	res, err := c.outgoing.Handle(ctx, &Request{Method: method, ID: id, Params: raw})
	if err != nil || id.IsZero() || result == nil {
		return err
	}
	b, ok := res.(json.RawMessage)
	if !ok {
		if b, err = json.Marshal(res); err != nil {
			return fmt.Errorf("rpc: encoding the result an outgoing middleware returned: %w", err)
		}
	}
	if err := DecodeJSON(b, result); err != nil {
		return fmt.Errorf("rpc: decoding the result: %w", err)
	}
	return nil
}
