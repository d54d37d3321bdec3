// Command scaleload measures the throughput of a replicated MCP server on
// this machine: one replica of the benchmark surface in memory, then 1, 2
// and 3 replicas sharing sessions, broker and SSE events through a
// redis-server of its own, each behind a round-robin proxy, driven with
// concurrent 2025-11-25 sessions and 2026-07-28 clients (see
// load.RunScale). It builds servers/replica unless -replica names a program, and
// needs redis-server. Progress goes to stderr, the report to stdout.
//
//	go run ./cmd/scaleload                     # the default run, markdown
//	go run ./cmd/scaleload -replicas 1,3 -rounds 1 -duration 1s
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schemarpc/schemarpc/bench/load"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	def := load.DefaultScaleConfig()
	fs := flag.NewFlagSet("scaleload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		replicas  = fs.String("replicas", "1,2,3", "replica counts on Redis, in run order")
		memory    = fs.Bool("memory", true, "also measure one replica in memory, without Redis (first, the baseline)")
		protocols = fs.String("protocols", strings.Join(def.Protocols, ","), "protocols: 2025-11-25, 2026-07-28")
		modes     = fs.String("modes", strings.Join(def.Modes, ","), "modes: sequential, pipelined, sessions")
		rounds    = fs.Int("rounds", def.Rounds, "rounds; every setup runs every configuration once per round")
		duration  = fs.Duration("duration", def.Phase.Duration, "longest measured phase")
		calls     = fs.Int64("calls", def.Phase.Calls, "most calls per measured phase")
		warmup    = fs.Int64("warmup", def.Phase.Warmup, "calls before each measured phase (not measured)")
		sessions  = fs.Int("sessions", def.Phase.Sessions, "concurrent sessions in sessions mode")
		depth     = fs.Int("depth", def.Phase.Depth, "calls in flight in pipelined mode")
		replica   = fs.String("replica", "", "a prebuilt servers/replica (default: build it)")
		redis     = fs.String("redis-server", def.RedisServer, "the redis-server program")
		format    = fs.String("format", load.FormatMarkdown, "output: markdown or json")
		quiet     = fs.Bool("q", false, "no progress lines on standard error")
	)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected arguments: %v\n", fs.Args())
		return 2
	}
	cfg := def
	cfg.Setups = nil
	if *memory {
		cfg.Setups = append(cfg.Setups, load.Setup{Replicas: 1, Memory: true})
	}
	for _, f := range load.List(*replicas) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "-replicas: %q is not a count of at least 1\n", f)
			return 2
		}
		cfg.Setups = append(cfg.Setups, load.Setup{Replicas: n})
	}
	cfg.Protocols, cfg.Modes, cfg.Rounds = load.List(*protocols), load.List(*modes), *rounds
	cfg.Phase.Duration, cfg.Phase.Calls, cfg.Phase.Warmup = *duration, *calls, *warmup
	cfg.Phase.Sessions, cfg.Phase.Depth = *sessions, *depth
	cfg.RedisServer = *redis
	if *format != load.FormatMarkdown && *format != load.FormatJSON {
		fmt.Fprintf(stderr, "-format: unknown %q (want %s or %s)\n", *format, load.FormatMarkdown, load.FormatJSON)
		return 2
	}
	if !*quiet {
		cfg.Progress = stderr
	}
	cfg.Replica = *replica
	if cfg.Replica == "" {
		dir, err := os.MkdirTemp("", "scaleload-")
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		cfg.Replica = filepath.Join(dir, "replica")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", cfg.Replica, "./servers/replica").CombinedOutput(); err != nil {
			fmt.Fprintf(stderr, "building servers/replica (run from the bench module or pass -replica): %v\n%s", err, out)
			return 1
		}
	}
	rep, err := load.RunScale(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "scaleload:", err)
		return 1
	}
	if err := load.WriteScale(stdout, rep, *format); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}
