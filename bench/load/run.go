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
// in a fresh process. The configurations that differ only in protocol
// take their rounds in turn (round 1 of each, then round 2 of each, …), so
// that the two protocols' figures of a round, which the protocol ratio
// pairs, are taken minutes apart at most, not the length of a run: a
// machine whose other load drifts moves both alike. The first failure (a
// server that does not start, a reply that fails verification, a timeout)
// ends the run with an error naming the server, the configuration and the
// round.
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
	confs := cfg.configurations()
	results := make([]ConfigResult, len(confs))
	for i, conf := range confs {
		results[i] = ConfigResult{Configuration: conf, Servers: make([]ServerResult, len(cfg.Servers))}
		for j, s := range cfg.Servers {
			results[i].Servers[j].Server = s
		}
	}
	for _, group := range protocolTurns(confs) {
		for round := 1; round <= cfg.Rounds; round++ {
			for _, c := range group {
				if err := r.round(ctx, &results[c], round); err != nil {
					return nil, err
				}
			}
		}
		for _, c := range group {
			results[c].summarize(rep.Ours)
		}
	}
	rep.Results = results
	rep.Targets = targets(rep.Results, rep.Ours)
	if startLoad != "" {
		rep.Load = "start " + startLoad + "; end " + loadAverage()
	}
	return rep, nil
}

// round measures every server once in res's configuration, in order: its
// round-th round.
func (r *runner) round(ctx context.Context, res *ConfigResult, round int) error {
	for i := range res.Servers {
		s := res.Servers[i].Server
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := r.measure(ctx, s, res.Configuration)
		if err != nil {
			return fmt.Errorf("server %s, %s, round %d: %w", s, res.Configuration, round, err)
		}
		res.Servers[i].Rounds = append(res.Servers[i].Rounds, m)
		if r.cfg.Progress != nil {
			fmt.Fprintf(r.cfg.Progress, "round %d/%d  %-28s %-10s %8d calls %9.0f calls/s %8.2f CPU ms/1k  p99 %7.0f µs\n",
				round, r.cfg.Rounds, res.Configuration, s, m.Calls, m.CallsPerSecond, m.CPUMsPer1000, m.P99)
		}
	}
	return nil
}

// protocolTurns groups the indexes of confs that differ only in protocol,
// each group in the order confs has them, the groups in the order of their
// first member: the configurations whose rounds are taken in turn.
func protocolTurns(confs []Configuration) [][]int {
	var groups [][]int
	at := map[[2]string]int{}
	for i, c := range confs {
		key := [2]string{c.Transport, c.Mode}
		g, ok := at[key]
		if !ok {
			g = len(groups)
			at[key] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}
