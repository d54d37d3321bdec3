package load

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"
)

// Server names the driver knows: ours, the two peers, and the floor.
const (
	ServerOurs     = "schemarpc"
	ServerGoSDK    = "gosdk"
	ServerMCPGo    = "mcpgo"
	ServerLimit    = "limit"
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// The load shapes.
const (
	// ModeSequential makes one call at a time on one connection or session.
	ModeSequential = "sequential"
	// ModePipelined keeps Depth calls in flight: written ahead on stdio,
	// concurrent POSTs on one session (or the stateless endpoint) over HTTP.
	ModePipelined = "pipelined"
	// ModeSessions runs Sessions sequential clients at once, each with its
	// own session (HTTP only).
	ModeSessions = "sessions"
)

// Config says what to run and how long.
type Config struct {
	// BenchDir is the bench module's directory, which holds servers/<name>.
	BenchDir string
	// Binaries maps a server name to a prebuilt program; servers listed here
	// are not built. Meant for tests.
	Binaries map[string]string

	// Servers run interleaved in this order in every round.
	Servers []string
	// Transports, Protocols and Modes span the configurations; sessions
	// mode applies to HTTP only.
	Transports, Protocols, Modes []string

	// Rounds is how often each configuration runs every server.
	Rounds int
	// Calls caps the calls of one measured phase.
	Calls int64
	// Duration caps the wall time of one measured phase.
	Duration time.Duration
	// Warmup is the number of calls before each measured phase (also capped
	// at half of Duration); they are not measured.
	Warmup int64
	// Sessions is the number of concurrent sessions in sessions mode.
	Sessions int
	// Depth is the number of calls in flight in pipelined mode.
	Depth int
	// CallTimeout bounds the wait for any single reply.
	CallTimeout time.Duration

	// Progress, when set, receives one line per measured phase.
	Progress io.Writer
}

// DefaultConfig is the full benchmark: four servers, both transports, both
// protocols, all modes, five rounds of two-second phases. On two cores it
// takes about eight minutes.
func DefaultConfig() Config {
	return Config{
		BenchDir:    ".",
		Servers:     []string{ServerOurs, ServerGoSDK, ServerMCPGo, ServerLimit},
		Transports:  []string{TransportStdio, TransportHTTP},
		Protocols:   []string{Protocol20251125, Protocol20260728},
		Modes:       []string{ModeSequential, ModePipelined, ModeSessions},
		Rounds:      5,
		Calls:       2_000_000,
		Duration:    2 * time.Second,
		Warmup:      1000,
		Sessions:    16,
		Depth:       64,
		CallTimeout: 10 * time.Second,
	}
}

// QuickConfig is a smoke run of every configuration in seconds: one round
// of short phases. Its figures are too noisy to compare.
func QuickConfig() Config {
	c := DefaultConfig()
	c.Rounds = 1
	c.Calls = 20_000
	c.Duration = 150 * time.Millisecond
	c.Warmup = 100
	c.Sessions = 4
	return c
}

// Configuration is one transport, protocol and mode.
type Configuration struct {
	Transport string `json:"transport"`
	Protocol  string `json:"protocol"`
	Mode      string `json:"mode"`
}

func (c Configuration) String() string { return c.Transport + " " + c.Protocol + " " + c.Mode }

// configurations lists the configurations of c in report order: by
// transport, protocol, then mode (Run takes the rounds of those that differ
// only in protocol in turn, protocolTurns).
func (c Config) configurations() []Configuration {
	var out []Configuration
	for _, t := range c.Transports {
		for _, p := range c.Protocols {
			for _, m := range c.Modes {
				if m == ModeSessions && t != TransportHTTP {
					continue
				}
				out = append(out, Configuration{t, p, m})
			}
		}
	}
	return out
}

// validate reports the first setting of c the driver cannot run.
func (c Config) validate() error {
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
	for _, m := range c.Modes {
		if m != ModeSequential && m != ModePipelined && m != ModeSessions {
			return fmt.Errorf("unknown mode %q (want %s, %s or %s)", m, ModeSequential, ModePipelined, ModeSessions)
		}
	}
	if len(c.configurations()) == 0 {
		return errors.New("no configuration to run (sessions mode needs the http transport)")
	}
	if c.Rounds < 1 {
		return errors.New("rounds must be at least 1")
	}
	return c.validatePhase()
}

// checkServers reports a server list the driver cannot run: empty, or with
// an empty or repeated name.
func checkServers(servers []string) error {
	if len(servers) == 0 {
		return errors.New("no servers")
	}
	for i, s := range servers {
		if s == "" || slices.Contains(servers[:i], s) {
			return fmt.Errorf("server list %v: empty or repeated name", servers)
		}
	}
	return nil
}

// checkTransports reports the first transport the driver does not speak.
func checkTransports(transports []string) error {
	for _, t := range transports {
		if t != TransportStdio && t != TransportHTTP {
			return fmt.Errorf("unknown transport %q (want %s or %s)", t, TransportStdio, TransportHTTP)
		}
	}
	return nil
}

// validatePhase checks the settings of one measured phase.
func (c Config) validatePhase() error {
	switch {
	case c.Calls < 1:
		return errors.New("calls must be at least 1")
	case c.Duration <= 0:
		return errors.New("duration must be positive")
	case c.Warmup < 0:
		return errors.New("warmup must not be negative")
	case c.Sessions < 1:
		return errors.New("sessions must be at least 1")
	case c.Depth < 1:
		return errors.New("depth must be at least 1")
	case c.CallTimeout <= 0:
		return errors.New("call timeout must be positive")
	}
	return nil
}

// ours is the server every ratio refers to.
func (c Config) ours() string { return oursOf(c.Servers) }

// oursOf is the server every ratio refers to: schemarpc when it runs,
// otherwise the first server.
func oursOf(servers []string) string {
	if slices.Contains(servers, ServerOurs) {
		return ServerOurs
	}
	return servers[0]
}
