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
