package scale

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"runtime"
	"time"

	"github.com/schemarpc/schemarpc/bench/load"
)

// Config says what to measure.
type Config struct {
	// Replica is the servers/replica program; RedisServer the redis-server
	// program (a name looked up in PATH, or a path).
	Replica, RedisServer string
	// Setups run in this order in every round.
	Setups []Setup
	// Protocols and Modes span the configurations (HTTP only; modes
	// sequential, pipelined, sessions).
	Protocols, Modes []string
	// Rounds is how often every setup runs every configuration.
	Rounds int
	// Phase bounds one measured phase: Calls, Duration, Warmup, Sessions,
	// Depth and CallTimeout apply.
	Phase load.Config
	// Progress, when set, gets one line per measured phase.
	Progress io.Writer
}

// DefaultConfig measures 1 replica in memory, then 1, 2 and 3 on Redis,
// both protocols with 16 concurrent sessions (clients, for 2026-07-28),
// three rounds of two-second phases: about two minutes on two cores.
func DefaultConfig() Config {
	phase := load.DefaultConfig()
	return Config{
		Replica:     "replica",
		RedisServer: "redis-server",
		Setups:      []Setup{{Replicas: 1, Memory: true}, {Replicas: 1}, {Replicas: 2}, {Replicas: 3}},
		Protocols:   []string{load.Protocol20251125, load.Protocol20260728},
		Modes:       []string{load.ModeSessions},
		Rounds:      3,
		Phase:       phase,
	}
}

// Row is what one setup measured in one configuration, over the rounds.
type Row struct {
	Setup         Setup              `json:"setup"`
	Configuration load.Configuration `json:"configuration"`
	Rounds        []load.Measurement `json:"rounds"`
	Median        load.Measurement   `json:"median"` // each figure's median over the rounds
}

// Report is a whole run.
type Report struct {
	Date     string `json:"date"`
	Machine  string `json:"machine"`
	Sessions int    `json:"sessions"`
	Depth    int    `json:"depth"`
	Duration string `json:"phase"`
	Rounds   int    `json:"rounds"`
	Rows     []Row  `json:"rows"`
}

// Run measures every setup in every configuration, Rounds times. Redis is
// one redis-server of its own on a free 127.0.0.1 port, without
// persistence, for the whole run; every setup of every round starts its
// replicas afresh, under a key prefix of its own.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	redisURL, stopRedis, redisPID, err := startRedis(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer stopRedis()
	var confs []load.Configuration
	for _, p := range cfg.Protocols {
		for _, m := range cfg.Modes {
			confs = append(confs, load.Configuration{Transport: load.TransportHTTP, Protocol: p, Mode: m})
		}
	}
	rows := make([]Row, 0, len(cfg.Setups)*len(confs))
	index := map[string]int{}
	for _, s := range cfg.Setups {
		for _, c := range confs {
			index[s.String()+"|"+c.String()] = len(rows)
			rows = append(rows, Row{Setup: s, Configuration: c})
		}
	}
	for round := 1; round <= cfg.Rounds; round++ {
		for _, s := range cfg.Setups {
			prefix := "scale:" + rand.Text()[:8] + ":"
			c, err := startCluster(s, cfg.Replica, redisURL, prefix)
			if err != nil {
				return nil, fmt.Errorf("%s, round %d: %w", s, round, err)
			}
			for _, conf := range confs {
				pids := c.pids()
				if !s.Memory {
					pids = append(pids, redisPID)
				}
				m, err := load.MeasureEndpoint(ctx, cfg.Phase, load.Endpoint{URL: c.url, PIDs: pids}, conf)
				if err != nil {
					if dead := c.alive(); dead != nil {
						err = fmt.Errorf("%w (%v)", err, dead)
					}
					c.stop()
					return nil, fmt.Errorf("%s, %s, round %d: %w", s, conf, round, err)
				}
				i := index[s.String()+"|"+conf.String()]
				rows[i].Rounds = append(rows[i].Rounds, m)
				if cfg.Progress != nil {
					fmt.Fprintf(cfg.Progress, "round %d/%d  %-22s %-28s %8d calls %9.0f calls/s %8.1f CPU ms/1k  p99 %7.0f µs\n",
						round, cfg.Rounds, s, conf, m.Calls, m.CallsPerSecond, m.CPUMsPer1000, m.P99)
				}
			}
			c.stop()
		}
	}
	for i := range rows {
		rows[i].Median = median(rows[i].Rounds)
	}
	return &Report{
		Date:     time.Now().UTC().Format(time.RFC3339),
		Machine:  fmt.Sprintf("%s %s/%s, %d CPUs", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		Sessions: cfg.Phase.Sessions, Depth: cfg.Phase.Depth, Duration: cfg.Phase.Duration.String(), Rounds: cfg.Rounds,
		Rows: rows,
	}, nil
}

func (cfg Config) validate() error {
	switch {
	case len(cfg.Setups) == 0:
		return errors.New("no setups")
	case len(cfg.Protocols) == 0 || len(cfg.Modes) == 0:
		return errors.New("no configuration: name at least one protocol and one mode")
	case cfg.Rounds < 1:
		return errors.New("rounds must be at least 1")
	}
	for _, s := range cfg.Setups {
		if s.Replicas < 1 || (s.Memory && s.Replicas != 1) {
			return fmt.Errorf("setup %q: a memory setup has one replica, others at least one", s)
		}
	}
	if _, err := exec.LookPath(cfg.Replica); err != nil {
		return fmt.Errorf("the replica program: %w", err)
	}
	return nil
}

// startRedis starts a redis-server without persistence on a free port.
func startRedis(ctx context.Context, cfg Config) (url string, stop func(), pid int, err error) {
	prog, err := exec.LookPath(cfg.RedisServer)
	if err != nil {
		return "", nil, 0, fmt.Errorf("redis-server is needed to measure replicas on Redis: %w", err)
	}
	addr, err := freeAddr()
	if err != nil {
		return "", nil, 0, err
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", nil, 0, err
	}
	p, err := start("redis-server", addr, prog, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err != nil {
		return "", nil, 0, err
	}
	pctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := ping(pctx, addr); err != nil {
		p.stop()
		return "", nil, 0, err
	}
	return "redis://" + addr + "/0", p.stop, p.pid(), nil
}

// median is each figure's median over the rounds.
func median(ms []load.Measurement) load.Measurement {
	pick := func(f func(load.Measurement) float64) float64 {
		xs := make([]float64, len(ms))
		for i, m := range ms {
			xs[i] = f(m)
		}
		return load.Median(xs)
	}
	return load.Measurement{
		Calls:          int64(pick(func(m load.Measurement) float64 { return float64(m.Calls) })),
		WallSeconds:    pick(func(m load.Measurement) float64 { return m.WallSeconds }),
		CPUSeconds:     pick(func(m load.Measurement) float64 { return m.CPUSeconds }),
		CPUMsPer1000:   pick(func(m load.Measurement) float64 { return m.CPUMsPer1000 }),
		CallsPerSecond: pick(func(m load.Measurement) float64 { return m.CallsPerSecond }),
		P50:            pick(func(m load.Measurement) float64 { return m.P50 }),
		P90:            pick(func(m load.Measurement) float64 { return m.P90 }),
		P99:            pick(func(m load.Measurement) float64 { return m.P99 }),
	}
}
