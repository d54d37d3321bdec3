package mcp

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// getReadyTimeout bounds how long sending notifications/initialized waits
// for the server to answer the GET that opens the session's stream.
const getReadyTimeout = 2 * time.Second

// getStream is the running GET stream of a handshake-era session.
type getStream struct {
	stop context.CancelFunc
}

// startGet opens the session's GET stream, which carries what the server
// sends outside any request, unless one runs already. It returns once the
// server answered the first GET (or refused it, or ctx ended, or
// getReadyTimeout passed): servers drop what they send outside a request
// while no GET stream is open, so the client's next request must not
// overtake the stream's opening.
func (l *httpLink) startGet(ctx context.Context) {
	l.mu.Lock()
	if l.closed || l.sse != nil || l.getStop != nil {
		l.mu.Unlock()
		return
	}
	gctx, cancel := context.WithCancel(l.ctx)
	g := &getStream{stop: cancel}
	l.getStop = g
	sid := l.sessionID
	ready := make(chan struct{})
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer cancel()
		l.runGet(gctx, sid, ready)
		l.mu.Lock()
		if l.getStop == g {
			l.getStop = nil
		}
		l.mu.Unlock()
	}()
	l.mu.Unlock()
	t := time.NewTimer(getReadyTimeout)
	defer t.Stop()
	select {
	case <-ready:
	case <-ctx.Done():
	case <-t.C:
	}
}

// stopGet ends the GET stream; l.mu is held.
func (l *httpLink) stopGet() {
	if l.getStop != nil {
		l.getStop.stop()
		l.getStop = nil
	}
}

// runGet keeps the GET stream of session sid open, closing ready once
// the first GET is answered: when it drops it is
// reopened with Last-Event-ID after the server's retry delay, until
// MaxReconnects connections in a row bring nothing. A server offering no
// GET stream (405) is left alone; one that refuses otherwise is logged.
func (l *httpLink) runGet(ctx context.Context, sid string, ready chan struct{}) {
	defer closeOnce(ready)
	st := &streamState{}
	for failures, first := 0, true; failures <= l.maxReconnects; first = false {
		if !first && !sleepCtx(ctx, st.delay()) {
			return
		}
		resp, err := l.get(ctx, st.lastID)
		closeOnce(ready)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			l.log.Debug("mcp: the GET stream could not be opened", "error", err)
			failures++
			continue
		}
		switch {
		case resp.StatusCode == http.StatusMethodNotAllowed:
			resp.Body.Close()
			l.log.Debug("mcp: the server offers no GET stream")
			return
		case resp.StatusCode == http.StatusNotFound && sid != "":
			resp.Body.Close()
			l.expire(sid)
			return
		case resp.StatusCode/100 != 2:
			herr := statusError(resp)
			resp.Body.Close()
			l.log.Warn("mcp: the server refused the GET stream", "error", herr)
			return
		case mediaType(resp) != "text/event-stream":
			resp.Body.Close()
			l.log.Warn("mcp: the GET stream is not an event stream", "content-type", resp.Header.Get("Content-Type"))
			return
		}
		st.progressed = false
		err = l.readStream(resp.Body, st, nil)
		resp.Body.Close()
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, rpc.ErrMessageTooLarge) {
			l.log.Warn("mcp: an event of the GET stream is too large", "error", err)
		}
		if st.progressed {
			failures = 0
		} else {
			failures++
		}
	}
	l.log.Warn("mcp: the GET stream kept breaking; it stays closed", "attempts", l.maxReconnects+1)
}

// closeOnce closes ch unless it is closed.
func closeOnce(ch chan struct{}) {
	select {
	case <-ch:
	default:
		close(ch)
	}
}
