package load

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fastConfig is a run of every configuration short enough for unit tests.
func fastConfig(servers ...string) Config {
	cfg := QuickConfig()
	cfg.Servers = servers
	cfg.Duration = 40 * time.Millisecond
	cfg.Warmup = 10
	cfg.Sessions = 3
	cfg.Depth = 8
	cfg.CallTimeout = 5 * time.Second
	return cfg
}

func TestRunMeasuresEveryConfigurationOfEveryServer(t *testing.T) {
	cfg := fastConfig(ServerOurs, ServerMCPGo, ServerLimit)
	cfg.Rounds = 2
	useFakeServer(t, &cfg, fakeGood)
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	// stdio: 2 protocols × 2 modes; http: 2 protocols × 3 modes.
	require.Len(t, rep.Results, 10)
	for _, c := range rep.Results {
		require.Len(t, c.Servers, 3)
		for _, s := range c.Servers {
			assert.Len(t, s.Rounds, 2, "%s %s", c.Configuration, s.Server)
			for _, m := range s.Rounds {
				ok := m.Calls > 0 && m.CallsPerSecond > 0 && m.PeakRSSMiB > 0 && m.P99 >= m.P50
				assert.True(t, ok, "%s %s: implausible measurement %+v", c.Configuration, s.Server, m)
			}
			if s.Server != ServerOurs {
				assert.Len(t, s.ThroughputRatio.Rounds, 2, "%s %s", c.Configuration, s.Server)
			}
		}
	}
	assert.NotEmpty(t, rep.Targets)
	for _, format := range []string{FormatText, FormatMarkdown, FormatJSON} {
		var buf bytes.Buffer
		require.NoError(t, Write(&buf, rep, format), format)
		assert.Contains(t, buf.String(), "http", format)
		assert.Contains(t, buf.String(), "2026-07-28", format)
	}
}

// TestRunTakesTheProtocolsRoundsInTurn pins the order of a run: the
// configurations that differ only in protocol alternate round by round, so
// that the protocol ratio pairs figures taken close together; the report
// keeps the configurations in their own order.
func TestRunTakesTheProtocolsRoundsInTurn(t *testing.T) {
	cfg := fastConfig(ServerOurs, ServerLimit)
	cfg.Rounds = 2
	cfg.Transports = []string{TransportStdio}
	cfg.Modes = []string{ModeSequential, ModePipelined}
	var progress bytes.Buffer
	cfg.Progress = &progress
	useFakeServer(t, &cfg, fakeGood)
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(progress.String()), "\n") {
		f := strings.Fields(line)
		require.GreaterOrEqual(t, len(f), 6, line)
		order = append(order, strings.Join(f[1:6], " "))
	}
	var want []string
	for _, mode := range cfg.Modes {
		for round := 1; round <= 2; round++ {
			for _, p := range []string{Protocol20251125, Protocol20260728} {
				for _, s := range cfg.Servers {
					want = append(want, fmt.Sprintf("%d/2 stdio %s %s %s", round, p, mode, s))
				}
			}
		}
	}
	assert.Equal(t, want, order)
	var confs []string
	for _, c := range rep.Results {
		confs = append(confs, c.Configuration.String())
	}
	assert.Equal(t, []string{"stdio 2025-11-25 sequential", "stdio 2025-11-25 pipelined", "stdio 2026-07-28 sequential", "stdio 2026-07-28 pipelined"}, confs)
}

func TestProtocolTurnsGroupsConfigurationsByTransportAndMode(t *testing.T) {
	confs := []Configuration{
		{TransportStdio, Protocol20251125, ModeSequential},
		{TransportStdio, Protocol20260728, ModeSequential},
		{TransportHTTP, Protocol20251125, ModeSessions},
		{TransportHTTP, Protocol20251125, ModeSequential},
		{TransportHTTP, Protocol20260728, ModeSessions},
	}
	assert.Equal(t, [][]int{{0, 1}, {2, 4}, {3}}, protocolTurns(confs))
	assert.Empty(t, protocolTurns(nil))
}

func TestRunReadsEventStreamReplies(t *testing.T) {
	cfg := fastConfig(ServerOurs)
	cfg.Transports = []string{TransportHTTP}
	useFakeServer(t, &cfg, fakeSSE)
	_, err := Run(context.Background(), cfg)
	require.NoError(t, err)
}

