package mcp

import (
	"context"
	"errors"
	"net/http"

	"github.com/schemarpc/schemarpc/rpc"
)

// getStream is the running GET stream of a handshake-era session.
type getStream struct {
	stop context.CancelFunc
}

// startGet opens the session's GET stream, which carries what the server
// sends outside any request, unless one runs already.
func (l *httpLink) startGet() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.sse != nil || l.getStop != nil {
		return
	}
	ctx, cancel := context.WithCancel(l.ctx)
	g := &getStream{stop: cancel}
	l.getStop = g
	sid := l.sessionID
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer cancel()
		l.runGet(ctx, sid)
		l.mu.Lock()
		if l.getStop == g {
			l.getStop = nil
		}
		l.mu.Unlock()
	}()
}

// stopGet ends the GET stream; l.mu is held.
func (l *httpLink) stopGet() {
	if l.getStop != nil {
		l.getStop.stop()
		l.getStop = nil
	}
}

// runGet keeps the GET stream of session sid open: when it drops it is
// reopened with Last-Event-ID after the server's retry delay, until
// MaxReconnects connections in a row bring nothing. A server offering no
// GET stream (405) is left alone; one that refuses otherwise is logged.
func (l *httpLink) runGet(ctx context.Context, sid string) {
	st := &streamState{}
	for failures, first := 0, true; failures <= l.maxReconnects; first = false {
		if !first && !sleepCtx(ctx, st.delay()) {
			return
		}
		resp, err := l.get(ctx, st.lastID)
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
