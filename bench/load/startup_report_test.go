package load

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// figures returns a value function over a fixed table.
func figures(m map[string]Num) func(string) Num {
	return func(s string) Num {
		if v, ok := m[s]; ok {
			return v
		}
		return missing
	}
}

func TestComparisonSetsOursBesideTheBestPeerAndTheLimit(t *testing.T) {
	all := []string{ServerOurs, ServerGoSDK, ServerMCPGo, ServerLimit}
	c := comparison(MeasureSpawn, "stdio 2025-11-25", ServerOurs, all,
		figures(map[string]Num{ServerOurs: 15, ServerGoSDK: 6, ServerMCPGo: 10, ServerLimit: 3}))
	assert.Equal(t, Num(15), c.Ours)
	assert.Equal(t, ServerGoSDK, c.BestPeer, "the peer with the least figure")
	assert.Equal(t, Num(6), c.Best)
	assert.Equal(t, Num(3), c.Limit)
	assert.Equal(t, Num(2.5), c.OverBestPeer)
	assert.Equal(t, Num(5), c.OverLimit)
}

func TestComparisonLeavesMissingWhatDidNotRun(t *testing.T) {
	tests := []struct {
		name            string
		servers         []string
		values          map[string]Num
		wantBest        string
		wantOverPeer    bool
		wantOverLimitOK bool
	}{
		{"no peer ran", []string{ServerOurs, ServerLimit}, map[string]Num{ServerOurs: 4, ServerLimit: 2}, "", false, true},
		{"no limit ran", []string{ServerOurs, ServerMCPGo}, map[string]Num{ServerOurs: 4, ServerMCPGo: 2}, ServerMCPGo, true, false},
		{"a peer without a figure is skipped", []string{ServerOurs, ServerGoSDK, ServerMCPGo, ServerLimit},
			map[string]Num{ServerOurs: 4, ServerGoSDK: missing, ServerMCPGo: 8}, ServerMCPGo, true, false},
		{"ours without a figure", []string{ServerOurs, ServerGoSDK, ServerLimit}, map[string]Num{ServerGoSDK: 2, ServerLimit: 1}, ServerGoSDK, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := comparison(MeasureSession, "http 2025-11-25", ServerOurs, tt.servers, figures(tt.values))
			assert.Equal(t, tt.wantBest, c.BestPeer)
			assert.Equal(t, tt.wantOverPeer, c.OverBestPeer.OK())
			assert.Equal(t, tt.wantOverLimitOK, c.OverLimit.OK())
		})
	}
}

func TestStartupTargetsCheckTheIssuesBounds(t *testing.T) {
	comparisons := []Comparison{
		{Measure: MeasureSpawn, Where: "stdio 2025-11-25", OverBestPeer: 0.85, OverLimit: 1.6},
		{Measure: MeasurePeakRSS, Where: "stdio 2025-11-25", OverBestPeer: 1, OverLimit: 3},
		{Measure: MeasureSession, Where: "http 2025-11-25", OverBestPeer: 0.6, OverLimit: missing},
		{Measure: MeasureStream, Where: "http 2025-11-25", OverBestPeer: missing, OverLimit: missing},
	}
	got := startupTargets(comparisons, ServerOurs)
	type row struct{ goal, status string }
	var rows []row
	for _, tg := range got {
		assert.Equal(t, ServerOurs, tg.Server)
		rows = append(rows, row{tg.Goal, tg.Status})
	}
	assert.Equal(t, []row{
		{"spawn → first call, ms: schemarpc/best peer ≤ 0.9", StatusPass},
		{"spawn → first call, ms: schemarpc/limit ≤ 1.5", StatusMiss},
		{"peak RSS after the first call, MiB: schemarpc/best peer ≤ 1", StatusPass},
		{"RSS per idle session, KiB: schemarpc/best peer ≤ 0.5", StatusMiss},
		{"RSS per GET stream, KiB: schemarpc/best peer ≤ 0.5", StatusNone},
	}, rows)
}

