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
	if set["dir"] {
		cfg.BenchDir = *dir
	}
	if set["servers"] {
		cfg.Servers = load.List(*servers)
	}
	if set["transports"] {
		cfg.Transports = load.List(*transports)
	}
	if set["protocols"] {
		cfg.Protocols = load.List(*protocols)
	}
	if set["modes"] {
		cfg.Modes = load.List(*modes)
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
	if err := load.CheckFormat(*format); err != nil {
		return err
	}

	var rep *load.Report
	if *from != "" {
		rep = &load.Report{}
		if err := load.ReadSaved(*from, rep); err != nil {
			return err
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
	return load.Emit(*out, stdout, func(w io.Writer) error { return load.Write(w, rep, *format) })
}
