package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"
)

// StartupConfig says what the start-up and idle-memory measures run.
type StartupConfig struct {
	// BenchDir is the bench module's directory, which holds servers/<name>.
	BenchDir string
	// Binaries maps a server name to a prebuilt program; servers listed here
	// are not built. Meant for tests.
	Binaries map[string]string

	// Servers are spawned interleaved in this order.
	Servers []string
	// Transports and Protocols span the start-up configurations.
	Transports, Protocols []string
	// Spawns is how often each server is spawned in each configuration (N).
	Spawns int
	// Sessions is how many idle sessions the memory measure opens on each
	// server over HTTP (K); 0 skips the measure.
	Sessions int
	// CallTimeout bounds a server's start and the wait for each reply.
	CallTimeout time.Duration
	// SettleInterval and SettleSamples bound the wait for a server's RSS to
	// settle before it is read: it is sampled every SettleInterval until
	// settleRun samples in a row agree, at most SettleSamples times.
	SettleInterval time.Duration
	SettleSamples  int

	// Progress, when set, receives one line per spawn and per memory measure.
	Progress io.Writer
}

// DefaultStartupConfig is the full measure: the four servers, both
// transports and protocols, 15 spawns each, 200 idle sessions.
func DefaultStartupConfig() StartupConfig {
	return StartupConfig{
		BenchDir:       ".",
		Servers:        []string{ServerOurs, ServerGoSDK, ServerMCPGo, ServerLimit},
		Transports:     []string{TransportStdio, TransportHTTP},
		Protocols:      []string{Protocol20251125, Protocol20260728},
		Spawns:         15,
		Sessions:       200,
		CallTimeout:    10 * time.Second,
		SettleInterval: 50 * time.Millisecond,
		SettleSamples:  40,
	}
}

// StartupConfiguration is one transport and protocol of the start-up measure.
type StartupConfiguration struct {
	Transport string `json:"transport"`
	Protocol  string `json:"protocol"`
}

func (c StartupConfiguration) String() string { return c.Transport + " " + c.Protocol }

// configurations lists the configurations of c in run order.
func (c StartupConfig) configurations() []StartupConfiguration {
	var out []StartupConfiguration
	for _, t := range c.Transports {
		for _, p := range c.Protocols {
			out = append(out, StartupConfiguration{t, p})
		}
	}
	return out
}

// validate reports the first setting of c the driver cannot run.
func (c StartupConfig) validate() error {
	if err := checkServers(c.Servers); err != nil {
		return err
	}
	if err := checkTransports(c.Transports); err != nil {
		return err
	}
	for _, p := range c.Protocols {
		if err := checkProtocol(p); err != nil {
			return err
		}
	}
	switch {
	case len(c.configurations()) == 0:
		return errors.New("no configuration to run (name a transport and a protocol)")
	case c.Spawns < 1:
		return errors.New("spawns must be at least 1")
	case c.Sessions < 0:
		return errors.New("sessions must not be negative")
	case c.CallTimeout <= 0:
		return errors.New("call timeout must be positive")
	case c.SettleInterval <= 0:
		return errors.New("settle interval must be positive")
	case c.SettleSamples < settleRun:
		return fmt.Errorf("settle samples must be at least %d", settleRun)
	}
	return nil
}

// startupRunner spawns the built servers.
type startupRunner struct {
	cfg      StartupConfig
	programs map[string]string
}

// RunStartup builds the servers, then measures how long each takes from
// its spawn to its first tools/call answered, and its peak RSS then: in
// every configuration, Spawns times, interleaved (spawn i of every server
// in every configuration before spawn i+1). Then, with Sessions above 0,
// it measures what idle sessions and GET streams cost each server over
// HTTP. The first failure ends the run with an error naming the server,
// the configuration and the spawn.
func RunStartup(ctx context.Context, cfg StartupConfig) (*StartupReport, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "startload-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	programs, err := buildServers(ctx, cfg.BenchDir, tmp, cfg.Servers, cfg.Binaries)
	if err != nil {
		return nil, err
	}
	r := &startupRunner{cfg: cfg, programs: programs}
	rep := &StartupReport{
		Date:    time.Now().UTC().Format(time.RFC3339),
		Machine: fmt.Sprintf("%s %s/%s, %d CPUs", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		Settings: StartupSettings{
			Spawns: cfg.Spawns, Sessions: cfg.Sessions,
			SettleIntervalMs: float64(cfg.SettleInterval) / float64(time.Millisecond), SettleSamples: cfg.SettleSamples,
		},
		Ours:    oursOf(cfg.Servers),
		Servers: cfg.Servers,
	}
	startLoad := loadAverage()
	confs := cfg.configurations()
	for _, conf := range confs {
		res := StartupResult{StartupConfiguration: conf}
		for _, s := range cfg.Servers {
			res.Servers = append(res.Servers, StartupServer{Server: s})
		}
		rep.Startup = append(rep.Startup, res)
	}
	// One spawn of each server that is not measured, so that every measured
	// one finds its program in the page cache.
	for _, s := range cfg.Servers {
		if _, err := r.spawn(ctx, s, confs[0]); err != nil {
			return nil, fmt.Errorf("server %s, %s, warm-up spawn: %w", s, confs[0], err)
		}
	}
	for i := 1; i <= cfg.Spawns; i++ {
		for ci, conf := range confs {
			for si, s := range cfg.Servers {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				sp, err := r.spawn(ctx, s, conf)
				if err != nil {
					return nil, fmt.Errorf("server %s, %s, spawn %d: %w", s, conf, i, err)
				}
				res := &rep.Startup[ci].Servers[si]
				res.Spawns = append(res.Spawns, sp)
				if cfg.Progress != nil {
					fmt.Fprintf(cfg.Progress, "spawn %d/%d  %-16s %-10s %7.2f ms to the first call, peak RSS %5.1f MiB\n",
						i, cfg.Spawns, conf, s, sp.Ms, sp.PeakRSSMiB)
				}
			}
		}
	}
	for i := range rep.Startup {
		rep.Startup[i].summarize()
	}
	if cfg.Sessions > 0 {
		for _, s := range cfg.Servers {
			m, err := r.idleMemory(ctx, s)
			if err != nil {
				return nil, fmt.Errorf("server %s, %d idle sessions: %w", s, cfg.Sessions, err)
			}
			rep.Memory = append(rep.Memory, m)
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "memory       %-10s %s\n", s, m.describe())
			}
		}
	}
	rep.Comparisons = rep.compare()
	rep.Targets = startupTargets(rep.Comparisons, rep.Ours)
	if startLoad != "" {
		rep.Load = "start " + startLoad + "; end " + loadAverage()
	}
	return rep, nil
}
