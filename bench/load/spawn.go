package load

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// Spawn is one start of one server, timed from the spawn of its process to
// the verified reply of its first tools/call.
type Spawn struct {
	// Ms is that time in milliseconds: the process's start, its package
	// init, the handshake (2025-11-25) and the call.
	Ms float64 `json:"ms"`
	// PeakRSSMiB is the process's peak resident set size (VmHWM) right
	// after that reply, read before the process is told to exit.
	PeakRSSMiB float64 `json:"peak_rss_mib"`
	// FileRSSMiB and AnonRSSMiB split what is resident at that moment
	// (not the peak) into pages of files (RssFile: the executable, whose
	// size a library's code sets, and its shared libraries) and anonymous
	// pages (RssAnon: heap, stacks, the runtime's metadata). Reports
	// written before they were measured leave them out.
	FileRSSMiB float64 `json:"file_rss_mib,omitempty"`
	AnonRSSMiB float64 `json:"anon_rss_mib,omitempty"`
}

// spawn starts a fresh process of server for conf, makes its first
// tools/call (after the handshake in 2025-11-25) and stops it. The clock
// starts before the process is spawned and stops when the reply is read;
// over HTTP the process is given port 0 and the clock includes the wait
// for its announcement.
func (r *startupRunner) spawn(ctx context.Context, server string, conf StartupConfiguration) (Spawn, error) {
	if err := ctx.Err(); err != nil {
		return Spawn{}, err
	}
	program := r.programs[server]
	start := time.Now()
	var (
		p   *process
		err error
	)
	if conf.Transport == TransportStdio {
		p, err = startStdio(server, program)
	} else {
		p, err = startHTTP(server, program, conf.Protocol == Protocol20260728)
	}
	if err != nil {
		return Spawn{}, err
	}
	defer p.stop()
	g := guardProcess(ctx, p, 3*r.cfg.CallTimeout)
	defer g.release()
	if conf.Transport == TransportStdio {
		err = firstCallStdio(p, conf.Protocol, r.cfg.CallTimeout)
	} else {
		err = firstCallHTTP(ctx, p.url, conf.Protocol, r.cfg.CallTimeout)
	}
	elapsed := time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return Spawn{}, ctx.Err() // the failure was the guard's kill
		}
		return Spawn{}, g.explain(err)
	}
	res, err := ResidentOf(p.pid())
	if err != nil {
		return Spawn{}, fmt.Errorf("reading the resident set: %w", err)
	}
	return Spawn{
		Ms:         float64(elapsed) / float64(time.Millisecond),
		PeakRSSMiB: mib(res.Peak), FileRSSMiB: mib(res.File), AnonRSSMiB: mib(res.Anon),
	}, nil
}

// firstCallStdio makes the handshake of protocol, if it has one, and one
// verified tools/call over p's stdio.
func firstCallStdio(p *process, protocol string, timeout time.Duration) error {
	c := newStdioClient(p, protocol)
	if err := c.handshake(); err != nil {
		return err
	}
	var next int64
	_, err := c.run(1, &next, limits{calls: 1, deadline: time.Now().Add(timeout)})
	return err
}

// firstCallHTTP makes the handshake of protocol, if it has one, and one
// verified tools/call at url, over a connection of its own.
func firstCallHTTP(ctx context.Context, url, protocol string, timeout time.Duration) error {
	transport := newHTTPTransport()
	defer transport.CloseIdleConnections()
	c := newHTTPClient(&http.Client{Transport: transport, Timeout: timeout}, url, protocol)
	if err := c.handshake(ctx); err != nil {
		return err
	}
	_, err := c.call(ctx, nil, 1, CallAt(1))
	return err
}

// mib is n bytes in MiB.
func mib(n int64) float64 { return float64(n) / (1 << 20) }
