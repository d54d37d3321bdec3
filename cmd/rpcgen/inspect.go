package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/schemarpc/schemarpc/cmd/rpcgen/internal/inspect"
	"github.com/schemarpc/schemarpc/mcp"
)

func init() {
	register(&command{
		name:    "inspect",
		summary: "explore an MCP server in the browser, every message checked against the schemas",
		run:     runInspect,
	})
}

const inspectHelp = `usage: rpcgen inspect [flags] -- COMMAND [ARGS...]
       rpcgen inspect [flags] URL

Connects to an MCP server as a client and serves a web page to explore it:
the server's identity, era, capabilities and instructions; its tools,
resources, templates and prompts, with forms to call them; the server's
requests (sampling, elicitation, roots) answered by you; and every message
of the conversation, both ways, checked live against the schemas of the
negotiated version, as "rpcgen validate" checks them.

With COMMAND, the server is that program, spoken to over stdio. With URL,
the server is spoken to over Streamable HTTP (either era), falling back to
the 2024-11-05 HTTP+SSE transport; --sse uses only the latter. With
--oauth the client authorizes through mcp/auth: it prints the URL where you
sign in and takes the browser's redirect at --oauth-redirect.

The page is served on 127.0.0.1 at a port the system picks; its URL,
printed on stdout, carries a random token that every request must present.
Requests that name another host, or come from a page of another origin,
are refused. The server is chosen here, on the command line; the page
cannot change it. See docs/inspect.md.

The inspector runs until SIGINT or SIGTERM; with --transcript it then
writes the conversation as JSON Lines transcript records, which "rpcgen
validate" checks (the page exports the same at any time).

Exit status: 0 after a signal, 1 when the server cannot be reached or the
transcript cannot be written, 2 usage.

Flags:
`

// inspectConfig is what the command line asks of the inspector.
type inspectConfig struct {
	versions   string
	sse        bool
	headers    []string
	roots      []string
	open       bool
	transcript string
	timeout    time.Duration
	target     []string
	command    bool // target is a command line, not a URL
	oauth      inspectOAuth
}

func parseInspect(args []string, stdout, stderr io.Writer) (cfg inspectConfig, code int, ok bool) {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.versions, "protocol-version", "", "the MCP `VERSIONS` the client offers, preferred first, comma-separated (default: every version, 2026-07-28 first)")
	fs.BoolVar(&cfg.sse, "sse", false, "speak the 2024-11-05 HTTP+SSE transport to URL (its event-stream endpoint)")
	fs.Func("header", "a `NAME: VALUE` header sent on every HTTP request to the server (repeatable), e.g. Authorization", func(s string) error {
		if name, _, ok := strings.Cut(s, ":"); !ok || strings.TrimSpace(name) == "" {
			return errors.New(`want "Name: value"`)
		}
		cfg.headers = append(cfg.headers, s)
		return nil
	})
	fs.Func("root", "a root `URI` the page suggests when the server asks for roots (repeatable)", func(s string) error {
		cfg.roots = append(cfg.roots, s)
		return nil
	})
	fs.BoolVar(&cfg.open, "open", false, "open the page in the default browser")
	fs.StringVar(&cfg.transcript, "transcript", "", "on exit, write the conversation to `FILE` as JSON Lines transcript records")
	fs.DurationVar(&cfg.timeout, "connect-timeout", time.Minute, "how long connecting to the server may take")
	cfg.oauth.flags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), inspectHelp)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return cfg, code, false
	}
	usage := func(format string, a ...any) (inspectConfig, int, bool) {
		fmt.Fprintf(stderr, "rpcgen inspect: "+format+"\n", a...)
		return cfg, exitUsage, false
	}
	cfg.target = fs.Args()
	cfg.command = len(args) > len(cfg.target) && len(cfg.target) > 0 && args[len(args)-len(cfg.target)-1] == "--"
	switch {
	case len(cfg.target) == 0:
		return usage("name the server: -- COMMAND [ARGS...] or URL")
	case cfg.command && cfg.sse:
		return usage("--sse is for a URL, not a command")
	case cfg.command && len(cfg.headers) > 0:
		return usage("--header is for a URL, not a command")
	case !cfg.command:
		if len(cfg.target) > 1 {
			return usage("one URL, or -- before a command line")
		}
		u, err := url.Parse(cfg.target[0])
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usage("%q is not an http(s) URL; put -- before a command line", cfg.target[0])
		}
	}
	if cfg.timeout <= 0 {
		return usage("--connect-timeout must be positive")
	}
	if why := cfg.oauth.check(cfg.command); why != "" {
		return usage("%s", why)
	}
	return cfg, exitOK, true
}

// transport is how the client reaches the server the command line names;
// show tells the person where to sign in, with --oauth.
func (cfg inspectConfig) transport(show func(authURL string)) mcp.ClientTransport {
	if cfg.command {
		return &mcp.CommandTransport{Command: exec.Command(cfg.target[0], cfg.target[1:]...)}
	}
	h := http.Header{}
	for _, kv := range cfg.headers {
		name, value, _ := strings.Cut(kv, ":")
		h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	var client *http.Client
	if cfg.oauth.on {
		client = cfg.oauth.client(show)
	}
	if cfg.sse {
		return &mcp.SSETransport{URL: cfg.target[0], Header: h, HTTPClient: client}
	}
	return &mcp.StreamableHTTPTransport{URL: cfg.target[0], Header: h, HTTPClient: client}
}

func runInspect(args []string, stdout, stderr io.Writer) int {
	cfg, code, ok := parseInspect(args, stdout, stderr)
	if !ok {
		return code
	}
	var versions []string
	for v := range strings.SplitSeq(cfg.versions, ",") {
		if v = strings.TrimSpace(v); v != "" {
			versions = append(versions, v)
		}
	}
	roots := make([]mcp.Root, 0, len(cfg.roots))
	for _, r := range cfg.roots {
		roots = append(roots, mcp.Root{URI: r})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	connect, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	in, err := inspect.Start(connect, inspect.Config{
		Transport: cfg.transport(func(authURL string) {
			fmt.Fprintf(stdout, "rpcgen inspect: sign in at %s\n", authURL)
			if cfg.open {
				if err := openBrowser(authURL); err != nil {
					fmt.Fprintf(stderr, "rpcgen inspect: opening the browser: %v\n", err)
				}
			}
		}),
		Target:           strings.Join(cfg.target, " "),
		ProtocolVersions: versions,
		Roots:            roots,
		ClientVersion:    buildVersion(),
		Logger:           slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		fmt.Fprintf(stderr, "rpcgen inspect: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "rpcgen inspect: open %s\n", in.URL())
	if cfg.open {
		if err := openBrowser(in.URL()); err != nil {
			fmt.Fprintf(stderr, "rpcgen inspect: opening the browser: %v\n", err)
		}
	}
	<-ctx.Done()
	code = exitOK
	if cfg.transcript != "" {
		if err := writeTranscript(cfg.transcript, in); err != nil {
			fmt.Fprintf(stderr, "rpcgen inspect: --transcript: %v\n", err)
			code = exitFail
		}
	}
	in.Close()
	return code
}

func writeTranscript(name string, in *inspect.Inspector) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	return errors.Join(in.Export(f), f.Close())
}

// openBrowser asks the desktop to open url, passed as one argument, never
// through a shell.
func openBrowser(url string) error {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		return exec.Command("rundll32", "url.dll,FileProtocolHandler", url).Start()
	}
	return exec.Command(name, url).Start()
}
