package rpc

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// The defaults of HTTPServerOptions.
const (
	// DefaultReadHeaderTimeout bounds reading a request's headers.
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultReadTimeout bounds reading a whole request, body included.
	DefaultReadTimeout = 30 * time.Second
	// DefaultWriteTimeout bounds the time from the end of a request's
	// headers to the end of its response: the call and the writing of its
	// answer.
	DefaultWriteTimeout = 60 * time.Second
	// DefaultIdleTimeout bounds how long a kept-alive connection may wait
	// for its next request.
	DefaultIdleTimeout = 120 * time.Second
	// DefaultMaxHeaderBytes bounds the size of a request's headers.
	DefaultMaxHeaderBytes = 64 << 10
)

// HTTPServerOptions configure the http.Server that [ServeListener] and
// [ListenAndServe] run. The zero value gives the defaults; a negative
// timeout turns its bound off (ShutdownGrace excepted: there zero or
// negative means the default).
type HTTPServerOptions struct {
	// ReadHeaderTimeout bounds reading the headers of a request, so a
	// client that dribbles them is cut off. 0 means 10 seconds.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included. 0 means
	// 30 seconds.
	ReadTimeout time.Duration
	// WriteTimeout bounds the time from the end of a request's headers to
	// the end of its response: a call whose answer is not written by then
	// loses its connection, unanswered. 0 means 60 seconds; raise it for
	// longer calls. A WebSocket connection is not bounded by it, nor by
	// ReadTimeout: net/http lifts both when [WebSocketHandler] takes the
	// connection over.
	WriteTimeout time.Duration
	// IdleTimeout bounds how long a kept-alive connection waits for its
	// next request. 0 means 120 seconds.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds the size of a request's headers (the request
	// line included); larger ones get 431. 0 means 64 KiB.
	MaxHeaderBytes int
	// ShutdownGrace bounds how long requests in flight may take to finish
	// once the context of ServeListener ends; past it they are cancelled.
	// 0 or negative means 10 seconds.
	ShutdownGrace time.Duration
	// Logger gets a line with the address when serving starts, and the
	// http.Server's own errors (a failed TLS handshake, say) at warn. nil
	// means no line, and the server's errors go to the standard logger.
	Logger *slog.Logger
}

// withDefaults returns o with its zero fields set to the defaults and its
// negative timeouts set to 0, http.Server's "no bound".
func (o *HTTPServerOptions) withDefaults() HTTPServerOptions {
	var v HTTPServerOptions
	if o != nil {
		v = *o
	}
	bound := func(d *time.Duration, def time.Duration) {
		switch {
		case *d == 0:
			*d = def
		case *d < 0:
			*d = 0
		}
	}
	bound(&v.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	bound(&v.ReadTimeout, DefaultReadTimeout)
	bound(&v.WriteTimeout, DefaultWriteTimeout)
	bound(&v.IdleTimeout, DefaultIdleTimeout)
	if v.MaxHeaderBytes <= 0 {
		v.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if v.ShutdownGrace <= 0 {
		v.ShutdownGrace = DefaultShutdownGrace
	}
	return v
}

// NewHTTPServer returns an http.Server for h with the bounds of o (nil
// means the defaults), for callers that run their own server.
func NewHTTPServer(h http.Handler, o *HTTPServerOptions) *http.Server {
	v := o.withDefaults()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: v.ReadHeaderTimeout,
		ReadTimeout:       v.ReadTimeout,
		WriteTimeout:      v.WriteTimeout,
		IdleTimeout:       v.IdleTimeout,
		MaxHeaderBytes:    v.MaxHeaderBytes,
	}
	if v.Logger != nil {
		srv.ErrorLog = slog.NewLogLogger(v.Logger.Handler(), slog.LevelWarn)
	}
	return srv
}

// Shutdowner is a handler that can stop gracefully: an [HTTPHandler], a
// [WebSocketHandler], an MCP StreamableHTTPHandler.
type Shutdowner interface {
	Shutdown(ctx context.Context) error
}

// ServeListener serves h on ln until ctx is done, then shuts down within
// o.ShutdownGrace: the listener closes, and when h is a [Shutdowner] (an
// [HTTPHandler], say) its Shutdown runs, answering the requests in flight
// and refusing new ones with 503; a handler that is only an io.Closer is
// closed. Requests still running at the end of the grace period are
// cancelled and their connections closed. It returns ctx's error after a
// shutdown, or the error that stopped serving.
func ServeListener(ctx context.Context, ln net.Listener, h http.Handler, o *HTTPServerOptions) error {
	v := o.withDefaults()
	srv := NewHTTPServer(h, o)
	if v.Logger != nil {
		v.Logger.Info("jsonrpc: listening", "addr", ln.Addr().String())
	}
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

// ListenAndServe serves h on addr with the bounds of o (nil means the
// defaults) until ctx is done, then shuts down as [ServeListener] does. An
// address without a host (":8080") binds 127.0.0.1, not every interface;
// name the host to listen elsewhere.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, o *HTTPServerOptions) error {
	ln, err := net.Listen("tcp", loopbackDefault(addr))
	if err != nil {
		return err
	}
	return ServeListener(ctx, ln, h, o)
}

// loopbackDefault puts 127.0.0.1 in an address without a host.
func loopbackDefault(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host != "" {
		return addr
	}
	return net.JoinHostPort("127.0.0.1", port)
}
