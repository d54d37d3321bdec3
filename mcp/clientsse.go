package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/schemarpc/schemarpc/rpc"
)

// SSETransport connects a Client to a server over the HTTP+SSE transport
// of protocol version 2024-11-05: the client GETs URL, an event stream
// whose first event names the endpoint to POST messages to, and receives
// everything the server sends as events of that stream. Only servers that
// predate Streamable HTTP need it; StreamableHTTPTransport falls back to it
// on its own.
type SSETransport struct {
	// URL is the server's event-stream endpoint, e.g. http://127.0.0.1:8080/sse.
	URL string
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Header holds extra headers sent on every request.
	Header http.Header
	// MaxMessageSize bounds one received event; 0 means
	// rpc.DefaultMaxMessageSize (4 MiB).
	MaxMessageSize int
}

// dial opens the event stream and waits for its endpoint event.
func (t *SSETransport) dial(ctx context.Context, env *linkEnv) (clientLink, error) {
	b, err := newHTTPBase(t.URL, t.HTTPClient, t.Header, t.MaxMessageSize, env)
	if err != nil {
		return nil, err
	}
	l, err := dialSSE(ctx, b)
	if err != nil {
		b.stop()
		return nil, err
	}
	return l, nil
}

// sseLink is an HTTP+SSE connection to one server.
type sseLink struct {
	*httpBase
	endpoint *url.URL // where messages are POSTed

	mu     sync.Mutex
	closed bool
}

// dialSSE opens the event stream of parent's URL and reads up to its
// endpoint event; ctx bounds that wait. The link delivers into parent's
// inbox and lives no longer than parent.
func dialSSE(ctx context.Context, parent *httpBase) (*sseLink, error) {
	b := &httpBase{url: parent.url, client: parent.client, header: parent.header, maxSize: parent.maxSize,
		env: parent.env, log: parent.log, in: parent.in}
	b.ctx, b.stop = context.WithCancel(parent.ctx)
	l := &sseLink{httpBase: b}
	stopDial := context.AfterFunc(ctx, b.stop)
	body, rd, err := l.open()
	if !stopDial() || err != nil {
		b.stop()
		if err == nil {
			err = ctx.Err()
		}
		if body != nil {
			body.Close()
		}
		return nil, fmt.Errorf("mcp: opening the HTTP+SSE stream %s: %w", b.url, err)
	}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer body.Close()
		l.readLoop(rd)
	}()
	return l, nil
}

// open GETs the event stream and reads up to the endpoint event.
func (l *sseLink) open() (io.ReadCloser, *sseReader, error) {
	req, err := l.newRequest(l.ctx, http.MethodGet, l.url, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		return nil, nil, statusError(resp)
	}
	if mediaType(resp) != "text/event-stream" {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("the answer has Content-Type %q, not text/event-stream", resp.Header.Get("Content-Type"))
	}
	rd := newSSEReader(resp.Body, l.maxSize)
	for {
		rec, err := rd.next()
		if err != nil {
			resp.Body.Close()
			return nil, nil, fmt.Errorf("the stream ended before its endpoint event: %w", noEOF(err))
		}
		if rec.HasData && rec.Type == "endpoint" {
			ep, err := l.resolveEndpoint(string(bytes.TrimSpace(rec.Data)))
			if err != nil {
				resp.Body.Close()
				return nil, nil, err
			}
			l.endpoint = ep
			return resp.Body, rd, nil
		}
		if rec.IsMessage() {
			l.push(rec.Data)
		}
	}
}

