// Command mcpload measures the benchmark servers of the bench module with
// raw JSON-RPC over stdio and Streamable HTTP and prints medians, per-round
// ratios to ours and the targets. Run it from the bench directory:
//
//	go run ./cmd/mcpload                 # the full run (about eight minutes on two cores)
//	go run ./cmd/mcpload -quick          # a smoke run in seconds
//	go run ./cmd/mcpload -transports stdio -modes pipelined -rounds 3 -format markdown -out result.md
//	go run ./cmd/mcpload -format json -out run.json && go run ./cmd/mcpload -from run.json -format markdown
//
// docs/performance.md at the repository root describes the method.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/schemarpc/schemarpc/bench/load"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mcpload:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcpload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := load.DefaultConfig()
	var (
		quick      = fs.Bool("quick", false, "smoke preset: 1 round of short phases (explicit flags still apply)")
		dir        = fs.String("dir", def.BenchDir, "the bench module's directory (holds servers/<name>)")
		servers    = fs.String("servers", strings.Join(def.Servers, ","), "servers in run order; ratios refer to schemarpc (or the first)")
		transports = fs.String("transports", strings.Join(def.Transports, ","), "transports: stdio, http")
		protocols  = fs.String("protocols", strings.Join(def.Protocols, ","), "protocols: 2025-11-25, 2026-07-28")
		modes      = fs.String("modes", strings.Join(def.Modes, ","), "modes: sequential, pipelined, sessions (sessions: http only)")
		rounds     = fs.Int("rounds", def.Rounds, "rounds per configuration")
		calls      = fs.Int64("calls", def.Calls, "most calls per measured phase")
		duration   = fs.Duration("duration", def.Duration, "longest measured phase")
		warmup     = fs.Int64("warmup", def.Warmup, "calls before each measured phase (not measured)")
		sessions   = fs.Int("sessions", def.Sessions, "concurrent sessions in sessions mode")
		depth      = fs.Int("depth", def.Depth, "calls in flight in pipelined mode")
		timeout    = fs.Duration("call-timeout", def.CallTimeout, "longest wait for one reply")
		format     = fs.String("format", load.FormatText, "output: text, markdown or json")
		out        = fs.String("out", "", "write the report to this file instead of standard output")
		quiet      = fs.Bool("q", false, "no progress lines on standard error")
		from       = fs.String("from", "", "render this saved -format json report instead of running")
	)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := def
	if *quick {
		cfg = load.QuickConfig()
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	list := func(s string) []string {
		var out []string
		for _, v := range strings.Split(s, ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	if set["dir"] {
		cfg.BenchDir = *dir
	}
	if set["servers"] {
		cfg.Servers = list(*servers)
	}
	if set["transports"] {
		cfg.Transports = list(*transports)
	}
	if set["protocols"] {
		cfg.Protocols = list(*protocols)
	}
	if set["modes"] {
		cfg.Modes = list(*modes)
	}
	if set["rounds"] {
		cfg.Rounds = *rounds
	}
	if set["calls"] {
		cfg.Calls = *calls
	}
	if set["duration"] {
		cfg.Duration = *duration
	}
	if set["warmup"] {
		cfg.Warmup = *warmup
	}
	if set["sessions"] {
		cfg.Sessions = *sessions
	}
	if set["depth"] {
		cfg.Depth = *depth
	}
	if set["call-timeout"] {
		cfg.CallTimeout = *timeout
	}
	if !*quiet {
		cfg.Progress = stderr
	}
	if *format != load.FormatText && *format != load.FormatMarkdown && *format != load.FormatJSON {
		return fmt.Errorf("unknown format %q (want text, markdown or json)", *format)
	}

	var rep *load.Report
	if *from != "" {
		data, err := os.ReadFile(*from)
		if err != nil {
			return err
		}
		rep = &load.Report{}
		if err := json.Unmarshal(data, rep); err != nil {
			return fmt.Errorf("%s: %w", *from, err)
		}
	} else {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		var err error
		if rep, err = load.Run(ctx, cfg); err != nil {
			return err
		}
		rep.Command = "mcpload " + strings.Join(args, " ")
	}
	if *out == "" {
		return load.Write(stdout, rep, *format)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := load.Write(f, rep, *format); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
