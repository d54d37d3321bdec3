package mcp

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// The defaults of HTTPServerOptions.
const (
	// DefaultReadHeaderTimeout bounds reading a request's headers.
	DefaultReadHeaderTimeout = rpc.DefaultReadHeaderTimeout
	// DefaultIdleTimeout bounds how long a kept-alive connection may wait
	// for its next request.
	DefaultIdleTimeout = rpc.DefaultIdleTimeout
	// DefaultBodyTimeout bounds reading a POST body (HTTPOptions.BodyTimeout).
	DefaultBodyTimeout = 30 * time.Second
)

// HTTPServerOptions configure the http.Server that [ServeListener] and
// [ListenAndServe] run. The zero value gives the defaults. There is
// deliberately no whole-request read or write timeout: SSE streams live as
// long as their calls or sessions do. A body is bounded by the handler
// instead ([HTTPOptions].BodyTimeout). The server is the one rpc runs
// ([rpc.ServeListener]) without those two bounds.
type HTTPServerOptions struct {
	// ReadHeaderTimeout bounds reading the headers of a request, so a
	// client that dribbles them is cut off. 0 means 10 seconds.
	ReadHeaderTimeout time.Duration
	// IdleTimeout bounds how long a kept-alive connection waits for its
	// next request. 0 means 120 seconds.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds the size of a request's headers (the request
	// line included); larger ones get 431. 0 means 64 KiB
	// (rpc.DefaultMaxHeaderBytes).
	MaxHeaderBytes int
	// ShutdownGrace bounds how long requests in flight may take to finish
	// once the context of ServeListener ends; past it they are cancelled.
	// 0 means 10 seconds.
	ShutdownGrace time.Duration
}

// rpcOptions are the options of rpc's server that o stands for: no read
// or write timeout.
func (o *HTTPServerOptions) rpcOptions() *rpc.HTTPServerOptions {
	v := rpc.HTTPServerOptions{ReadTimeout: -1, WriteTimeout: -1}
	if o != nil {
		v.ReadHeaderTimeout, v.IdleTimeout, v.MaxHeaderBytes, v.ShutdownGrace = o.ReadHeaderTimeout, o.IdleTimeout, o.MaxHeaderBytes, o.ShutdownGrace
	}
	return &v
}

// NewHTTPServer returns an http.Server for h with the bounds of o (nil
// means the defaults), for callers that run their own server.
func NewHTTPServer(h http.Handler, o *HTTPServerOptions) *http.Server {
	return rpc.NewHTTPServer(h, o.rpcOptions())
}

// Shutdowner is a handler that can stop gracefully: a
// StreamableHTTPHandler, an rpc.HTTPHandler or an rpc.WebSocketHandler.
type Shutdowner = rpc.Shutdowner

// ServeListener serves h on ln until ctx is done, then shuts down within
// o.ShutdownGrace: the listener closes, and when h is a [Shutdowner] (a
// StreamableHTTPHandler, say) its Shutdown runs, answering the requests in
// flight and refusing new ones with 503; a handler that is only an
// io.Closer is closed. Requests still running at the end of the grace
// period are cancelled and their connections closed. It returns ctx's
// error after a shutdown, or the error that stopped serving.
func ServeListener(ctx context.Context, ln net.Listener, h http.Handler, o *HTTPServerOptions) error {
	return rpc.ServeListener(ctx, ln, h, o.rpcOptions())
}

// ListenAndServe serves h on addr with the default [HTTPServerOptions]
// until ctx is done, then shuts down as [ServeListener] does. An address
// without a host (":8080") binds 127.0.0.1, not every interface; name the
// host to listen elsewhere.
func ListenAndServe(ctx context.Context, addr string, h http.Handler) error {
	return rpc.ListenAndServe(ctx, addr, h, (*HTTPServerOptions)(nil).rpcOptions())
}
