package load

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
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
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 10 {
		t.Fatalf("%d configurations, want 10", len(rep.Results))
	}
	for _, c := range rep.Results {
		for _, s := range c.Servers {
			if s.Median.Calls == 0 {
				t.Errorf("%s %s: no calls", c.Configuration, s.Server)
			}
		}
	}
}
