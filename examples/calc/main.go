// Command calc serves the Calc JSON-RPC service, whose schema is calc.json
// and whose bindings (package calcrpc) are generated from it by rpcgen.
//
// By default it speaks newline-delimited JSON-RPC on stdin and stdout. With
// -http ADDR it serves JSON-RPC over HTTP POST at "/"; with -ws ADDR it
// serves WebSocket at "/". It listens only where told, and logs to stderr.
//
//	echo '{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}' | go run ./examples/calc
//	go run ./examples/calc -http 127.0.0.1:8080
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/schemarpc/schemarpc/examples/calc/calcrpc"
	"github.com/schemarpc/schemarpc/rpc"
)

// calc implements the generated calcrpc.CalcServer.
type calc struct {
	calcrpc.UnimplementedCalcServer
	log *slog.Logger
}

func (calc) Echo(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
	return params, nil
}

func (calc) Add(_ context.Context, p *calcrpc.AddParams) (float64, error) {
	return p.A + p.B, nil
}

func (calc) Fail(context.Context) (json.RawMessage, error) {
	return nil, calcrpc.NewDeliberateError()
}

func (calc) Panic(context.Context) (json.RawMessage, error) {
	panic("calc: the panic method panics, as documented")
}

func (c calc) NotifyMe(_ context.Context, params json.RawMessage) error {
	c.log.Debug("notify_me received", "params", len(params))
	return nil
}

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "calc:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("calc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve JSON-RPC over HTTP POST at / on this address (e.g. 127.0.0.1:8080)")
	wsAddr := fs.String("ws", "", "serve JSON-RPC over WebSocket at / on this address")
	verbose := fs.Bool("v", false, "log at debug level")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if *httpAddr != "" && *wsAddr != "" {
		return errors.New("-http and -ws are exclusive")
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	router := rpc.NewRouter()
	calcrpc.RegisterCalcServer(router, calc{log: log})

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch {
	case *httpAddr != "":
		return serveHTTP(ctx, *httpAddr, rpc.NewHTTPHandler(router, rpc.WithLogger(log)), log)
	case *wsAddr != "":
		return serveHTTP(ctx, *wsAddr, rpc.NewWebSocketHandler(router, nil, rpc.WithLogger(log)), log)
	default:
		return rpc.Serve(ctx, rpc.NewStreamTransport(stdin, stdout), router, rpc.WithLogger(log))
	}
}

// serveHTTP serves h on addr until ctx ends, then shuts down gracefully.
func serveHTTP(ctx context.Context, addr string, h http.Handler, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/", h)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("calc: listening", "addr", ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown)
	}
}
