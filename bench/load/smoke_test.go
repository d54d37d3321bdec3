package load

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuickRunOfTheRealServers builds the four benchmark servers and runs
// every configuration once with short phases: the whole pipeline, with
// every reply verified, in well under a minute.
func TestQuickRunOfTheRealServers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the smoke run of the real servers")
	}
	cfg := QuickConfig()
	cfg.BenchDir = ".."
	cfg.Duration = 100 * time.Millisecond
	for _, s := range cfg.Servers {
		if _, err := os.Stat(filepath.Join(cfg.BenchDir, "servers", s)); err != nil {
			t.Skipf("bench/servers/%s is missing, so there is nothing to run against: %v", s, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep, err := Run(ctx, cfg)
	require.NoError(t, err)
	require.Len(t, rep.Results, 10)
	for _, c := range rep.Results {
		for _, s := range c.Servers {
			assert.Positive(t, s.Median.Calls, "%s %s", c.Configuration, s.Server)
		}
	}
}

// TestStartupRunOfTheRealServers builds the four benchmark servers and runs
// the start-up and memory measures with the least counts (one spawn of each
// in each configuration, two idle sessions): the whole pipeline against the
// real libraries, in seconds.
func TestStartupRunOfTheRealServers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the start-up run of the real servers")
	}
	cfg := DefaultStartupConfig()
	cfg.BenchDir = ".."
	cfg.Spawns, cfg.Sessions = 1, 2
	cfg.SettleInterval, cfg.SettleSamples = 10*time.Millisecond, 5
	for _, s := range cfg.Servers {
		if _, err := os.Stat(filepath.Join(cfg.BenchDir, "servers", s)); err != nil {
			t.Skipf("bench/servers/%s is missing, so there is nothing to run against: %v", s, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep, err := RunStartup(ctx, cfg)
	require.NoError(t, err)
	require.Len(t, rep.Startup, 4)
	for _, c := range rep.Startup {
		for _, s := range c.Servers {
			assert.Equal(t, 1, s.Ms.N, "%s %s", c.StartupConfiguration, s.Server)
			assert.Positive(t, float64(s.PeakRSSMiB.Median), "%s %s", c.StartupConfiguration, s.Server)
		}
	}
	require.Len(t, rep.Memory, 4)
	for _, m := range rep.Memory {
		if m.Server == ServerLimit {
			assert.NotEmpty(t, m.NA)
			continue
		}
		assert.Empty(t, m.NA+m.StreamNA, "%s opens sessions and GET streams", m.Server)
		assert.True(t, m.PerSessionKiB.OK() && m.PerStreamKiB.OK(), "%+v", m)
	}
}
