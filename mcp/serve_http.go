package mcp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// The defaults of HTTPServerOptions.
const (
	// DefaultReadHeaderTimeout bounds reading a request's headers.
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultIdleTimeout bounds how long a kept-alive connection may wait
	// for its next request.
	DefaultIdleTimeout = 120 * time.Second
	// DefaultBodyTimeout bounds reading a POST body (HTTPOptions.BodyTimeout).
	DefaultBodyTimeout = 30 * time.Second
)

// HTTPServerOptions configure the http.Server that [ServeListener] and
// [ListenAndServe] run. The zero value gives the defaults. There is
// deliberately no whole-request read or write timeout: SSE streams live as
// long as their calls or sessions do. A body is bounded by the handler
// instead ([HTTPOptions].BodyTimeout).
type HTTPServerOptions struct {
	// ReadHeaderTimeout bounds reading the headers of a request, so a
	// client that dribbles them is cut off. 0 means 10 seconds.
	ReadHeaderTimeout time.Duration
	// IdleTimeout bounds how long a kept-alive connection waits for its
	// next request. 0 means 120 seconds.
	IdleTimeout time.Duration
	// ShutdownGrace bounds how long requests in flight may take to finish
	// once the context of ServeListener ends; past it they are cancelled.
	// 0 means 10 seconds.
	ShutdownGrace time.Duration
}

func (o *HTTPServerOptions) withDefaults() HTTPServerOptions {
	var v HTTPServerOptions
	if o != nil {
		v = *o
	}
	if v.ReadHeaderTimeout <= 0 {
		v.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if v.IdleTimeout <= 0 {
		v.IdleTimeout = DefaultIdleTimeout
	}
	if v.ShutdownGrace <= 0 {
		v.ShutdownGrace = DefaultShutdownGrace
	}
	return v
}

// NewHTTPServer returns an http.Server for h with the timeouts of o (nil
// means the defaults), for callers that run their own server.
func NewHTTPServer(h http.Handler, o *HTTPServerOptions) *http.Server {
	v := o.withDefaults()
	return &http.Server{Handler: h, ReadHeaderTimeout: v.ReadHeaderTimeout, IdleTimeout: v.IdleTimeout}
}

// Shutdowner is a handler that can stop gracefully: a
// StreamableHTTPHandler, an rpc.HTTPHandler or an rpc.WebSocketHandler.
type Shutdowner interface {
	Shutdown(ctx context.Context) error
}

// ServeListener serves h on ln until ctx is done, then shuts down within
// o.ShutdownGrace: the listener closes, and when h is a [Shutdowner] (a
// StreamableHTTPHandler, say) its Shutdown runs, answering the requests in
// flight and refusing new ones with 503; a handler that is only an
// io.Closer is closed. Requests still running at the end of the grace
// period are cancelled and their connections closed. It returns ctx's
// error after a shutdown, or the error that stopped serving.
func ServeListener(ctx context.Context, ln net.Listener, h http.Handler, o *HTTPServerOptions) error {
	v := o.withDefaults()
	srv := NewHTTPServer(h, o)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), v.ShutdownGrace)
	defer cancel()
	var wg sync.WaitGroup
	var serverErr error
	wg.Go(func() { serverErr = srv.Shutdown(sctx) })
	switch x := h.(type) {
	case Shutdowner:
		x.Shutdown(sctx)
	case io.Closer:
		x.Close()
	}
	wg.Wait()
	if serverErr != nil {
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return ctx.Err()
}

// ListenAndServe serves h on addr with the default [HTTPServerOptions]
// until ctx is done, then shuts down as [ServeListener] does. An address
// without a host (":8080") binds 127.0.0.1, not every interface; name the
// host to listen elsewhere.
func ListenAndServe(ctx context.Context, addr string, h http.Handler) error {
	ln, err := net.Listen("tcp", loopbackDefault(addr))
	if err != nil {
		return err
	}
	return ServeListener(ctx, ln, h, nil)
}

// loopbackDefault puts 127.0.0.1 in an address without a host.
func loopbackDefault(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host != "" {
		return addr
	}
	return net.JoinHostPort("127.0.0.1", port)
}
