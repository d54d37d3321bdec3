package load

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
)

// Endpoint is a Streamable HTTP endpoint started by someone else than the
// driver: several replicas behind a proxy, say. Its cost is the CPU of the
// processes it names.
type Endpoint struct {
	// URL is the endpoint, e.g. http://127.0.0.1:3001/mcp.
	URL string
	// PIDs are the processes whose user+system CPU a measurement sums.
	PIDs []int
}

// MeasureEndpoint measures one phase against e after a warm-up, as Run
// measures an HTTP configuration: the 2025-11-25 protocol over sessions of
// their own, 2026-07-28 stateless; sequential, pipelined (Depth calls in
// flight) or sessions mode (Sessions clients at once). Only Calls,
// Duration, Warmup, Sessions, Depth and CallTimeout of cfg apply. The
// peak RSS is not measured (zero).
func MeasureEndpoint(ctx context.Context, cfg Config, e Endpoint, conf Configuration) (Measurement, error) {
	if conf.Transport != TransportHTTP {
		return Measurement{}, fmt.Errorf("an endpoint is measured over %s, not %s", TransportHTTP, conf.Transport)
	}
	if err := checkProtocol(conf.Protocol); err != nil {
		return Measurement{}, err
	}
	if len(e.PIDs) == 0 {
		return Measurement{}, errors.New("an endpoint needs at least one process to measure")
	}
	if err := cfg.validatePhase(); err != nil {
		return Measurement{}, err
	}
	transport := newHTTPTransport()
	defer transport.CloseIdleConnections()
	hc := &http.Client{Transport: transport, Timeout: cfg.CallTimeout}
	sessions, workers := 1, 1
	switch conf.Mode {
	case ModePipelined:
		workers = cfg.Depth
	case ModeSessions:
		sessions = cfg.Sessions
	}
	clients := make([]*httpClient, sessions)
	for i := range clients {
		clients[i] = newHTTPClient(hc, e.URL, conf.Protocol)
		if err := clients[i].handshake(ctx); err != nil {
			return Measurement{}, fmt.Errorf("session %d: %w", i+1, err)
		}
	}
	var next atomic.Int64
	r := &runner{cfg: cfg, clockTicks: ClockTicks()}
	ph, cpu0, cpu1, err := r.measuredAll(e.PIDs, func(lim limits) (phase, error) { return runHTTP(ctx, clients, workers, &next, lim) })
	if err == nil && ph.calls() == 0 {
		err = fmt.Errorf("no call completed within %v", cfg.Duration)
	}
	if err != nil {
		return Measurement{}, err
	}
	return newMeasurement(ph, cpu1-cpu0, r.clockTicks, 0), nil
}

// cpuOf sums the CPU ticks of pids.
func cpuOf(pids []int) (int64, error) {
	var sum int64
	for _, pid := range pids {
		n, err := CPUTicks(pid)
		if err != nil {
			return 0, fmt.Errorf("process %d: %w", pid, err)
		}
		sum += n
	}
	return sum, nil
}
