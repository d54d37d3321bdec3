package load

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"
)

// Run builds the servers, then measures every configuration of cfg: for
// each one, Rounds rounds in which every server runs once, in order, each
// in a fresh process. The first failure (a server that does not start, a
// reply that fails verification, a timeout) ends the run with an error
// naming the server, the configuration and the round.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "mcpload-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	programs, err := buildServers(ctx, cfg.BenchDir, tmp, cfg.Servers, cfg.Binaries)
	if err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, programs: programs, clockTicks: ClockTicks()}
	rep := &Report{
		Date:    time.Now().UTC().Format(time.RFC3339),
		Machine: fmt.Sprintf("%s %s/%s, %d CPUs", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		Settings: Settings{
			Rounds: cfg.Rounds, Calls: cfg.Calls, DurationSec: cfg.Duration.Seconds(), Warmup: cfg.Warmup,
			Sessions: cfg.Sessions, Depth: cfg.Depth, ClockTicks: r.clockTicks,
		},
		Ours:    cfg.ours(),
		Servers: cfg.Servers,
	}
	startLoad := loadAverage()
	for _, conf := range cfg.configurations() {
		res := ConfigResult{Configuration: conf, Servers: make([]ServerResult, len(cfg.Servers))}
		for i, s := range cfg.Servers {
			res.Servers[i].Server = s
		}
		for round := 1; round <= cfg.Rounds; round++ {
			for i, s := range cfg.Servers {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				m, err := r.measure(ctx, s, conf)
				if err != nil {
					return nil, fmt.Errorf("server %s, %s, round %d: %w", s, conf, round, err)
				}
				res.Servers[i].Rounds = append(res.Servers[i].Rounds, m)
				if cfg.Progress != nil {
					fmt.Fprintf(cfg.Progress, "round %d/%d  %-28s %-10s %8d calls %9.0f calls/s %8.2f CPU ms/1k  p99 %7.0f µs\n",
						round, cfg.Rounds, conf, s, m.Calls, m.CallsPerSecond, m.CPUMsPer1000, m.P99)
				}
			}
		}
		res.summarize(rep.Ours)
		rep.Results = append(rep.Results, res)
	}
	rep.Targets = targets(rep.Results, rep.Ours)
	if startLoad != "" {
		rep.Load = "start " + startLoad + "; end " + loadAverage()
	}
	return rep, nil
}
