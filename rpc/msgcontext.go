package rpc

import (
	"context"
	"net/http"
)

// A ContextReader is a [Transport] that knows what each message arrived
// with, such as the HTTP request that carried it. A [Conn] reads through
// ReadContext when its transport has it: the handlers of the message see
// the values of the returned context (the HTTP request, an authenticated
// token, a trace context) beside the connection's own. Its cancellation
// and deadline are ignored; the connection's apply. A nil context adds
// nothing.
type ContextReader interface {
	ReadContext(ctx context.Context) (context.Context, []byte, error)
}

// WithBaseContext sets the context whose values every handler of a [Conn]
// sees (the HTTP request a WebSocket was upgraded from, say). Its
// cancellation is ignored: the connection's lifetime is its own.
func WithBaseContext(ctx context.Context) Option {
	return func(o *options) { o.base = ctx }
}

type httpRequestKey struct{}

// WithHTTPRequest returns ctx carrying r, the HTTP request a message
// arrived on, for [HTTPRequestFromContext]. The transports of this module
// set it; a transport of one's own may too.
func WithHTTPRequest(ctx context.Context, r *http.Request) context.Context {
	return &HTTPRequestContext{Context: ctx, Request: r}
}

// HTTPRequestContext is a context carrying the HTTP request a message
// arrived on, as [WithHTTPRequest] returns it: [HTTPRequestFromContext]
// finds Request in it, and every other value in Context. A transport that
// makes a context of its own for each HTTP request (to carry what it
// accounts the request by, say) may embed one in it, so that the request
// travels in that context's allocation instead of in one more.
type HTTPRequestContext struct {
	context.Context
	Request *http.Request
}

// Value answers [HTTPRequestFromContext]'s question with c.Request and
// passes every other key on to c.Context.
func (c *HTTPRequestContext) Value(key any) any {
	if key == (httpRequestKey{}) {
		return c.Request
	}
	return c.Context.Value(key)
}

// HTTPRequestFromContext returns the HTTP request the message being handled
// arrived on: the POST that carried it ([HTTPHandler], the MCP Streamable
// HTTP transport) or the request a WebSocket was upgraded from. It is nil
// on transports without HTTP, such as stdio. Its body has been read; its
// headers, RemoteAddr, TLS state and context values are what is left to
// use (rate limits per address, trace context in headers).
func HTTPRequestFromContext(ctx context.Context) *http.Request {
	r, _ := ctx.Value(httpRequestKey{}).(*http.Request)
	return r
}

// messageContext is the context a message's handlers run in when the
// transport gave the message a context of its own: the connection's
// cancellation and values, then the message's values.
type messageContext struct {
	context.Context                 // the connection's
	values          context.Context // the message's
}

// Value looks in the connection's context first, so that its own
// machinery (cancellation included) is never shadowed, then in the
// message's.
func (m messageContext) Value(key any) any {
	if v := m.Context.Value(key); v != nil {
		return v
	}
	return m.values.Value(key)
}

// withMessageValues returns the context a message with values vctx is
// handled in.
func withMessageValues(ctx, vctx context.Context) context.Context {
	if vctx == nil {
		return ctx
	}
	return messageContext{Context: ctx, values: vctx}
}
