package load

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"runtime"
	"time"
)

// ScaleConfig says what RunScale measures.
type ScaleConfig struct {
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
	Phase Config
	// Progress, when set, gets one line per measured phase.
	Progress io.Writer
}

// DefaultScaleConfig measures 1 replica in memory, then 1, 2 and 3 on Redis,
// both protocols with 16 concurrent sessions (clients, for 2026-07-28),
// three rounds of two-second phases: about two minutes on two cores.
func DefaultScaleConfig() ScaleConfig {
	phase := DefaultConfig()
	return ScaleConfig{
		Replica:     "replica",
		RedisServer: "redis-server",
		Setups:      []Setup{{Replicas: 1, Memory: true}, {Replicas: 1}, {Replicas: 2}, {Replicas: 3}},
		Protocols:   []string{Protocol20251125, Protocol20260728},
		Modes:       []string{ModeSessions},
		Rounds:      3,
		Phase:       phase,
	}
}

// ScaleRow is what one setup measured in one configuration, over the rounds.
type ScaleRow struct {
	Setup         Setup         `json:"setup"`
	Configuration Configuration `json:"configuration"`
	Rounds        []Measurement `json:"rounds"`
	Median        Measurement   `json:"median"` // each figure's median over the rounds
}

// ScaleReport is a whole scale-out run.
type ScaleReport struct {
	Date     string     `json:"date"`
	Machine  string     `json:"machine"`
	Sessions int        `json:"sessions"`
	Depth    int        `json:"depth"`
	Duration string     `json:"phase"`
	Rounds   int        `json:"rounds"`
	Rows     []ScaleRow `json:"rows"`
}

// RunScale measures a replicated server on this machine: each setup's
// replicas of the benchmark surface (servers/replica) behind a round-robin
// proxy, driven as MeasureEndpoint drives an endpoint. The rounds
// interleave the setups, as Run interleaves servers. The CPU figure sums
// the replicas and Redis; the proxy runs in the driver and is not counted.
//
// It measures every setup in every configuration, Rounds times. Redis is
// one redis-server of its own on a free 127.0.0.1 port, without
// persistence, for the whole run; every setup of every round starts its
// replicas afresh, under a key prefix of its own.
func RunScale(ctx context.Context, cfg ScaleConfig) (*ScaleReport, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	redisURL, stopRedis, redisPID, err := startRedis(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer stopRedis()
	var confs []Configuration
	for _, p := range cfg.Protocols {
		for _, m := range cfg.Modes {
			confs = append(confs, Configuration{Transport: TransportHTTP, Protocol: p, Mode: m})
		}
	}
	rows := make([]ScaleRow, 0, len(cfg.Setups)*len(confs))
	index := map[string]int{}
	for _, s := range cfg.Setups {
		for _, c := range confs {
			index[s.String()+"|"+c.String()] = len(rows)
			rows = append(rows, ScaleRow{Setup: s, Configuration: c})
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
				m, err := MeasureEndpoint(ctx, cfg.Phase, Endpoint{URL: c.url, PIDs: pids}, conf)
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
		rows[i].Median = medianOf(rows[i].Rounds)
	}
	return &ScaleReport{
		Date:     time.Now().UTC().Format(time.RFC3339),
		Machine:  fmt.Sprintf("%s %s/%s, %d CPUs", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		Sessions: cfg.Phase.Sessions, Depth: cfg.Phase.Depth, Duration: cfg.Phase.Duration.String(), Rounds: cfg.Rounds,
		Rows: rows,
	}, nil
}

func (cfg ScaleConfig) validate() error {
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
func startRedis(ctx context.Context, cfg ScaleConfig) (url string, stop func(), pid int, err error) {
	prog, err := exec.LookPath(cfg.RedisServer)
	if err != nil {
		return "", nil, 0, fmt.Errorf("redis-server is needed to measure replicas on Redis: %w", err)
	}
	addr, err := freeLocalAddr()
	if err != nil {
		return "", nil, 0, err
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", nil, 0, err
	}
	p, err := startListening("redis-server", prog, addr, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err != nil {
		return "", nil, 0, err
	}
	pctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := pingRedis(pctx, addr); err != nil {
		p.stop()
		return "", nil, 0, err
	}
	return "redis://" + addr + "/0", p.stop, p.pid(), nil
}

// pingRedis waits until the Redis at addr answers PING, within ctx.
func pingRedis(ctx context.Context, addr string) error {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			conn.SetDeadline(time.Now().Add(time.Second))
			_, err = conn.Write([]byte("PING\r\n"))
			buf := make([]byte, 16)
			var n int
			if err == nil {
				n, err = conn.Read(buf)
			}
			conn.Close()
			if err == nil && bytes.HasPrefix(buf[:n], []byte("+PONG")) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return errors.New("redis-server did not answer PING")
		case <-time.After(20 * time.Millisecond):
		}
	}
}
