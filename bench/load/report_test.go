package load

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rounds builds measurements from (CPU ms/1k, calls/s, p99) triples.
func rounds(figures ...[3]float64) []Measurement {
	out := make([]Measurement, len(figures))
	for i, f := range figures {
		out[i] = Measurement{Calls: 1000, CPUMsPer1000: f[0], CallsPerSecond: f[1], P99: f[2]}
	}
	return out
}

func sampleResult(conf Configuration) ConfigResult {
	return ConfigResult{Configuration: conf, Servers: []ServerResult{
		{Server: ServerOurs, Rounds: rounds([3]float64{10, 2000, 100}, [3]float64{12, 1800, 120}, [3]float64{11, 1900, 90})},
		{Server: ServerMCPGo, Rounds: rounds([3]float64{20, 1000, 80}, [3]float64{20, 1200, 110}, [3]float64{10, 1900, 100})},
		{Server: ServerLimit, Rounds: rounds([3]float64{2, 8000, 20}, [3]float64{2, 8000, 20}, [3]float64{2, 8000, 20})},
	}}
}

func TestSummarizeTakesMediansAndPerRoundRatios(t *testing.T) {
	c := sampleResult(Configuration{TransportStdio, Protocol20251125, ModePipelined})
	c.summarize(ServerOurs)
	ours, peer := c.server(ServerOurs), c.server(ServerMCPGo)

	assert.Equal(t, 11.0, ours.Median.CPUMsPer1000)
	assert.Equal(t, 1900.0, ours.Median.CallsPerSecond)
	assert.Equal(t, 100.0, ours.Median.P99)

	assert.Equal(t, []Num{0.5, 0.6, 1.1}, peer.CPURatio.Rounds, "CPU ours/theirs per round")
	assert.InDelta(t, 0.6, float64(peer.CPURatio.Median), 1e-9)
	assert.Equal(t, []Num{0.5, Num(1200.0 / 1800), 1}, peer.ThroughputRatio.Rounds, "calls/s theirs/ours per round")

	assert.False(t, ours.CPURatio.Median.OK(), "ours has no ratio to itself")
	assert.Empty(t, ours.CPURatio.Rounds)
	assert.InDelta(t, 5.5, float64(ours.CPUOverLimit), 1e-9)
	assert.InDelta(t, 1900.0/8000, float64(ours.ThroughputOfLimit), 1e-9)
	assert.InDelta(t, 1.0, float64(c.server(ServerLimit).CPUOverLimit), 1e-9)
}

func TestSummarizeWithoutOursOrLimitLeavesRatiosMissing(t *testing.T) {
	c := ConfigResult{Servers: []ServerResult{{Server: ServerGoSDK, Rounds: rounds([3]float64{1, 1, 1})}}}
	c.summarize(ServerOurs)
	s := c.Servers[0]
	assert.False(t, s.CPURatio.Median.OK())
	assert.False(t, s.ThroughputRatio.Median.OK())
	assert.False(t, s.CPUOverLimit.OK())
	assert.False(t, s.ThroughputOfLimit.OK())
}

func TestRatioOfZeroOrNaNIsMissing(t *testing.T) {
	assert.False(t, ratio(1, 0).OK())
	assert.False(t, ratio(math.NaN(), 1).OK())
	assert.Equal(t, Num(0.5), ratio(1, 2))
	assert.Equal(t, Num(2), medianNum([]Num{missing, 1, 3, missing}), "missing rounds are left out of the median")
	assert.False(t, medianNum([]Num{missing}).OK())
}

func TestNumEncodesMissingAsNull(t *testing.T) {
	data, err := json.Marshal([]Num{1.5, missing, Num(math.Inf(1))})
	require.NoError(t, err)
	assert.JSONEq(t, `[1.5, null, null]`, string(data))
	var back []Num
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Equal(t, Num(1.5), back[0])
	assert.False(t, back[1].OK())
	assert.Error(t, json.Unmarshal([]byte(`["x"]`), &back))
}

func TestCheckComparesAgainstTheBound(t *testing.T) {
	tests := []struct {
		v      Num
		bound  float64
		atMost bool
		want   string
	}{
		{0.6, 0.7, true, StatusPass},
		{0.7, 0.7, true, StatusPass},
		{0.8, 0.7, true, StatusMiss},
		{1.4, 1.3, false, StatusPass},
		{1.2, 1.3, false, StatusMiss},
		{missing, 1, true, StatusNone},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, check(tt.v, tt.bound, tt.atMost), "%v against %v (at most: %v)", tt.v, tt.bound, tt.atMost)
	}
}

