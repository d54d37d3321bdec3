package load

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fastStartupConfig is a start-up run short enough for unit tests.
func fastStartupConfig(servers ...string) StartupConfig {
	cfg := DefaultStartupConfig()
	cfg.Servers = servers
	cfg.Spawns = 2
	cfg.Sessions = 3
	cfg.CallTimeout = 5 * time.Second
	cfg.SettleInterval = time.Millisecond
	cfg.SettleSamples = 5
	return cfg
}

// useFakeStartupServer makes the test binary the program of every named
// server, showing fault.
func useFakeStartupServer(t *testing.T, cfg *StartupConfig, fault string) {
	t.Helper()
	c := Config{Servers: cfg.Servers}
	useFakeServer(t, &c, fault)
	cfg.Binaries = c.Binaries
}

func TestRunStartupSpawnsEveryServerInEveryConfiguration(t *testing.T) {
	cfg := fastStartupConfig(ServerOurs, ServerGoSDK, ServerLimit)
	useFakeStartupServer(t, &cfg, fakeGood)
	var progress bytes.Buffer
	cfg.Progress = &progress
	rep, err := RunStartup(context.Background(), cfg)
	require.NoError(t, err)
	require.Len(t, rep.Startup, 4, "stdio and http, both protocols")
	for _, c := range rep.Startup {
		require.Len(t, c.Servers, 3)
		for _, s := range c.Servers {
			require.Len(t, s.Spawns, 2, "%s %s", c.StartupConfiguration, s.Server)
			for _, sp := range s.Spawns {
				assert.Positive(t, sp.Ms, "%s %s", c.StartupConfiguration, s.Server)
				assert.Positive(t, sp.PeakRSSMiB, "%s %s", c.StartupConfiguration, s.Server)
				assert.Positive(t, sp.FileRSSMiB, "%s %s", c.StartupConfiguration, s.Server)
				assert.Positive(t, sp.AnonRSSMiB, "%s %s", c.StartupConfiguration, s.Server)
				assert.LessOrEqual(t, sp.FileRSSMiB+sp.AnonRSSMiB, sp.PeakRSSMiB+0.5, "what is resident now is within the peak (shared memory aside)")
			}
			assert.Equal(t, 2, s.Ms.N)
			assert.True(t, s.Ms.Median.OK() && s.PeakRSSMiB.Median.OK())
		}
	}
	require.Len(t, rep.Memory, 3)
	for _, m := range rep.Memory[:2] {
		assert.Empty(t, m.NA, m.Server)
		assert.Empty(t, m.StreamNA, m.Server)
		assert.True(t, m.BaseMiB.OK() && m.SessionsMiB.OK() && m.StreamsMiB.OK(), "%+v", m)
		assert.True(t, m.PerSessionKiB.OK() && m.PerStreamKiB.OK(), "%+v", m)
	}
	assert.Equal(t, noSessions[ServerLimit], rep.Memory[2].NA)
	assert.False(t, rep.Memory[2].PerSessionKiB.OK())
	assert.Len(t, rep.Comparisons, 4*2+2, "spawn and RSS per configuration, then session and stream")
	assert.NotEmpty(t, rep.Targets)
	assert.Contains(t, progress.String(), "spawn 2/2")
	assert.Contains(t, progress.String(), "n/a: "+noSessions[ServerLimit])
	for _, format := range []string{FormatText, FormatMarkdown, FormatJSON} {
		var buf bytes.Buffer
		require.NoError(t, WriteStartup(&buf, rep, format), format)
		assert.Contains(t, buf.String(), "2026-07-28", format)
	}
}

func TestRunStartupFailsNamingTheServerTheConfigurationAndTheSpawn(t *testing.T) {
	tests := []struct {
		name, fault string
		transports  []string
		want        []string
	}{
		{"a server that exits at its first call", fakeExit, []string{TransportStdio},
			[]string{"server schemarpc, stdio 2025-11-25, warm-up spawn:", "exit status 3", "exiting as told"}},
		{"an error in a later configuration", fakeStatelessError, []string{TransportStdio},
			[]string{"server schemarpc, stdio 2026-07-28, spawn 1:", "fake failure in this era"}},
		{"an HTTP server that does not announce its address", fakeMute, []string{TransportHTTP},
			[]string{"server schemarpc, http 2025-11-25, warm-up spawn:", "did not announce its address"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saved := startTimeout
			startTimeout = time.Second
			t.Cleanup(func() { startTimeout = saved })
			cfg := fastStartupConfig(ServerOurs)
			cfg.Transports = tt.transports
			useFakeStartupServer(t, &cfg, tt.fault)
			_, err := RunStartup(context.Background(), cfg)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.ErrorContains(t, err, w)
			}
		})
	}
}

func TestAServerThatNeverAnswersItsFirstCallIsKilled(t *testing.T) {
	cfg := fastStartupConfig(ServerOurs)
	cfg.Transports, cfg.Protocols = []string{TransportStdio}, []string{Protocol20260728}
	cfg.CallTimeout = 100 * time.Millisecond
	useFakeStartupServer(t, &cfg, fakeHang)
	_, err := RunStartup(context.Background(), cfg)
	assert.ErrorContains(t, err, "the server was killed after 300ms")
}

