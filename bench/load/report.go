package load

import (
	"encoding/json"
	"math"
	"strconv"
)

// Num is a figure that may be missing (a ratio to a server that did not run
// or measured zero); missing figures are NaN and encode as JSON null.
type Num float64

// missing is the Num of a figure that could not be computed.
var missing = Num(math.NaN())

// OK reports whether n holds a figure.
func (n Num) OK() bool { return !math.IsNaN(float64(n)) && !math.IsInf(float64(n), 0) }

// MarshalJSON encodes a missing figure as null.
func (n Num) MarshalJSON() ([]byte, error) {
	if !n.OK() {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(n), 'g', 6, 64), nil
}

// UnmarshalJSON decodes null as a missing figure.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = missing
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

// ratio is a/b, or missing when either is unusable.
func ratio(a, b float64) Num {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return missing
	}
	return Num(a / b)
}

// medianNum is the median of the figures present in xs.
func medianNum(xs []Num) Num {
	var ok []float64
	for _, x := range xs {
		if x.OK() {
			ok = append(ok, float64(x))
		}
	}
	if len(ok) == 0 {
		return missing
	}
	return Num(Median(ok))
}

// Report is the outcome of a run: the setup, every measurement, the
// summaries and the targets.
type Report struct {
	// Date is when the run started (RFC 3339, UTC).
	Date string `json:"date"`
	// Machine describes where it ran: Go version, OS/arch, CPUs.
	Machine string `json:"machine"`
	// Load is the machine's load average (1, 5, 15 minutes) at the start
	// and at the end of the run: anything well above zero at the start means
	// other work shared the cores.
	Load string `json:"load,omitempty"`
	// Command is the command line, when the caller records it.
	Command string `json:"command,omitempty"`
	// Settings are the run's bounds.
	Settings Settings `json:"settings"`
	// Ours is the server every ratio refers to.
	Ours string `json:"ours"`
	// Servers in run order.
	Servers []string `json:"servers"`
	// Results holds one entry per configuration, in run order.
	Results []ConfigResult `json:"results"`
	// Targets checks the goals against the results.
	Targets []Target `json:"targets"`
}

// Settings are the bounds a run used.
type Settings struct {
	Rounds      int     `json:"rounds"`
	Calls       int64   `json:"max_calls_per_phase"`
	DurationSec float64 `json:"max_seconds_per_phase"`
	Warmup      int64   `json:"warmup_calls"`
	Sessions    int     `json:"sessions"`
	Depth       int     `json:"pipeline_depth"`
	ClockTicks  int     `json:"clock_ticks_per_s"`
}

// ConfigResult is every server's figures in one configuration.
type ConfigResult struct {
	Configuration
	Servers []ServerResult `json:"servers"`
}

// ServerResult is one server's figures in one configuration.
type ServerResult struct {
	Server string `json:"server"`
	// Rounds holds one measurement per round, in order.
	Rounds []Measurement `json:"rounds"`
	// Median holds the median over the rounds of each figure separately.
	Median Measurement `json:"median"`
	// CPURatio is ours/theirs CPU per call, per round and its median: below
	// 1 ours spends less.
	CPURatio Ratio `json:"cpu_ours_over_theirs"`
	// ThroughputRatio is theirs/ours calls per second, per round and its
	// median: below 1 ours is faster.
	ThroughputRatio Ratio `json:"throughput_theirs_over_ours"`
	// CPUOverLimit is this server's median CPU per call over the limit
	// server's: how many times the floor it costs.
	CPUOverLimit Num `json:"cpu_over_limit"`
	// ThroughputOfLimit is this server's median calls per second as a
	// fraction of the limit server's.
	ThroughputOfLimit Num `json:"throughput_of_limit"`
}

// Ratio is a ratio per round and its median.
type Ratio struct {
	Rounds []Num `json:"rounds"`
	Median Num   `json:"median"`
}

// perRound pairs rounds of two servers and takes f of each pair.
func perRound(a, b []Measurement, f func(a, b Measurement) Num) Ratio {
	r := Ratio{Rounds: make([]Num, min(len(a), len(b)))}
	for i := range r.Rounds {
		r.Rounds[i] = f(a[i], b[i])
	}
	r.Median = medianNum(r.Rounds)
	return r
}

// medianOf takes the median of each figure over the rounds.
func medianOf(rounds []Measurement) Measurement {
	pick := func(f func(Measurement) float64) float64 {
		xs := make([]float64, len(rounds))
		for i, m := range rounds {
			xs[i] = f(m)
		}
		return Median(xs)
	}
	return Measurement{
		Calls:          int64(pick(func(m Measurement) float64 { return float64(m.Calls) })),
		WallSeconds:    pick(func(m Measurement) float64 { return m.WallSeconds }),
		CPUSeconds:     pick(func(m Measurement) float64 { return m.CPUSeconds }),
		CPUMsPer1000:   pick(func(m Measurement) float64 { return m.CPUMsPer1000 }),
		CallsPerSecond: pick(func(m Measurement) float64 { return m.CallsPerSecond }),
		P50:            pick(func(m Measurement) float64 { return m.P50 }),
		P90:            pick(func(m Measurement) float64 { return m.P90 }),
		P99:            pick(func(m Measurement) float64 { return m.P99 }),
		PeakRSSMiB:     pick(func(m Measurement) float64 { return m.PeakRSSMiB }),
	}
}

// server returns the result of name, or nil.
func (c *ConfigResult) server(name string) *ServerResult {
	for i := range c.Servers {
		if c.Servers[i].Server == name {
			return &c.Servers[i]
		}
	}
	return nil
}

// summarize fills the medians and the ratios to ours and to the limit server.
func (c *ConfigResult) summarize(ours string) {
	for i := range c.Servers {
		c.Servers[i].Median = medianOf(c.Servers[i].Rounds)
	}
	o := c.server(ours)
	limit := c.server(ServerLimit)
	for i := range c.Servers {
		s := &c.Servers[i]
		s.CPURatio, s.ThroughputRatio = Ratio{Median: missing}, Ratio{Median: missing}
		if o != nil && s != o {
			s.CPURatio = perRound(o.Rounds, s.Rounds, func(ours, theirs Measurement) Num {
				return ratio(ours.CPUMsPer1000, theirs.CPUMsPer1000)
			})
			s.ThroughputRatio = perRound(o.Rounds, s.Rounds, func(ours, theirs Measurement) Num {
				return ratio(theirs.CallsPerSecond, ours.CallsPerSecond)
			})
		}
		s.CPUOverLimit, s.ThroughputOfLimit = missing, missing
		if limit != nil {
			s.CPUOverLimit = ratio(s.Median.CPUMsPer1000, limit.Median.CPUMsPer1000)
			s.ThroughputOfLimit = ratio(s.Median.CallsPerSecond, limit.Median.CallsPerSecond)
		}
	}
}
