package load

import "slices"

// StartupReport is the outcome of a start-up and idle-memory run: the
// setup, every spawn, the memory figures, the ratios of ours to the best
// peer and to the limit server, and the targets.
type StartupReport struct {
	// Date is when the run started (RFC 3339, UTC).
	Date string `json:"date"`
	// Machine describes where it ran: Go version, OS/arch, CPUs.
	Machine string `json:"machine"`
	// Load is the machine's load average at the start and at the end.
	Load string `json:"load,omitempty"`
	// Command is the command line, when the caller records it.
	Command string `json:"command,omitempty"`
	// Settings are the run's counts and bounds.
	Settings StartupSettings `json:"settings"`
	// Ours is the server every ratio describes.
	Ours string `json:"ours"`
	// Servers in spawn order.
	Servers []string `json:"servers"`
	// Startup holds one entry per configuration.
	Startup []StartupResult `json:"startup"`
	// Memory holds one entry per server (none when Sessions was 0).
	Memory []IdleMemory `json:"memory,omitempty"`
	// Comparisons put ours beside the best peer and the limit server, one
	// per measure and configuration.
	Comparisons []Comparison `json:"comparisons"`
	// Targets checks the goals against the comparisons.
	Targets []Target `json:"targets"`
}

// StartupSettings are the counts and bounds a run used.
type StartupSettings struct {
	Spawns           int     `json:"spawns"`
	Sessions         int     `json:"sessions"`
	SettleIntervalMs float64 `json:"settle_interval_ms"`
	SettleSamples    int     `json:"settle_samples"`
}

// StartupResult is every server's spawns in one configuration.
type StartupResult struct {
	StartupConfiguration
	Servers []StartupServer `json:"servers"`
}

// StartupServer is one server's spawns in one configuration.
type StartupServer struct {
	Server string `json:"server"`
	// Spawns holds every measured spawn, in order.
	Spawns []Spawn `json:"spawns"`
	// Ms and PeakRSSMiB describe the spawns' times and peak RSS.
	Ms         Spread `json:"ms"`
	PeakRSSMiB Spread `json:"peak_rss_mib"`
	// FileRSSMiB and AnonRSSMiB describe the spawns' resident file and
	// anonymous pages (missing for spawns that did not measure them).
	FileRSSMiB Spread `json:"file_rss_mib"`
	AnonRSSMiB Spread `json:"anon_rss_mib"`
}

// summarize fills every server's spreads from its spawns.
func (c *StartupResult) summarize() {
	for i := range c.Servers {
		s := &c.Servers[i]
		ms := make([]float64, len(s.Spawns))
		rss := make([]float64, len(s.Spawns))
		var file, anon []float64
		for j, sp := range s.Spawns {
			ms[j], rss[j] = sp.Ms, sp.PeakRSSMiB
			if sp.FileRSSMiB > 0 || sp.AnonRSSMiB > 0 {
				file, anon = append(file, sp.FileRSSMiB), append(anon, sp.AnonRSSMiB)
			}
		}
		s.Ms, s.PeakRSSMiB = spreadOf(ms), spreadOf(rss)
		s.FileRSSMiB, s.AnonRSSMiB = spreadOf(file), spreadOf(anon)
	}
}

// The measures a Comparison can describe.
const (
	MeasureSpawn   = "spawn → first call, ms"
	MeasurePeakRSS = "peak RSS after the first call, MiB"
	MeasureSession = "RSS per idle session, KiB"
	MeasureStream  = "RSS per GET stream, KiB"
)

// Comparison puts ours beside the best peer and the limit server on one
// measure in one configuration; every figure is a median, and less is
// better.
type Comparison struct {
	Measure string `json:"measure"`
	Where   string `json:"where"`
	Ours    Num    `json:"ours"`
	// BestPeer is the peer library (neither ours nor the limit server)
	// with the least figure, and Best that figure.
	BestPeer string `json:"best_peer,omitempty"`
	Best     Num    `json:"best_peer_value"`
	Limit    Num    `json:"limit"`
	// OverBestPeer and OverLimit are ours over Best and over Limit.
	OverBestPeer Num `json:"ours_over_best_peer"`
	OverLimit    Num `json:"ours_over_limit"`
}

// comparison compares ours with the others on values, a server's figure by
// name (missing when it has none).
func comparison(measure, where, ours string, servers []string, value func(server string) Num) Comparison {
	c := Comparison{Measure: measure, Where: where, Ours: value(ours), Best: missing, Limit: missing}
	if slices.Contains(servers, ServerLimit) && ours != ServerLimit {
		c.Limit = value(ServerLimit)
	}
	for _, s := range servers {
		if s == ours || s == ServerLimit {
			continue
		}
		if v := value(s); v.OK() && (!c.Best.OK() || v < c.Best) {
			c.BestPeer, c.Best = s, v
		}
	}
	c.OverBestPeer = ratio(float64(c.Ours), float64(c.Best))
	c.OverLimit = ratio(float64(c.Ours), float64(c.Limit))
	return c
}

// compare lists the comparisons of the run: spawn time and peak RSS per
// configuration, then memory per session and per stream.
func (rep *StartupReport) compare() []Comparison {
	var out []Comparison
	for _, res := range rep.Startup {
		of := func(pick func(StartupServer) Spread) func(string) Num {
			return func(server string) Num {
				for _, s := range res.Servers {
					if s.Server == server {
						return pick(s).Median
					}
				}
				return missing
			}
		}
		where := res.StartupConfiguration.String()
		out = append(out,
			comparison(MeasureSpawn, where, rep.Ours, rep.Servers, of(func(s StartupServer) Spread { return s.Ms })),
			comparison(MeasurePeakRSS, where, rep.Ours, rep.Servers, of(func(s StartupServer) Spread { return s.PeakRSSMiB })))
	}
	if len(rep.Memory) == 0 {
		return out
	}
	of := func(pick func(IdleMemory) Num) func(string) Num {
		return func(server string) Num {
			for _, m := range rep.Memory {
				if m.Server == server {
					return pick(m)
				}
			}
			return missing
		}
	}
	where := TransportHTTP + " " + Protocol20251125
	return append(out,
		comparison(MeasureSession, where, rep.Ours, rep.Servers, of(func(m IdleMemory) Num { return m.PerSessionKiB })),
		comparison(MeasureStream, where, rep.Ours, rep.Servers, of(func(m IdleMemory) Num { return m.PerStreamKiB })))
}
