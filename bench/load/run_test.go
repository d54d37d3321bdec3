package load

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
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
	if err != nil {
		t.Fatal(err)
	}
	// stdio: 2 protocols × 2 modes; http: 2 protocols × 3 modes.
	if len(rep.Results) != 10 {
		t.Fatalf("%d configurations, want 10", len(rep.Results))
	}
	for _, c := range rep.Results {
		for _, s := range c.Servers {
			if len(s.Rounds) != 2 {
				t.Errorf("%s %s: %d rounds, want 2", c.Configuration, s.Server, len(s.Rounds))
			}
			for _, m := range s.Rounds {
				if m.Calls == 0 || m.CallsPerSecond <= 0 || m.PeakRSSMiB <= 0 || m.P99 < m.P50 {
					t.Errorf("%s %s: implausible measurement %+v", c.Configuration, s.Server, m)
				}
			}
			if s.Server != ServerOurs && len(s.ThroughputRatio.Rounds) != 2 {
				t.Errorf("%s %s: throughput ratios %+v", c.Configuration, s.Server, s.ThroughputRatio)
			}
		}
	}
	if len(rep.Targets) == 0 {
		t.Error("no targets checked")
	}
	for _, format := range []string{FormatText, FormatMarkdown, FormatJSON} {
		var buf bytes.Buffer
		if err := Write(&buf, rep, format); err != nil {
			t.Errorf("%s: %v", format, err)
		}
		if !strings.Contains(buf.String(), "http") || !strings.Contains(buf.String(), "2026-07-28") {
			t.Errorf("%s output lacks the configurations:\n%s", format, buf.String())
		}
	}
}

func TestRunReadsEventStreamReplies(t *testing.T) {
	cfg := fastConfig(ServerOurs)
	cfg.Transports = []string{TransportHTTP}
	useFakeServer(t, &cfg, fakeSSE)
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
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
			cfg.Transports, cfg.Protocols, cfg.Modes = []string{tt.transport}, []string{tt.protocol}, []string{tt.mode}
			useFakeServer(t, &cfg, tt.fault)
			_, err := Run(context.Background(), cfg)
			if err == nil {
				t.Fatal("the run succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestRunFailsClearlyWithoutTheServerSources(t *testing.T) {
	cfg := fastConfig(ServerGoSDK)
	cfg.BenchDir = t.TempDir()
	_, err := Run(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), `server "gosdk": no directory`) {
		t.Errorf("error = %v", err)
	}
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
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one mentioning %q", err, tt.wantErr)
			}
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
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Results[0].Servers[0].Rounds[0].Calls; got != 25 {
		t.Errorf("measured %d calls, want the cap of 25", got)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("a 25-call phase took %v", time.Since(start))
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, cfg); err == nil {
		t.Error("a cancelled run succeeded")
	}
}

func TestJSONReportRoundTrips(t *testing.T) {
	cfg := fastConfig(ServerOurs, ServerMCPGo)
	cfg.Transports, cfg.Modes = []string{TransportStdio}, []string{ModeSequential}
	useFakeServer(t, &cfg, fakeGood)
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, rep, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(back.Results) != len(rep.Results) || back.Ours != ServerOurs {
		t.Errorf("decoded %+v", back)
	}
	if back.Results[0].Servers[0].CPURatio.Median.OK() != rep.Results[0].Servers[0].CPURatio.Median.OK() {
		t.Error("a ratio lost or gained its value in JSON")
	}
}