// resolveEndpoint reads the endpoint event's URI, relative to the stream's
// URL; it must have the stream's origin, so that a server cannot send the
// client's messages elsewhere.
func (l *sseLink) resolveEndpoint(ref string) (*url.URL, error) {
	u, err := url.Parse(ref)
	if err != nil || ref == "" {
		return nil, fmt.Errorf("the endpoint event %q is not a URI", ref)
	}
	ep := l.url.ResolveReference(u)
	if !strings.EqualFold(ep.Scheme, l.url.Scheme) || !strings.EqualFold(ep.Host, l.url.Host) {
		return nil, fmt.Errorf("the endpoint %s is not on the stream's origin %s://%s", ep, l.url.Scheme, l.url.Host)
	}
	return ep, nil
}

// readLoop delivers the stream's message events until it ends, which ends
// the link: HTTP+SSE has no resumption.
func (l *sseLink) readLoop(rd *sseReader) {
	for {
		rec, err := rd.next()
		if err != nil {
			if l.ctx.Err() != nil {
				return
			}
			if errors.Is(err, io.EOF) {
				l.log.Debug("mcp: the server ended the HTTP+SSE stream")
				l.in.end(nil)
				return
			}
			l.in.end(fmt.Errorf("mcp: the HTTP+SSE stream broke: %w", err))
			return
		}
		if rec.IsMessage() {
			l.push(rec.Data)
		}
	}
}

// push hands a received message to Read.
func (l *sseLink) push(msg []byte) {
	if !json.Valid(msg) {
		l.droppedMessage("mcp: dropped a message from the server that is not JSON", msg)
		return
	}
	l.in.push(msg)
}

// isHTTP reports true.
func (l *sseLink) isHTTP() bool { return true }

// cancel reports false: the client cancels with notifications/cancelled.
func (l *sseLink) cancel(rpc.ID) bool { return false }

// Read returns the next message of the event stream.
func (l *sseLink) Read(ctx context.Context) ([]byte, error) { return l.in.read(ctx) }

// Write POSTs a message to the endpoint. A request's POST runs in the
// background (its answer comes on the stream; a refusal fails its call);
// a notification or response is POSTed before Write returns.
func (l *sseLink) Write(ctx context.Context, msg []byte) error {
	m, ok := parseWire(msg)
	if !ok || m.kind() == wireInvalid {
		return fmt.Errorf("mcp: the HTTP+SSE transport sends only JSON-RPC requests, notifications and responses")
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return errLinkClosed
	}
	if m.kind() == wireRequest {
		l.wg.Add(1)
		l.mu.Unlock()
		pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		unlink := context.AfterFunc(l.ctx, cancel)
		go func() {
			defer l.wg.Done()
			defer cancel()
			defer unlink()
			if err := l.postTo(pctx, msg); err != nil && pctx.Err() == nil {
				l.fail(m.id(), err)
			}
		}()
		return nil
	}
	l.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer context.AfterFunc(l.ctx, cancel)()
	defer cancel()
	err := l.postTo(ctx, msg)
	if m.kind() == wireResponse {
		if err != nil {
			l.log.Warn("mcp: the server refused the client's answer to its request", "id", string(m.ID), "error", err)
		}
		return nil
	}
	return err
}

// postTo POSTs msg to the endpoint; a server that answers with a message
// in the body (not what the transport asks for, but harmless) has it
// delivered.
func (l *sseLink) postTo(ctx context.Context, msg []byte) error {
	req, err := l.newRequest(ctx, http.MethodPost, l.endpoint, msg)
	if err != nil {
		return err
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return fmt.Errorf("mcp: POST to %s: %w", l.endpoint, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return statusError(resp)
	}
	if mediaType(resp) == "application/json" {
		if body, err := readBounded(resp.Body, l.maxSize); err == nil {
			if msgs, err := splitBody(body); err == nil {
				for _, m := range msgs {
					if w, ok := parseWire(m); ok && w.kind() != wireInvalid {
						l.push(m)
					}
				}
			}
		}
	}
	return nil
}

// Close stops the stream and ends Read with io.EOF.
func (l *sseLink) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	l.mu.Unlock()
	l.stop()
	l.in.end(nil)
	l.wg.Wait()
	return nil
}
