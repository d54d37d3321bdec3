package load

// The goals.
const (
	// TargetCPU is the most CPU per call ours may spend relative to mcp-go.
	TargetCPU = 0.7
	// TargetThroughput is the least pipelined throughput ours must reach
	// relative to mcp-go.
	TargetThroughput = 1.3
	// TargetP99 is the most sequential p99 latency ours may have relative
	// to mcp-go.
	TargetP99 = 1.0
	// TargetStateless is the most CPU per call the 2026-07-28 protocol may
	// cost ours relative to the 2025-11-25 handshake protocol.
	TargetStateless = 1.1
)

// Target statuses.
const (
	StatusPass = "PASS"
	StatusMiss = "MISS"
	// StatusInfo marks a figure shown for comparison, with no goal.
	StatusInfo = "INFO"
	// StatusNone marks a goal that could not be checked (a server or a
	// configuration did not run, or measured zero).
	StatusNone = "N/A"
)

// Target is one of the goals checked against a run.
type Target struct {
	// Goal names the figure and its bound, e.g. "CPU/call ours/mcpgo ≤ 0.7".
	Goal string `json:"goal"`
	// Where is the configuration (or transport and mode) it applies to.
	Where string `json:"where"`
	// Server is the server the figure describes.
	Server string `json:"server"`
	// Value is the measured figure.
	Value Num `json:"value"`
	// Status is PASS, MISS, INFO or N/A.
	Status string `json:"status"`
}

// check returns PASS or MISS for v against bound (v ≤ bound when atMost),
// or N/A when v is missing.
func check(v Num, bound float64, atMost bool) string {
	switch {
	case !v.OK():
		return StatusNone
	case atMost && float64(v) <= bound, !atMost && float64(v) >= bound:
		return StatusPass
	}
	return StatusMiss
}

// targets checks the goals: per configuration against mcp-go, and
// per transport and mode the cost of the stateless protocol.
func targets(results []ConfigResult, ours string) []Target {
	var out []Target
	for i := range results {
		c := &results[i]
		o, peer := c.server(ours), c.server(ServerMCPGo)
		if o == nil || peer == nil || c.Mode == ModeSessions {
			continue
		}
		where := c.Configuration.String()
		cpu := peer.CPURatio.Median
		out = append(out, Target{
			Goal: "CPU/call " + ours + "/mcpgo ≤ 0.7", Where: where, Server: ours,
			Value: cpu, Status: check(cpu, TargetCPU, true),
		})
		switch c.Mode {
		case ModePipelined:
			thr := perRound(o.Rounds, peer.Rounds, func(ours, theirs Measurement) Num {
				return ratio(ours.CallsPerSecond, theirs.CallsPerSecond)
			}).Median
			out = append(out, Target{
				Goal: "calls/s " + ours + "/mcpgo ≥ 1.3", Where: where, Server: ours,
				Value: thr, Status: check(thr, TargetThroughput, false),
			})
		case ModeSequential:
			p99 := ratio(o.Median.P99, peer.Median.P99)
			out = append(out, Target{
				Goal: "p99 " + ours + "/mcpgo ≤ 1", Where: where, Server: ours,
				Value: p99, Status: check(p99, TargetP99, true),
			})
		}
	}
	for i := range results {
		old := &results[i]
		if old.Protocol != Protocol20251125 {
			continue
		}
		for j := range results {
			cur := &results[j]
			if cur.Protocol != Protocol20260728 || cur.Transport != old.Transport || cur.Mode != old.Mode {
				continue
			}
			for _, s := range cur.Servers {
				before := old.server(s.Server)
				if before == nil {
					continue
				}
				v := protocolRatio(before.Rounds, s.Rounds)
				status := StatusInfo
				if s.Server == ours {
					status = check(v, TargetStateless, true)
				}
				out = append(out, Target{
					Goal: "CPU/call 2026-07-28/2025-11-25 ≤ 1.1 (ours)", Where: old.Transport + " " + old.Mode,
					Server: s.Server, Value: v, Status: status,
				})
			}
		}
	}
	return out
}

// protocolRatio is the CPU per call of the rounds cur over that of the
// rounds old, for one server in two configurations that differ in
// protocol: the median of the rounds' ratios when each round of one has its
// turn-mate in the other (Run takes them in turn), else the ratio of the
// medians.
func protocolRatio(old, cur []Measurement) Num {
	if len(old) == len(cur) && len(old) > 0 {
		return perRound(cur, old, func(c, o Measurement) Num { return ratio(c.CPUMsPer1000, o.CPUMsPer1000) }).Median
	}
	return ratio(medianOf(cur).CPUMsPer1000, medianOf(old).CPUMsPer1000)
}
