// Package serve is the command line shared by the benchmark servers: stdio
// by default, Streamable HTTP at /mcp with -http ADDR, -stateless for a
// driver that will speak 2026-07-28 over HTTP, and a graceful exit on
// SIGINT or SIGTERM.
//
// Over HTTP a server writes one line on stdout once it listens,
// "listening on http://HOST:PORT/mcp" (see Announce), so that a driver that
// passes -http 127.0.0.1:0 learns the port the kernel chose, with no race
// and no polling.
package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"syscall"
	"time"
)

// Path is where the Streamable HTTP endpoint is mounted.
const Path = "/mcp"

// shutdownGrace bounds how long a shutdown waits for requests in progress.
const shutdownGrace = 5 * time.Second

// Flags is what the command line says.
type Flags struct {
	// HTTP is the address to serve Streamable HTTP on; "" means stdio.
	HTTP string
	// Stateless says the client will speak 2026-07-28 over HTTP.
	Stateless bool
}

// Program is one benchmark server.
type Program struct {
	// Name names the program in usage and error messages.
	Name string
	// Stdio serves one session, reading messages from in and writing
	// replies to out (stdin and stdout in a command), until in ends or ctx
	// is done.
	Stdio func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error
	// HTTP returns the Streamable HTTP handler to mount at Path and a
	// function that ends its sessions at shutdown (nil if none is needed).
	HTTP func(f Flags) (h http.Handler, closeSessions func())
}

// Parse reads the command line.
func Parse(name string, args []string, stderr io.Writer) (Flags, error) {
	var f Flags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.HTTP, "http", "", "serve Streamable HTTP at http://ADDR"+Path+" instead of stdio, e.g. 127.0.0.1:3001")
	fs.BoolVar(&f.Stateless, "stateless", false, "the client will speak 2026-07-28 over HTTP (servers that need it configure for it)")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return f, nil
}

// ProfileDirEnv names the environment variable that turns CPU profiling
// on: when it holds a directory, each server process writes its profile
// there as NAME-PID.pprof when it exits. The load driver's servers inherit
// it, so `MCPLOAD_PROFILE_DIR=/tmp/prof go run ./cmd/mcpload …` profiles
// every phase.
const ProfileDirEnv = "MCPLOAD_PROFILE_DIR"

// Main runs p with the process's arguments and exits: status 2 for a bad
// command line, 1 when serving fails, 0 otherwise.
func Main(p Program) {
	f, err := Parse(p.Name, os.Args[1:], os.Stderr)
	if err != nil {
		os.Exit(2)
	}
	stopProfile, err := StartProfile(p.Name, os.Getenv(ProfileDirEnv))
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", p.Name, err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err = Run(ctx, p, f, os.Stdout)
	stop()
	stopProfile()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", p.Name, err)
		os.Exit(1)
	}
}

// StartProfile starts a CPU profile written to dir when dir is not empty,
// and returns what ends it.
func StartProfile(name, dir string) (func(), error) {
	if dir == "" {
		return func() {}, nil
	}
	out, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", name, os.Getpid())))
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		out.Close()
	}, nil
}

// Run serves p as f says until ctx is done (or stdin ends, on stdio). A
// stop by ctx is not an error. Over HTTP it writes the Announce line to
// announce once it listens; on stdio, stdout carries the protocol and
// announce is not used.
func Run(ctx context.Context, p Program, f Flags, announce io.Writer) error {
	var err error
	if f.HTTP == "" {
		err = p.Stdio(ctx, os.Stdin, nopCloser{os.Stdout})
	} else {
		var ln net.Listener
		if ln, err = net.Listen("tcp", f.HTTP); err != nil {
			return err
		}
		if _, err = fmt.Fprintln(announce, Announce(ln.Addr())); err != nil {
			ln.Close()
			return fmt.Errorf("announcing the address: %w", err)
		}
		err = ServeHTTP(ctx, ln, p, f)
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// AnnouncePrefix starts the line a server writes once it listens; the rest
// of the line is the endpoint's URL. bench/load reads it.
const AnnouncePrefix = "listening on "

// Announce is the line (without its newline) that says a server listens at
// addr.
func Announce(addr net.Addr) string { return AnnouncePrefix + "http://" + addr.String() + Path }

// ServeHTTP serves p's handler at Path on ln until ctx is done, then shuts
// down: sessions ended first, requests in progress given a grace period.
func ServeHTTP(ctx context.Context, ln net.Listener, p Program, f Flags) error {
	h, closeSessions := p.HTTP(f)
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(slog.NewTextHandler(os.Stderr, nil), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if closeSessions != nil {
		closeSessions()
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Logger is the logger the servers that take one use: warnings and errors
// on stderr.
func Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// nopCloser keeps stdout open when a library closes its output.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
