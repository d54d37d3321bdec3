// Command calc serves the Calc JSON-RPC service, whose schema is calc.json
// and whose bindings (package calcrpc) are generated from it by rpcgen.
//
// By default it speaks newline-delimited JSON-RPC on stdin and stdout. With
// -http ADDR it serves JSON-RPC over HTTP POST at "/"; with -ws ADDR it
// serves WebSocket at "/". It listens only where told (an address without
// a host, ":8080", means 127.0.0.1), with rpc.ListenAndServe's timeouts, and
// logs to stderr. Over HTTP and WebSocket it answers only requests whose
// Host and Origin name this machine (403 otherwise), the defence against
// DNS rebinding.
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
	"net/http"
	"os"
	"os/signal"
	"syscall"

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
	var addr string
	var h http.Handler
	switch {
	case *httpAddr != "":
		addr, h = *httpAddr, rpc.NewHTTPHandler(router, rpc.WithLogger(log))
	case *wsAddr != "":
		addr, h = *wsAddr, rpc.NewWebSocketHandler(router, nil, rpc.WithLogger(log))
	default:
		return rpc.Serve(ctx, rpc.NewStreamTransport(stdin, stdout), router, rpc.WithLogger(log))
	}
	err := rpc.ListenAndServe(ctx, addr, h, &rpc.HTTPServerOptions{Logger: log})
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil // a signal: shut down as asked
	}
	return err
}
