package load

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

// noSessions lists the servers that hold no session state, and why: their
// memory per session is not measured.
var noSessions = map[string]string{
	ServerLimit: "keeps no sessions (its session ids are a counter) and serves no GET stream",
}

// IdleMemory is what idle 2025-11-25 sessions cost one server over HTTP:
// its settled RSS (VmRSS) before them, with K sessions open, and with a
// GET stream open on each of them.
type IdleMemory struct {
	Server string `json:"server"`
	// NA says why the server was not measured; its figures are missing.
	NA string `json:"n_a,omitempty"`
	// BaseMiB is the RSS after one session and one call, before the K
	// sessions, so that what the first session starts is not counted.
	BaseMiB Num `json:"base_rss_mib"`
	// SessionsMiB is the RSS with the K sessions open and idle.
	SessionsMiB Num `json:"sessions_rss_mib"`
	// StreamsMiB is the RSS with a GET stream open on each session.
	StreamsMiB Num `json:"streams_rss_mib"`
	// PerSessionKiB is (SessionsMiB − BaseMiB) / K.
	PerSessionKiB Num `json:"per_session_kib"`
	// PerStreamKiB is (StreamsMiB − SessionsMiB) / K: what a GET stream
	// adds to its session.
	PerStreamKiB Num `json:"per_stream_kib"`
	// StreamNA says why the streams were not measured when the sessions were.
	StreamNA string `json:"stream_n_a,omitempty"`
	// Unsettled names the readings taken when SettleSamples ran out before
	// the RSS settled.
	Unsettled []string `json:"unsettled,omitempty"`
}

// notMeasured is the IdleMemory of a server that could not be measured.
func notMeasured(server, why string) IdleMemory {
	return IdleMemory{Server: server, NA: why, BaseMiB: missing, SessionsMiB: missing, StreamsMiB: missing,
		PerSessionKiB: missing, PerStreamKiB: missing}
}

// describe is a one-line summary for progress output.
func (m IdleMemory) describe() string {
	if m.NA != "" {
		return "n/a: " + m.NA
	}
	s := fmt.Sprintf("%s KiB per idle session, %s KiB per GET stream", num(m.PerSessionKiB, 1, ""), num(m.PerStreamKiB, 1, ""))
	if m.StreamNA != "" {
		s += " (" + m.StreamNA + ")"
	}
	if len(m.Unsettled) > 0 {
		s += "; not settled: " + strings.Join(m.Unsettled, ", ")
	}
	return s
}

// idleMemory starts server over HTTP, opens one session and makes one
// call, then opens K more sessions and leaves them idle, then opens a GET
// stream on each, reading the settled RSS at each step.
func (r *startupRunner) idleMemory(ctx context.Context, server string) (IdleMemory, error) {
	if why, ok := noSessions[server]; ok {
		return notMeasured(server, why), nil
	}
	if err := ctx.Err(); err != nil {
		return IdleMemory{}, err
	}
	k := r.cfg.Sessions
	p, err := startHTTP(server, r.programs[server], false)
	if err != nil {
		return IdleMemory{}, err
	}
	defer p.stop()
	// Every request is bounded by CallTimeout and every settling by its
	// samples; this budget covers all of them.
	settling := 3 * time.Duration(r.cfg.SettleSamples) * r.cfg.SettleInterval
	g := guardProcess(ctx, p, time.Duration(3+3*k)*r.cfg.CallTimeout+settling)
	defer g.release()
	m, err := r.measureIdle(ctx, p, k)
	if err != nil {
		if ctx.Err() != nil {
			return IdleMemory{}, ctx.Err() // the failure was the guard's kill
		}
		return IdleMemory{}, g.explain(err)
	}
	return m, nil
}

// measureIdle does the work of idleMemory on the started server p.
func (r *startupRunner) measureIdle(ctx context.Context, p *process, k int) (IdleMemory, error) {
	m := IdleMemory{Server: p.name, PerStreamKiB: missing, StreamsMiB: missing}
	transport := newHTTPTransport()
	defer transport.CloseIdleConnections()
	hc := &http.Client{Transport: transport, Timeout: r.cfg.CallTimeout}
	first := newHTTPClient(hc, p.url, Protocol20251125)
	if err := first.handshake(ctx); err != nil {
		return m, fmt.Errorf("first session: %w", err)
	}
	if _, err := first.call(ctx, nil, 1, CallAt(1)); err != nil {
		return m, fmt.Errorf("first session's call: %w", err)
	}
	rss := func(stage string) (Num, error) {
		v, ok, err := settle(ctx, func() (int64, error) { return RSS(p.pid()) }, r.cfg.SettleInterval, r.cfg.SettleSamples)
		if err != nil {
			return missing, fmt.Errorf("reading the RSS %s: %w", stage, err)
		}
		if !ok {
			m.Unsettled = append(m.Unsettled, stage)
		}
		return Num(float64(v) / (1 << 20)), nil
	}
	var err error
	if m.BaseMiB, err = rss("before the sessions"); err != nil {
		return m, err
	}
	clients := make([]*httpClient, k)
	for i := range clients {
		clients[i] = newHTTPClient(hc, p.url, Protocol20251125)
		if err := clients[i].handshake(ctx); err != nil {
			return m, fmt.Errorf("session %d: %w", i+1, err)
		}
	}
	if m.SessionsMiB, err = rss("with the sessions"); err != nil {
		return m, err
	}
	m.PerSessionKiB = (m.SessionsMiB - m.BaseMiB) * 1024 / Num(k)

	// A stream stays open, so its client has no overall timeout; the
	// transport bounds the wait for its headers.
	streams := &http.Transport{ResponseHeaderTimeout: r.cfg.CallTimeout, DisableCompression: true}
	defer streams.CloseIdleConnections()
	sctx, endStreams := context.WithCancel(ctx)
	defer endStreams()
	var bodies []io.Closer
	defer func() {
		for _, b := range bodies {
			b.Close()
		}
	}()
	for i, c := range clients {
		resp, err := c.openStream(sctx, &http.Client{Transport: streams})
		if err != nil {
			return m, fmt.Errorf("GET stream of session %d: %w", i+1, err)
		}
		if why := notAStream(resp); why != "" {
			drain(resp)
			if i == 0 {
				m.StreamNA = "a GET stream is refused: " + why
				return m, nil
			}
			return m, fmt.Errorf("GET stream of session %d: %s, though the first %d opened", i+1, why, i)
		}
		bodies = append(bodies, resp.Body)
	}
	if m.StreamsMiB, err = rss("with the GET streams"); err != nil {
		return m, err
	}
	m.PerStreamKiB = (m.StreamsMiB - m.SessionsMiB) * 1024 / Num(k)
	return m, nil
}

// notAStream says why resp does not open an event stream, or "" when it does.
func notAStream(resp *http.Response) string {
	if resp.StatusCode != http.StatusOK {
		return "HTTP status " + resp.Status
	}
	if ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); ct != "text/event-stream" {
		return fmt.Sprintf("Content-Type %q", resp.Header.Get("Content-Type"))
	}
	return ""
}