func TestRunStopsAtAWrongReplyNamingServerConfigurationAndMessage(t *testing.T) {
	tests := []struct {
		name, fault, transport, protocol, mode string
		want                                   []string
	}{
		{"wrong id over stdio", fakeWrongID, TransportStdio, Protocol20251125, ModeSequential,
			[]string{"server mcpgo", "stdio 2025-11-25 sequential", "round 1", "response id 2 matches no outstanding call (outstanding: [1])", `message: {"id":2`}},
		{"wrong id while pipelining", fakeWrongID, TransportStdio, Protocol20260728, ModePipelined,
			[]string{"stdio 2026-07-28 pipelined", "call 2 (echo)", `returned text "2.25"`}},
		{"wrong text over stdio", fakeWrongText, TransportStdio, Protocol20260728, ModeSequential,
			[]string{"stdio 2026-07-28 sequential", "call 2 (echo)", `call 2!", want "the quick`}},
		{"error reply over HTTP", fakeError, TransportHTTP, Protocol20251125, ModePipelined,
			[]string{"http 2025-11-25 pipelined", `error reply -32603 "fake failure"`}},
		{"wrong text in a session", fakeWrongText, TransportHTTP, Protocol20251125, ModeSessions,
			[]string{"http 2025-11-25 sessions", "(echo)", "returned text"}},
		{"a server that exits", fakeExit, TransportStdio, Protocol20251125, ModeSequential,
			[]string{"stdio 2025-11-25 sequential", "exited", "exiting as told"}},
		{"an older negotiated version", fakeOldProto, TransportHTTP, Protocol20251125, ModeSequential,
			[]string{"initialize", `negotiated protocol "2025-06-18"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := fastConfig(ServerMCPGo)
			cfg.Warmup = 0
			// The run stops at the fault; a phase long enough for the
			// faulty call to come on any machine costs nothing more.
			// (With 40 ms a busy machine finished the phase after one
			// call, before the call the fake answers wrongly.)
			cfg.Duration = 30 * time.Second
			cfg.Transports, cfg.Protocols, cfg.Modes = []string{tt.transport}, []string{tt.protocol}, []string{tt.mode}
			useFakeServer(t, &cfg, tt.fault)
			_, err := Run(context.Background(), cfg)
			require.Error(t, err, "the run succeeded")
			for _, w := range tt.want {
				assert.ErrorContains(t, err, w)
			}
		})
	}
}

func TestRunFailsClearlyWithoutTheServerSources(t *testing.T) {
	cfg := fastConfig(ServerGoSDK)
	cfg.BenchDir = t.TempDir()
	_, err := Run(context.Background(), cfg)
	assert.ErrorContains(t, err, `server "gosdk": no directory`)
}

func TestRunRejectsAnUnusableConfig(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Config)
		wantErr string
	}{
		{"no servers", func(c *Config) { c.Servers = nil }, "no servers"},
		{"a repeated server", func(c *Config) { c.Servers = []string{"a", "a"} }, "repeated"},
		{"unknown transport", func(c *Config) { c.Transports = []string{"ws"} }, `unknown transport "ws"`},
		{"unknown protocol", func(c *Config) { c.Protocols = []string{"2024-11-05"} }, `unknown protocol "2024-11-05"`},
		{"unknown mode", func(c *Config) { c.Modes = []string{"burst"} }, `unknown mode "burst"`},
		{"sessions over stdio only", func(c *Config) {
			c.Transports, c.Modes = []string{TransportStdio}, []string{ModeSessions}
		}, "no configuration"},
		{"zero rounds", func(c *Config) { c.Rounds = 0 }, "rounds"},
		{"zero calls", func(c *Config) { c.Calls = 0 }, "calls"},
		{"zero duration", func(c *Config) { c.Duration = 0 }, "duration"},
		{"negative warm-up", func(c *Config) { c.Warmup = -1 }, "warmup"},
		{"zero sessions", func(c *Config) { c.Sessions = 0 }, "sessions"},
		{"zero depth", func(c *Config) { c.Depth = 0 }, "depth"},
		{"zero call timeout", func(c *Config) { c.CallTimeout = 0 }, "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tt.edit(&cfg)
			_, err := Run(context.Background(), cfg)
			assert.ErrorContains(t, err, tt.wantErr)
		})
	}
}

func TestRunHonoursCallCapAndCancellation(t *testing.T) {
	cfg := fastConfig(ServerOurs)
	cfg.Transports, cfg.Modes = []string{TransportStdio}, []string{ModePipelined}
	cfg.Protocols = []string{Protocol20251125}
	cfg.Calls = 25
	cfg.Duration = 10 * time.Second
	useFakeServer(t, &cfg, fakeGood)
	start := time.Now()
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, int64(25), rep.Results[0].Servers[0].Rounds[0].Calls, "the call cap ends the phase")
	assert.Less(t, time.Since(start), 5*time.Second, "the call cap ends the phase long before its duration")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Run(ctx, cfg)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestJSONReportRoundTrips(t *testing.T) {
	cfg := fastConfig(ServerOurs, ServerMCPGo)
	cfg.Transports, cfg.Modes = []string{TransportStdio}, []string{ModeSequential}
	useFakeServer(t, &cfg, fakeGood)
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, rep, FormatJSON))
	var back Report
	require.NoError(t, json.Unmarshal(buf.Bytes(), &back), buf.String())
	assert.Len(t, back.Results, len(rep.Results))
	assert.Equal(t, ServerOurs, back.Ours)
	assert.False(t, back.Results[0].Servers[0].CPURatio.Median.OK(), "ours has no ratio to itself, null in JSON")
	assert.True(t, back.Results[0].Servers[1].ThroughputRatio.Median.OK(), "mcpgo's ratio survives JSON")
}

func TestAServerThatStopsAnsweringIsKilled(t *testing.T) {
	cfg := fastConfig(ServerOurs)
	cfg.Transports, cfg.Protocols, cfg.Modes = []string{TransportStdio}, []string{Protocol20251125}, []string{ModeSequential}
	cfg.CallTimeout = 200 * time.Millisecond
	useFakeServer(t, &cfg, fakeHang)
	start := time.Now()
	_, err := Run(context.Background(), cfg)
	assert.ErrorContains(t, err, "the server was killed after")
	assert.Less(t, time.Since(start), 10*time.Second)
}

func TestCancellingTheRunEndsABlockedRead(t *testing.T) {
	cfg := fastConfig(ServerOurs)
	cfg.Transports, cfg.Protocols, cfg.Modes = []string{TransportStdio}, []string{Protocol20260728}, []string{ModePipelined}
	useFakeServer(t, &cfg, fakeHang)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Run(ctx, cfg)
	assert.Error(t, err)
	assert.Less(t, time.Since(start), 5*time.Second, "the run ends soon after its context")
}