func TestTargetsCheckTheIssuesGoals(t *testing.T) {
	var results []ConfigResult
	for _, p := range []string{Protocol20251125, Protocol20260728} {
		for _, m := range []string{ModeSequential, ModePipelined, ModeSessions} {
			c := sampleResult(Configuration{TransportHTTP, p, m})
			if p == Protocol20260728 {
				for i := range c.Servers {
					for j := range c.Servers[i].Rounds {
						c.Servers[i].Rounds[j].CPUMsPer1000 *= 1.05
					}
				}
				c.server(ServerMCPGo).Rounds[0].CPUMsPer1000 *= 2
			}
			c.summarize(ServerOurs)
			results = append(results, c)
		}
	}
	got := map[string]Target{}
	for _, tg := range targets(results, ServerOurs) {
		got[tg.Goal+" @ "+tg.Where+" @ "+tg.Server] = tg
	}
	want := map[string]string{
		"CPU/call schemarpc/mcpgo ≤ 0.7 @ http 2025-11-25 sequential @ schemarpc":   StatusPass, // median 0.6
		"p99 schemarpc/mcpgo ≤ 1 @ http 2025-11-25 sequential @ schemarpc":          StatusPass, // 100/100
		"CPU/call schemarpc/mcpgo ≤ 0.7 @ http 2025-11-25 pipelined @ schemarpc":    StatusPass,
		"calls/s schemarpc/mcpgo ≥ 1.3 @ http 2025-11-25 pipelined @ schemarpc":     StatusPass, // median of 2, 1.5, 1
		"CPU/call 2026-07-28/2025-11-25 ≤ 1.1 (ours) @ http sequential @ schemarpc": StatusPass, // 1.05
		"CPU/call 2026-07-28/2025-11-25 ≤ 1.1 (ours) @ http sessions @ schemarpc":   StatusPass,
		"CPU/call 2026-07-28/2025-11-25 ≤ 1.1 (ours) @ http pipelined @ mcpgo":      StatusInfo,
	}
	for key, status := range want {
		tg, ok := got[key]
		if assert.True(t, ok, "no target %q", key) {
			assert.Equal(t, status, tg.Status, key)
		}
	}
	for key := range got {
		assert.NotContains(t, key, "sessions @ schemarpc/mcpgo", "sessions mode has no goal against mcpgo")
	}
	assert.InDelta(t, 1.5, float64(got["calls/s schemarpc/mcpgo ≥ 1.3 @ http 2025-11-25 pipelined @ schemarpc"].Value), 1e-9)
}

// TestProtocolRatioPairsTheRoundsTakenInTurn pins that the protocol ratio
// is the median of round-by-round ratios, which a drift of the machine's
// load between rounds moves less than the ratio of the medians would.
func TestProtocolRatioPairsTheRoundsTakenInTurn(t *testing.T) {
	cpu := func(xs ...float64) []Measurement {
		out := make([]Measurement, len(xs))
		for i, x := range xs {
			out[i].CPUMsPer1000 = x
		}
		return out
	}
	// Round by round: 1.2, 1.0, 3.0; the medians' ratio would be 30/20.
	assert.InDelta(t, 1.2, float64(protocolRatio(cpu(10, 30, 20), cpu(12, 30, 60))), 1e-9)
	// Rounds that cannot be paired: the medians' ratio.
	assert.InDelta(t, 1.5, float64(protocolRatio(cpu(10, 30, 20), cpu(30, 30))), 1e-9)
	assert.False(t, protocolRatio(nil, nil).OK())
	assert.False(t, protocolRatio(cpu(0), cpu(1)).OK(), "a round that measured no CPU gives no ratio")
}

func TestTargetsNeedOursAndMCPGo(t *testing.T) {
	c := sampleResult(Configuration{TransportStdio, Protocol20251125, ModeSequential})
	c.Servers = c.Servers[:1]
	c.summarize(ServerOurs)
	for _, tg := range targets([]ConfigResult{c}, ServerOurs) {
		assert.NotContains(t, tg.Goal, "/mcpgo")
	}
}

func TestWriteRendersTablesAndRejectsUnknownFormats(t *testing.T) {
	c := sampleResult(Configuration{TransportStdio, Protocol20251125, ModePipelined})
	c.summarize(ServerOurs)
	rep := &Report{Date: "2026-11-22T00:00:00Z", Machine: "go1.26.8 linux/amd64, 2 CPUs", Command: "mcpload -rounds 3",
		Ours: ServerOurs, Servers: []string{ServerOurs, ServerMCPGo, ServerLimit}, Results: []ConfigResult{c}}
	rep.Targets = targets(rep.Results, rep.Ours)

	var text bytes.Buffer
	require.NoError(t, Write(&text, rep, FormatText))
	assert.Contains(t, text.String(), "stdio · 2025-11-25 · pipelined")
	assert.Contains(t, text.String(), "0.50 0.60 1.10 → 0.60", "per-round CPU ratios, then the median")
	assert.Contains(t, text.String(), "command: mcpload -rounds 3")
	assert.Contains(t, text.String(), "PASS")

	var md bytes.Buffer
	require.NoError(t, Write(&md, rep, FormatMarkdown))
	assert.Contains(t, md.String(), "### stdio · 2025-11-25 · pipelined")
	assert.Contains(t, md.String(), "| schemarpc | 1900 |")
	assert.Contains(t, md.String(), "|---|")

	assert.ErrorContains(t, Write(&bytes.Buffer{}, rep, "yaml"), `unknown format "yaml"`)
}
