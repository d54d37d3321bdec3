package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/bench/load"
)

// needRedis skips without redis-server, unless SCHEMARPC_REQUIRE_REDIS=1
// says the run must have it.
func needRedis(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("SCHEMARPC_REQUIRE_REDIS") == "1" {
			t.Fatalf("SCHEMARPC_REQUIRE_REDIS=1 but redis-server is not on PATH: %v", err)
		}
		t.Skip("redis-server is not on PATH; install it (or set SCHEMARPC_REQUIRE_REDIS=1 to fail here)")
	}
}

// buildReplica builds servers/replica once per test.
func buildReplica(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "replica")
	msg, err := exec.Command("go", "build", "-o", out, "../servers/replica").CombinedOutput()
	require.NoError(t, err, "%s", msg)
	return out
}

// quick is a smoke run's config: one short round.
func quickScale(replica string, setups ...load.Setup) load.ScaleConfig {
	cfg := load.DefaultScaleConfig()
	cfg.Replica, cfg.Setups, cfg.Rounds = replica, setups, 1
	cfg.Modes = []string{load.ModeSessions, load.ModePipelined}
	cfg.Phase.Duration, cfg.Phase.Warmup, cfg.Phase.Sessions, cfg.Phase.Depth = 150*time.Millisecond, 20, 3, 4
	return cfg
}

// A smoke run: one replica in memory and two on Redis, both protocols,
// every reply verified, and a report that names every setup.
func TestAQuickRunOfReplicasOnRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the smoke run of replicas")
	}
	needRedis(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := quickScale(buildReplica(t), load.Setup{Replicas: 1, Memory: true}, load.Setup{Replicas: 2})
	var progress bytes.Buffer
	cfg.Progress = &progress
	rep, err := load.RunScale(ctx, cfg)
	require.NoError(t, err)
	require.Len(t, rep.Rows, 2*2*2)
	// CPU comes in clock ticks (10 ms at 100 Hz): a 150 ms row on a busy
	// machine may give its replicas less than one tick, so one row may
	// read 0; the run as a whole cannot.
	var cpu float64
	for _, r := range rep.Rows {
		assert.Positive(t, r.Median.Calls, "%s %s", r.Setup, r.Configuration)
		assert.GreaterOrEqual(t, r.Median.CPUMsPer1000, 0.0, "%s %s", r.Setup, r.Configuration)
		cpu += r.Median.CPUMsPer1000
		require.Len(t, r.Rounds, 1)
	}
	assert.Positive(t, cpu, "the replicas' CPU is measured")
	assert.Equal(t, 8, strings.Count(progress.String(), "round 1/1"))

	var md bytes.Buffer
	require.NoError(t, load.WriteScale(&md, rep, load.FormatMarkdown))
	assert.Contains(t, md.String(), "| 1 replica (memory) | 2025-11-25 | sessions |")
	assert.Contains(t, md.String(), "| 2 replicas on Redis | 2026-07-28 | pipelined |")
	var js bytes.Buffer
	require.NoError(t, load.WriteScale(&js, rep, load.FormatJSON))
	var back load.ScaleReport
	require.NoError(t, json.Unmarshal(js.Bytes(), &back))
	assert.Equal(t, rep.Rows[3].Median.Calls, back.Rows[3].Median.Calls)
}

func TestAnUnknownFormatIsAnError(t *testing.T) {
	err := load.WriteScale(&bytes.Buffer{}, &load.ScaleReport{}, "csv")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown format "csv"`)
}

func TestABadConfigIsRefusedBeforeAnythingStarts(t *testing.T) {
	ok := quickScale("go", load.Setup{Replicas: 1})
	for _, tc := range []struct {
		name, want string
		edit       func(*load.ScaleConfig)
	}{
		{"no setups", "no setups", func(c *load.ScaleConfig) { c.Setups = nil }},
		{"no protocols", "no configuration", func(c *load.ScaleConfig) { c.Protocols = nil }},
		{"no rounds", "rounds must be at least 1", func(c *load.ScaleConfig) { c.Rounds = 0 }},
		{"memory with two replicas", "a memory setup has one replica", func(c *load.ScaleConfig) { c.Setups = []load.Setup{{Replicas: 2, Memory: true}} }},
		{"no replicas", "at least one", func(c *load.ScaleConfig) { c.Setups = []load.Setup{{Replicas: 0}} }},
		{"missing replica program", "the replica program", func(c *load.ScaleConfig) { c.Replica = "/nonexistent/replica" }},
		{"missing redis-server", "redis-server is needed", func(c *load.ScaleConfig) { c.RedisServer = "/nonexistent/redis-server" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ok
			tc.edit(&cfg)
			_, err := load.RunScale(context.Background(), cfg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// A replica that cannot start fails the run with its name and its stderr.
func TestAReplicaThatDoesNotStartFailsTheRun(t *testing.T) {
	needRedis(t)
	bad := filepath.Join(t.TempDir(), "replica")
	require.NoError(t, os.WriteFile(bad, []byte("#!/bin/sh\necho 'cannot serve' >&2\nexit 3\n"), 0o755))
	_, err := load.RunScale(context.Background(), quickScale(bad, load.Setup{Replicas: 2}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replica 1 exited before listening")
	assert.Contains(t, err.Error(), "cannot serve")
}

func TestSetupNames(t *testing.T) {
	assert.Equal(t, "1 replica (memory)", load.Setup{Replicas: 1, Memory: true}.String())
	assert.Equal(t, "1 replica on Redis", load.Setup{Replicas: 1}.String())
	assert.Equal(t, "3 replicas on Redis", load.Setup{Replicas: 3}.String())
}
