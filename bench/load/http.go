package load

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// maxBodyBytes bounds one HTTP response body.
const maxBodyBytes = 4 << 20

// newHTTPTransport returns a transport that keeps enough idle connections
// to the one server for every concurrent caller to reuse its own.
func newHTTPTransport() *http.Transport {
	return &http.Transport{
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 256,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}
}

// httpClient is one MCP client of a Streamable HTTP endpoint: a 2025-11-25
// session after its handshake, or a stateless 2026-07-28 client. It is safe
// for concurrent calls.
type httpClient struct {
	hc       *http.Client
	url      string
	protocol string
	session  string
}

func newHTTPClient(hc *http.Client, url, protocol string) *httpClient {
	return &httpClient{hc: hc, url: url, protocol: protocol}
}

// handshake runs initialize and notifications/initialized for 2025-11-25,
// keeping the session id the server assigns; the stateless protocol has none.
func (c *httpClient) handshake(ctx context.Context) error {
	if c.protocol != Protocol20251125 {
		return nil
	}
	resp, err := c.post(ctx, initializeRequest(), "initialize", "")
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	r, err := readHTTPReply(resp)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if err := r.checkInitialize(); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	c.session = resp.Header.Get("Mcp-Session-Id")
	resp, err = c.post(ctx, initializedNotification(), "notifications/initialized", "")
	if err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	defer drain(resp)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("notifications/initialized: HTTP status %s", resp.Status)
	}
	return nil
}

// call makes one tools/call with the given id and verifies the reply. buf
// is scratch space for the request, returned for reuse.
func (c *httpClient) call(ctx context.Context, buf []byte, id int64, call Call) ([]byte, error) {
	buf = appendToolsCall(buf[:0], c.protocol, id, call)
	resp, err := c.post(ctx, buf, "tools/call", call.Tool)
	if err != nil {
		return buf, err
	}
	r, err := readHTTPReply(resp)
	if err != nil {
		return buf, err
	}
	return buf, r.checkCall(id, call)
}

func (c *httpClient) post(ctx context.Context, body []byte, method, name string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	setHTTPHeaders(req.Header, c.protocol, method, name, c.session)
	return c.hc.Do(req)
}

// readHTTPReply reads the JSON-RPC response from a POST's reply, which is
// either one JSON body or an SSE stream, and closes the body.
func readHTTPReply(resp *http.Response) (*reply, error) {
	defer drain(resp)
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, maxQuoted))
		return nil, fmt.Errorf("HTTP status %s: %s", resp.Status, quote(msg))
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
		if err != nil {
			return nil, err
		}
		if len(data) > maxBodyBytes {
			return nil, fmt.Errorf("response body larger than %d bytes", maxBodyBytes)
		}
		return parseReply(data)
	case "text/event-stream":
		return readSSEReply(resp.Body)
	}
	return nil, fmt.Errorf("response Content-Type %q is neither application/json nor text/event-stream", resp.Header.Get("Content-Type"))
}

// drain reads what is left of a body (bounded) and closes it, so that the
// connection goes back to the idle pool.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBodyBytes))
	resp.Body.Close()
}

// runHTTP makes calls next+1, next+2, … across workers goroutines per
// client, each calling sequentially, until lim.calls have been made or
// lim.deadline has passed. The first failure stops every worker and is
// returned.
func runHTTP(ctx context.Context, clients []*httpClient, workers int, next *atomic.Int64, lim limits) (phase, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	last := next.Load() + lim.calls
	var (
		mu       sync.Mutex
		firstErr error
		all      []time.Duration
		wg       sync.WaitGroup
	)
	start := time.Now()
	for _, c := range clients {
		for range workers {
			wg.Go(func() {
				lat := make([]time.Duration, 0, 1024)
				var buf []byte
				var err error
				for ctx.Err() == nil && time.Now().Before(lim.deadline) {
					id := next.Add(1)
					if id > last {
						break
					}
					call := CallAt(id)
					t0 := time.Now()
					if buf, err = c.call(ctx, buf, id, call); err != nil {
						err = fmt.Errorf("call %d (%s): %w", id, call.Tool, err)
						break
					}
					lat = append(lat, time.Since(t0))
				}
				mu.Lock()
				defer mu.Unlock()
				all = append(all, lat...)
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
			})
		}
	}
	wg.Wait()
	return phase{wall: time.Since(start), latencies: all}, firstErr
}

// openStream opens the session's GET stream, on which a server sends
// messages outside any request, with hc (which must not time out a body
// that stays open). It returns once the response headers arrive; the
// caller closes the body to end the stream.
func (c *httpClient) openStream(ctx context.Context, hc *http.Client) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, err
	}
	setHTTPHeaders(req.Header, c.protocol, "", "", c.session)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Del("Content-Type")
	return hc.Do(req)
}
