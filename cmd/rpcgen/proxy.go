package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/schemarpc/schemarpc/internal/validate"
)

func init() {
	register(&command{
		name:    "proxy",
		summary: "forward JSON-RPC traffic unchanged (stdio or HTTP) and report every invalid message",
		run:     runProxy,
	})
}

const proxyHelp = `usage: rpcgen proxy [flags] -- COMMAND [ARGS...]
       rpcgen proxy [flags] --listen ADDR --upstream URL

Sits between a client and a server and forwards their traffic byte for
byte, checking every message in both directions against a schema set as it
goes. Findings are written as they happen, to stderr or --report FILE.

The default set, mcp, follows each conversation's MCP version as a peer
does: the initialize handshake, the version each stateless (2026-07-28)
request carries, and over HTTP the MCP-Protocol-Version header. Give
--schema jsonrpc (the envelopes alone) or your own schema for a server that
is not MCP.

With COMMAND, the server is that program: the proxy's stdin goes to its
stdin and its stdout to the proxy's stdout (newline-delimited messages; its
stderr is the proxy's). When stdin ends the server's stdin is closed, and
the proxy exits with the server's exit status (128+N if signal N ended it).
SIGINT and SIGTERM are passed on to the server.

With --listen, the proxy serves HTTP at ADDR and forwards every request to
the Streamable HTTP server at --upstream: POST bodies are checked as client
messages, JSON and SSE responses as server messages, one conversation per
Mcp-Session-Id. It runs until SIGINT or SIGTERM and then exits 0.

Exit status: the server's (stdio) or 0 (HTTP); 1 with --fail-on-findings
when there were findings and the server succeeded, or when the proxy itself
fails (the server cannot be started, the report cannot be written); 2
usage. See docs/proxy.md.

Flags:
`

// proxyConfig is what the command line asks of the proxy.
type proxyConfig struct {
	schema         string
	format         string
	report         string
	transcript     string
	failOnFindings bool
	maxMessage     int
	listen         string
	upstream       string
	command        []string
}

// parseProxy reads the command line. When ok is false the command is over:
// the help or a usage message has been printed and code is the exit status.
func parseProxy(args []string, stdout, stderr io.Writer) (cfg proxyConfig, code int, ok bool) {
	fs := flag.NewFlagSet("proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.schema, "schema", validate.FollowSet, "schema `SET` to check against: "+strings.Join(validate.Builtins(), ", ")+", or the path of a schema input")
	fs.StringVar(&cfg.format, "format", "text", "report `FORMAT`: "+strings.Join(validate.Formats, ", "))
	fs.StringVar(&cfg.report, "report", "", "write findings to `FILE` instead of stderr")
	fs.StringVar(&cfg.transcript, "transcript", "", "record every JSON message seen to `FILE` as JSON Lines transcript records")
	fs.BoolVar(&cfg.failOnFindings, "fail-on-findings", false, "exit 1 when there were findings, even if the server succeeded")
	fs.IntVar(&cfg.maxMessage, "max-message-size", validate.DefaultMaxMessage, "largest message checked, in `BYTES`; longer ones are forwarded and reported")
	fs.StringVar(&cfg.listen, "listen", "", "serve HTTP at `ADDR` (host:port) instead of running a command")
	fs.StringVar(&cfg.upstream, "upstream", "", "`URL` of the Streamable HTTP server to forward to (with --listen)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), proxyHelp)
		fs.PrintDefaults()
	}
	usage := func(msg string) (proxyConfig, int, bool) {
		fmt.Fprintf(stderr, "rpcgen proxy: %s\n\nRun \"rpcgen help proxy\" for usage.\n", msg)
		return cfg, exitUsage, false
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return cfg, code, false
	}
	cfg.command = fs.Args()
	if !validFormat(cfg.format) {
		return usage(fmt.Sprintf("--format %q is not one of %s", cfg.format, strings.Join(validate.Formats, ", ")))
	}
	if cfg.maxMessage <= 0 {
		return usage("--max-message-size must be positive")
	}
	switch {
	case cfg.listen == "" && cfg.upstream != "":
		return usage("--upstream needs --listen")
	case cfg.listen != "" && len(cfg.command) > 0:
		return usage("give either --listen and --upstream or a COMMAND, not both")
	case cfg.listen != "" && cfg.upstream == "":
		return usage("--listen needs --upstream URL")
	case cfg.listen == "" && len(cfg.command) == 0:
		return usage("no COMMAND to run (rpcgen proxy [flags] -- COMMAND [ARGS...]) and no --listen")
	}
	if cfg.upstream != "" {
		u, err := url.Parse(cfg.upstream)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usage(fmt.Sprintf("--upstream %q is not an http or https URL", cfg.upstream))
		}
	}
	return cfg, exitOK, true
}

func validFormat(f string) bool {
	for _, g := range validate.Formats {
		if f == g {
			return true
		}
	}
	return false
}

func runProxy(args []string, stdout, stderr io.Writer) int {
	cfg, code, ok := parseProxy(args, stdout, stderr)
	if !ok {
		return code
	}
	set, err := validate.Open(cfg.schema)
	if err != nil {
		fmt.Fprintf(stderr, "rpcgen proxy: --schema: %v\n", err)
		return exitUsage
	}
	if _, ok := stderr.(*os.File); !ok {
		// The report, the server's stderr and the proxy's own messages
		// share stderr: one writer at a time. (A file is shared by the
		// system, and the server writes to it directly.)
		stderr = &lockedWriter{w: stderr}
	}
	mon, err := openMonitor(cfg, set, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "rpcgen proxy: %v\n", err)
		return exitFail
	}
	if cfg.listen != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return finish(mon, cfg, serveProxyHTTP(ctx, cfg, mon, stderr), stderr)
	}
	return finish(mon, cfg, runProxyStdio(cfg, mon, os.Stdin, stdout, stderr), stderr)
}

// finish closes the report and the transcript and turns the outcome of a
// run into the exit status: the server's, or 1 when the proxy failed or
// when findings were to fail a successful run.
func finish(mon *monitor, cfg proxyConfig, status int, stderr io.Writer) int {
	sum, err := mon.close()
	if err != nil {
		fmt.Fprintf(stderr, "rpcgen proxy: %v\n", err)
		if status == exitOK {
			status = exitFail
		}
	}
	if cfg.failOnFindings && sum.Findings > 0 && status == exitOK {
		status = exitFail
	}
	return status
}
