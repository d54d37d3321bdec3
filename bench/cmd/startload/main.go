// Command startload measures how the benchmark servers of the bench module
// start and what they hold: the time from the spawn of a server to its
// first tools/call answered and its peak RSS then, over stdio and
// Streamable HTTP in both protocols, each server a standalone program
// spawned many times interleaved; and over HTTP the memory each idle
// session and each open GET stream costs. It prints the figures, the
// ratios of schemarpc to the best peer and to the limit server, and the
// issue's targets. Run it from the bench directory:
//
//	go run ./cmd/startload                        # 15 spawns, 200 idle sessions
//	go run ./cmd/startload -spawns 5 -sessions 0  # start-up only
//	go run ./cmd/startload -format json -out s.json && go run ./cmd/startload -from s.json -format markdown
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
		fmt.Fprintln(os.Stderr, "startload:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("startload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := load.DefaultStartupConfig()
	var servers, transports, protocols string
	fs.StringVar(&cfg.BenchDir, "dir", cfg.BenchDir, "the bench module's directory (holds servers/<name>)")
	fs.StringVar(&servers, "servers", strings.Join(cfg.Servers, ","), "servers in spawn order; ratios describe schemarpc (or the first)")
	fs.StringVar(&transports, "transports", strings.Join(cfg.Transports, ","), "transports: stdio, http")
	fs.StringVar(&protocols, "protocols", strings.Join(cfg.Protocols, ","), "protocols: 2025-11-25, 2026-07-28")
	fs.IntVar(&cfg.Spawns, "spawns", cfg.Spawns, "spawns of each server in each configuration (N)")
	fs.IntVar(&cfg.Sessions, "sessions", cfg.Sessions, "idle sessions per server for the memory measure over HTTP (K; 0 skips it)")
	fs.DurationVar(&cfg.CallTimeout, "call-timeout", cfg.CallTimeout, "longest wait for a server to start or for one reply")
	fs.DurationVar(&cfg.SettleInterval, "settle-interval", cfg.SettleInterval, "time between two RSS samples while the RSS settles")
	fs.IntVar(&cfg.SettleSamples, "settle-samples", cfg.SettleSamples, "most RSS samples taken for the RSS to settle")
	format := fs.String("format", load.FormatText, "output: text, markdown or json")
	out := fs.String("out", "", "write the report to this file instead of standard output")
	quiet := fs.Bool("q", false, "no progress lines on standard error")
	from := fs.String("from", "", "render this saved -format json report instead of running")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg.Servers, cfg.Transports, cfg.Protocols = load.List(servers), load.List(transports), load.List(protocols)
	if !*quiet {
		cfg.Progress = stderr
	}
	if err := load.CheckFormat(*format); err != nil {
		return err
	}

	var rep *load.StartupReport
	if *from != "" {
		rep = &load.StartupReport{}
		if err := load.ReadSaved(*from, rep); err != nil {
			return err
		}
	} else {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		var err error
		if rep, err = load.RunStartup(ctx, cfg); err != nil {
			return err
		}
		rep.Command = "startload " + strings.Join(args, " ")
	}
	return load.Emit(*out, stdout, func(w io.Writer) error { return load.WriteStartup(w, rep, *format) })
}
