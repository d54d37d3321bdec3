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
	cfg.Servers, cfg.Transports, cfg.Protocols = list(servers), list(transports), list(protocols)
	if !*quiet {
		cfg.Progress = stderr
	}
	if *format != load.FormatText && *format != load.FormatMarkdown && *format != load.FormatJSON {
		return fmt.Errorf("unknown format %q (want text, markdown or json)", *format)
	}

	var rep *load.StartupReport
	if *from != "" {
		data, err := os.ReadFile(*from)
		if err != nil {
			return err
		}
		rep = &load.StartupReport{}
		if err := json.Unmarshal(data, rep); err != nil {
			return fmt.Errorf("%s: %w", *from, err)
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
	if *out == "" {
		return load.WriteStartup(stdout, rep, *format)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := load.WriteStartup(f, rep, *format); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// list cuts a comma-separated list, dropping empty items.
func list(s string) []string {
	var out []string
	for v := range strings.SplitSeq(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