func TestTheMemoryMeasureFailsOrSaysWhyItCouldNotMeasure(t *testing.T) {
	tests := []struct {
		name, fault string
		wantErr     string
		wantNA      string
	}{
		{"a server that cannot make the handshake", fakeOldProto, "server schemarpc, 3 idle sessions: first session: initialize:", ""},
		{"a server whose first call fails", fakeHandshakeError, "first session's call:", ""},
		{"a server that refuses the second session", fakeOneSession, "session 1: initialize: HTTP status 503", ""},
		{"a server that never opens a GET stream", fakeMuteStream, "GET stream of session 1:", ""},
		{"a server that opens one GET stream only", fakeOneStream, "GET stream of session 2: HTTP status 409 Conflict, though the first 1 opened", ""},
		{"a server without GET streams", fakeNoGET, "", "a GET stream is refused: HTTP status 405 Method Not Allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := fastStartupConfig(ServerOurs)
			// The spawns speak 2026-07-28 over stdio, which every fault
			// here leaves alone; the memory measure speaks 2025-11-25.
			cfg.Transports, cfg.Protocols = []string{TransportStdio}, []string{Protocol20260728}
			cfg.CallTimeout = time.Second
			useFakeStartupServer(t, &cfg, tt.fault)
			rep, err := RunStartup(context.Background(), cfg)
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Len(t, rep.Memory, 1)
			m := rep.Memory[0]
			assert.Equal(t, tt.wantNA, m.StreamNA)
			assert.True(t, m.PerSessionKiB.OK(), "the sessions were measured")
			assert.False(t, m.PerStreamKiB.OK(), "the streams were not")
		})
	}
}

func TestRunStartupWithoutSessionsSkipsTheMemoryMeasure(t *testing.T) {
	cfg := fastStartupConfig(ServerOurs)
	cfg.Transports, cfg.Sessions, cfg.Spawns = []string{TransportStdio}, 0, 1
	useFakeStartupServer(t, &cfg, fakeGood)
	rep, err := RunStartup(context.Background(), cfg)
	require.NoError(t, err)
	assert.Empty(t, rep.Memory)
	assert.Len(t, rep.Comparisons, 2*2, "spawn and RSS for each protocol, nothing for memory")
}

func TestRunStartupEndsWithItsContext(t *testing.T) {
	tests := []struct {
		name, fault string
		timeout     time.Duration // 0: cancelled before the run
	}{
		{"cancelled before the run", fakeGood, 0},
		{"during a spawn", fakeHang, 300 * time.Millisecond},
		{"during the memory measure", fakeMuteStream, 1500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := fastStartupConfig(ServerOurs)
			cfg.Transports, cfg.Protocols = []string{TransportStdio}, []string{Protocol20260728}
			cfg.CallTimeout = time.Minute
			useFakeStartupServer(t, &cfg, tt.fault)
			ctx, cancel := context.WithCancel(context.Background())
			if tt.timeout == 0 {
				cancel()
			} else {
				ctx, cancel = context.WithTimeout(context.Background(), tt.timeout)
			}
			defer cancel()
			_, err := RunStartup(ctx, cfg)
			assert.ErrorIs(t, err, ctx.Err())
		})
	}
}

func TestRunStartupRejectsAnUnusableConfig(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*StartupConfig)
		wantErr string
	}{
		{"no servers", func(c *StartupConfig) { c.Servers = nil }, "no servers"},
		{"a repeated server", func(c *StartupConfig) { c.Servers = []string{"a", "a"} }, "repeated"},
		{"an unknown transport", func(c *StartupConfig) { c.Transports = []string{"ws"} }, `unknown transport "ws"`},
		{"an unknown protocol", func(c *StartupConfig) { c.Protocols = []string{"2024-11-05"} }, `unknown protocol "2024-11-05"`},
		{"no transport", func(c *StartupConfig) { c.Transports = nil }, "no configuration"},
		{"no spawn", func(c *StartupConfig) { c.Spawns = 0 }, "spawns must be at least 1"},
		{"negative sessions", func(c *StartupConfig) { c.Sessions = -1 }, "sessions must not be negative"},
		{"no call timeout", func(c *StartupConfig) { c.CallTimeout = 0 }, "call timeout must be positive"},
		{"no settle interval", func(c *StartupConfig) { c.SettleInterval = 0 }, "settle interval must be positive"},
		{"too few settle samples", func(c *StartupConfig) { c.SettleSamples = 2 }, "settle samples must be at least 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultStartupConfig()
			cfg.BenchDir = t.TempDir()
			tt.edit(&cfg)
			_, err := RunStartup(context.Background(), cfg)
			assert.ErrorContains(t, err, tt.wantErr)
		})
	}
}

func TestRunStartupFailsClearlyWithoutTheServerSources(t *testing.T) {
	cfg := DefaultStartupConfig()
	cfg.BenchDir = t.TempDir()
	_, err := RunStartup(context.Background(), cfg)
	assert.ErrorContains(t, err, "no directory "+filepath.Join(cfg.BenchDir, "servers", ServerOurs))
}

func TestStartupReportRoundTripsThroughJSON(t *testing.T) {
	cfg := fastStartupConfig(ServerOurs, ServerLimit)
	cfg.Spawns = 1
	useFakeStartupServer(t, &cfg, fakeGood)
	rep, err := RunStartup(context.Background(), cfg)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteStartup(&buf, rep, FormatJSON))
	var back StartupReport
	require.NoError(t, json.Unmarshal(buf.Bytes(), &back), buf.String())
	require.Len(t, back.Startup, len(rep.Startup))
	for i, c := range rep.Startup {
		assert.Equal(t, c.StartupConfiguration, back.Startup[i].StartupConfiguration)
		for j, s := range c.Servers {
			got := back.Startup[i].Servers[j]
			assert.Equal(t, s.Spawns, got.Spawns, "every spawn is kept exactly")
			assert.InEpsilon(t, float64(s.Ms.Median), float64(got.Ms.Median), 1e-5, "figures keep six digits")
		}
	}
	assert.Equal(t, rep.Memory[1].NA, back.Memory[1].NA)
	assert.False(t, back.Memory[1].PerSessionKiB.OK(), "a missing figure survives JSON as null")
}