// sampleStartupReport is a small report with every kind of figure.
func sampleStartupReport() *StartupReport {
	rep := &StartupReport{
		Date: "2026-11-27T00:00:00Z", Machine: "go linux/amd64, 2 CPUs", Command: "startload -spawns 3",
		Settings: StartupSettings{Spawns: 3, Sessions: 200, SettleIntervalMs: 50, SettleSamples: 40},
		Ours:     ServerOurs, Servers: []string{ServerOurs, ServerGoSDK, ServerLimit},
		Startup: []StartupResult{{StartupConfiguration: StartupConfiguration{TransportStdio, Protocol20251125}, Servers: []StartupServer{
			{Server: ServerOurs, Spawns: []Spawn{{12, 15, 9, 5}, {10, 15.5, 9.5, 5.5}, {11, 15.2, 9.25, 5.75}}},
			{Server: ServerGoSDK, Spawns: []Spawn{{6, 9.5, 7, 2}, {6.5, 9.4, 7, 2}, {7, 9.6, 7, 2}}},
			// as a report written before the split was measured
			{Server: ServerLimit, Spawns: []Spawn{{Ms: 3, PeakRSSMiB: 5}, {Ms: 2.5, PeakRSSMiB: 5.1}, {Ms: 2.75, PeakRSSMiB: 5}}},
		}}},
		Memory: []IdleMemory{
			{Server: ServerOurs, BaseMiB: 15, SessionsMiB: 17, StreamsMiB: 19, PerSessionKiB: 10.24, PerStreamKiB: 10.24, Unsettled: []string{"with the sessions"}},
			{Server: ServerGoSDK, BaseMiB: 10, SessionsMiB: 40, StreamsMiB: 42, PerSessionKiB: 153.6, PerStreamKiB: 10.24},
			notMeasured(ServerLimit, noSessions[ServerLimit]),
		},
	}
	for i := range rep.Startup {
		rep.Startup[i].summarize()
	}
	rep.Comparisons = rep.compare()
	rep.Targets = startupTargets(rep.Comparisons, rep.Ours)
	return rep
}

func TestStartupReportComparesMediansAndMemory(t *testing.T) {
	rep := sampleStartupReport()
	ours := rep.Startup[0].Servers[0]
	assert.Equal(t, Spread{N: 3, Min: 10, Q1: 10, Median: 11, Q3: 12, Max: 12}, ours.Ms)
	assert.Equal(t, Num(9.25), ours.FileRSSMiB.Median)
	assert.Equal(t, Num(5.5), ours.AnonRSSMiB.Median)
	limit := rep.Startup[0].Servers[2]
	assert.False(t, limit.FileRSSMiB.Median.OK() || limit.AnonRSSMiB.Median.OK(), "spawns without the split leave it missing, not zero")
	require.Len(t, rep.Comparisons, 4)
	spawn := rep.Comparisons[0]
	assert.Equal(t, MeasureSpawn, spawn.Measure)
	assert.Equal(t, "stdio 2025-11-25", spawn.Where)
	assert.Equal(t, Num(11.0/6.5), spawn.OverBestPeer)
	assert.Equal(t, Num(11.0/2.75), spawn.OverLimit)
	session := rep.Comparisons[2]
	assert.Equal(t, MeasureSession, session.Measure)
	assert.Equal(t, "http 2025-11-25", session.Where)
	assert.Equal(t, Num(10.24/153.6), session.OverBestPeer)
	assert.False(t, session.OverLimit.OK(), "the limit server keeps no sessions")
}

func TestWriteStartupRendersEveryTableAndRejectsUnknownFormats(t *testing.T) {
	rep := sampleStartupReport()
	for _, markdown := range []bool{false, true} {
		format := FormatText
		if markdown {
			format = FormatMarkdown
		}
		var buf bytes.Buffer
		require.NoError(t, WriteStartup(&buf, rep, format))
		out := buf.String()
		for _, want := range []string{
			"startload 2026-11-27T00:00:00Z", "command: startload -spawns 3",
			"Spawn → first tools/call", "10.00–12.00", // ours' ms min–max
			"Memory per idle session (http, 2025-11-25, 200 sessions)", noSessions[ServerLimit], "not settled with the sessions",
			"gosdk 6.50", // the best peer beside ours
			"Targets", StatusMiss,
		} {
			assert.Contains(t, out, want, format)
		}
		if markdown {
			assert.Contains(t, out, "| stdio | 2025-11-25 | schemarpc | 11.00 |")
			assert.Contains(t, out, "| file MiB | anon MiB |")
			assert.Contains(t, out, "| 9.25 | 5.50 |", "ours' resident file and anonymous pages")
			assert.Contains(t, out, "| 5.0 | 5.0–5.1 | — | — |", "the limit's spawns did not measure them")
		}
	}
	assert.ErrorContains(t, WriteStartup(&bytes.Buffer{}, rep, "yaml"), `unknown format "yaml"`)
}
