package load_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/bench/load"
)

func TestMeasureEndpointRefusesWhatItCannotMeasure(t *testing.T) {
	ok := load.Configuration{Transport: load.TransportHTTP, Protocol: load.Protocol20251125, Mode: load.ModeSessions}
	self := load.Endpoint{URL: "http://127.0.0.1:1/mcp", PIDs: []int{os.Getpid()}}
	for _, tc := range []struct {
		name string
		cfg  func(*load.Config)
		e    load.Endpoint
		conf load.Configuration
		want string
	}{
		{"stdio", nil, self, load.Configuration{Transport: load.TransportStdio, Protocol: ok.Protocol, Mode: ok.Mode}, "measured over http"},
		{"unknown protocol", nil, self, load.Configuration{Transport: load.TransportHTTP, Protocol: "1999-01-01", Mode: ok.Mode}, "1999-01-01"},
		{"no process", nil, load.Endpoint{URL: self.URL}, ok, "at least one process"},
		{"no calls", func(c *load.Config) { c.Calls = 0 }, self, ok, "calls must be at least 1"},
		{"nobody there", nil, self, ok, "session 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := load.QuickConfig()
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			_, err := load.MeasureEndpoint(context.Background(), cfg, tc.e, tc.conf)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
