package load

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"time"
)

// Measurement is what one measured phase of one server cost.
type Measurement struct {
	// Calls is the number of verified calls in the phase.
	Calls int64 `json:"calls"`
	// WallSeconds is the phase's wall time.
	WallSeconds float64 `json:"wall_s"`
	// CPUSeconds is the server's user+system CPU time during the phase.
	CPUSeconds float64 `json:"cpu_s"`
	// CPUMsPer1000 is the server's CPU milliseconds per 1000 calls.
	CPUMsPer1000 float64 `json:"cpu_ms_per_1000"`
	// CallsPerSecond is Calls over WallSeconds.
	CallsPerSecond float64 `json:"calls_per_s"`
	// P50, P90 and P99 are latency percentiles in microseconds, from the
	// write of a request to the verified reply.
	P50 float64 `json:"p50_us"`
	P90 float64 `json:"p90_us"`
	P99 float64 `json:"p99_us"`
	// PeakRSSMiB is the server's peak resident set size (VmHWM) at the end.
	PeakRSSMiB float64 `json:"peak_rss_mib"`
}

// newMeasurement turns a phase, the server's CPU ticks during it, the clock
// rate and the peak RSS in bytes into a Measurement.
func newMeasurement(ph phase, ticks int64, clockTicks int, rss int64) Measurement {
	lat := slices.Clone(ph.latencies)
	slices.Sort(lat)
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	cpu := float64(ticks) / float64(clockTicks)
	n := float64(len(lat))
	return Measurement{
		Calls:          int64(len(lat)),
		WallSeconds:    ph.wall.Seconds(),
		CPUSeconds:     cpu,
		CPUMsPer1000:   cpu * 1000 / n * 1000,
		CallsPerSecond: n / ph.wall.Seconds(),
		P50:            us(Percentile(lat, 50)),
		P90:            us(Percentile(lat, 90)),
		P99:            us(Percentile(lat, 99)),
		PeakRSSMiB:     float64(rss) / (1 << 20),
	}
}

// runner measures servers one phase at a time.
type runner struct {
	cfg        Config
	programs   map[string]string
	clockTicks int
}

// measure starts a fresh process of server, sets up the clients of conf,
// warms up, measures one phase and stops the process.
func (r *runner) measure(ctx context.Context, server string, conf Configuration) (Measurement, error) {
	var (
		p   *process
		err error
	)
	if conf.Transport == TransportStdio {
		p, err = startStdio(server, r.programs[server])
	} else {
		p, err = startHTTP(server, r.programs[server], conf.Protocol == Protocol20260728)
	}
	if err != nil {
		return Measurement{}, err
	}
	defer p.stop()

	// Nothing below may outlive this budget: a server that stops answering
	// is killed, which ends every read. Cancelling the run does the same.
	budget := 3*r.cfg.CallTimeout + 2*r.cfg.Duration + time.Duration(r.cfg.Sessions)*r.cfg.CallTimeout
	g := guardProcess(ctx, p, budget)
	defer g.release()

	var (
		ph         phase
		cpu0, cpu1 int64
	)
	if conf.Transport == TransportStdio {
		ph, cpu0, cpu1, err = r.measureStdio(p, conf)
	} else {
		ph, cpu0, cpu1, err = r.measureHTTP(ctx, p, conf)
	}
	if err == nil && ph.calls() == 0 {
		err = fmt.Errorf("no call completed within %v", r.cfg.Duration)
	}
	if err != nil {
		return Measurement{}, g.explain(err)
	}
	rss, err := PeakRSS(p.pid())
	if err != nil {
		return Measurement{}, fmt.Errorf("reading peak RSS: %w", err)
	}
	return newMeasurement(ph, cpu1-cpu0, r.clockTicks, rss), nil
}

// measured runs the warm-up, then samples the server's CPU around one
// measured phase run by do.
func (r *runner) measured(pid int, do func(lim limits) (phase, error)) (ph phase, cpu0, cpu1 int64, err error) {
	return r.measuredAll([]int{pid}, do)
}

// measuredAll is measured with the CPU of several processes summed.
func (r *runner) measuredAll(pids []int, do func(lim limits) (phase, error)) (ph phase, cpu0, cpu1 int64, err error) {
	if r.cfg.Warmup > 0 {
		if _, err = do(limits{calls: r.cfg.Warmup, deadline: time.Now().Add(r.cfg.Duration / 2)}); err != nil {
			return ph, 0, 0, fmt.Errorf("warm-up: %w", err)
		}
	}
	if cpu0, err = cpuOf(pids); err != nil {
		return ph, 0, 0, err
	}
	ph, err = do(limits{calls: r.cfg.Calls, deadline: time.Now().Add(r.cfg.Duration)})
	if err != nil {
		return ph, 0, 0, err
	}
	cpu1, err = cpuOf(pids)
	return ph, cpu0, cpu1, err
}

func (r *runner) measureStdio(p *process, conf Configuration) (phase, int64, int64, error) {
	c := newStdioClient(p, conf.Protocol)
	if err := c.handshake(); err != nil {
		return phase{}, 0, 0, err
	}
	depth := 1
	if conf.Mode == ModePipelined {
		depth = r.cfg.Depth
	}
	var next int64
	return r.measured(p.pid(), func(lim limits) (phase, error) { return c.run(depth, &next, lim) })
}

func (r *runner) measureHTTP(ctx context.Context, p *process, conf Configuration) (phase, int64, int64, error) {
	transport := newHTTPTransport()
	defer transport.CloseIdleConnections()
	hc := &http.Client{Transport: transport, Timeout: r.cfg.CallTimeout}
	sessions, workers := 1, 1
	switch conf.Mode {
	case ModePipelined:
		workers = r.cfg.Depth
	case ModeSessions:
		sessions = r.cfg.Sessions
	}
	clients := make([]*httpClient, sessions)
	for i := range clients {
		clients[i] = newHTTPClient(hc, p.url, conf.Protocol)
		if err := clients[i].handshake(ctx); err != nil {
			return phase{}, 0, 0, fmt.Errorf("session %d: %w", i+1, err)
		}
	}
	var next atomic.Int64
	return r.measured(p.pid(), func(lim limits) (phase, error) { return runHTTP(ctx, clients, workers, &next, lim) })
}
