package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// What the client's HTTP transports send and how long they wait.
const (
	// acceptBoth is the Accept header of a POST: a JSON answer or a stream.
	acceptBoth = "application/json, text/event-stream"
	// acceptStream is the Accept header of a GET.
	acceptStream = "text/event-stream"
	// defaultReconnectDelay is the wait before reconnecting a stream whose
	// server named no delay (no SSE retry field).
	defaultReconnectDelay = time.Second
	// defaultMaxReconnects bounds the reconnections of one broken stream.
	defaultMaxReconnects = 5
	// closeTimeout bounds the DELETE that ends a session on Close.
	closeTimeout = 5 * time.Second
	// inboxSize is how many received messages wait for Read before the
	// streams delivering them pause.
	inboxSize = 64
)

// errLinkClosed is the error of a Write after Close.
var errLinkClosed = fmt.Errorf("mcp: the HTTP transport is closed: %w", rpc.ErrClosed)

// httpBase is what the client's HTTP links share: the server's URL, the
// HTTP client and headers, the bound on a message, the queue of received
// messages, and the link's lifetime.
type httpBase struct {
	url     *url.URL
	client  *http.Client
	header  http.Header
	maxSize int
	env     *linkEnv
	log     *slog.Logger
	in      *inbox

	ctx  context.Context // ends with the link
	stop context.CancelFunc
	wg   sync.WaitGroup // the link's goroutines
}

// newHTTPBase checks rawURL and prepares a link to it.
func newHTTPBase(rawURL string, client *http.Client, header http.Header, maxSize int, env *linkEnv) (*httpBase, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("mcp: the server URL %q: %w", rawURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("mcp: the server URL %q is not an absolute http or https URL", rawURL)
	}
	if client == nil {
		client = http.DefaultClient
	}
	if maxSize <= 0 {
		maxSize = rpc.DefaultMaxMessageSize
	}
	if env == nil {
		env = &linkEnv{}
	}
	log := env.logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &httpBase{url: u, client: client, header: header, maxSize: maxSize, env: env, log: log, in: newInbox()}
	b.ctx, b.stop = context.WithCancel(context.Background())
	return b, nil
}

// key names the server for the client's era cache: scheme, host, port
// and path of its URL.
func (b *httpBase) key() string {
	return strings.ToLower(b.url.Scheme) + "://" + strings.ToLower(b.url.Host) + b.url.EscapedPath()
}

// fail ends the call waiting for id with err.
func (b *httpBase) fail(id rpc.ID, err error) {
	if f := b.env.fail; f != nil {
		f(id, err)
		return
	}
	b.log.Warn("mcp: a request failed and no call is told", "id", id.String(), "error", err)
}

// newRequest builds a request to u with the transport's extra headers.
// ctx carries the request's cancellation.
func (b *httpBase) newRequest(ctx context.Context, method string, u *url.URL, body []byte) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, err
	}
	for k, vs := range b.header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	switch method {
	case http.MethodPost:
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", acceptBoth)
	case http.MethodGet:
		req.Header.Set("Accept", acceptStream)
	}
	return req, nil
}

// statusError reads what an HTTP error answer says.
func statusError(resp *http.Response) *HTTPStatusError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &HTTPStatusError{StatusCode: resp.StatusCode, Header: resp.Header, Body: body}
	if m, ok := parseWire(body); ok && m.kind() == wireResponse && m.Error != nil {
		e.RPCError = m.Error
	}
	return e
}

// mediaType returns the media type of a response, lower case.
func mediaType(resp *http.Response) string {
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

// readBounded reads a body of at most max bytes; a larger one is an error
// matching rpc.ErrMessageTooLarge.
func readBounded(r io.Reader, max int) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(body) > max {
		return nil, &rpc.MessageTooLargeError{Limit: max}
	}
	return body, nil
}

// sleepCtx waits for d, or until ctx ends (false).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// The kinds of wire message a link tells apart.
const (
	wireInvalid = iota
	wireRequest
	wireNotification
	wireResponse
)

// wireMessage is the envelope of a JSON-RPC message, as far as a link
// needs to read it.
type wireMessage struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *rpc.Error
	Kind   rpc.MessageKind // what rpc.Envelope.Kind makes of the message
}

// parseWire reads a message's envelope with rpc.ReadEnvelope; ok is false
// when msg is not one strict JSON object, or its method is not a string or
// its error not an error object.
func parseWire(msg []byte) (wireMessage, bool) {
	e, ok := rpc.ReadEnvelope(msg)
	if !ok {
		return wireMessage{}, false
	}
	m := wireMessage{ID: e.ID, Params: e.Params, Result: e.Result, Kind: e.Kind()}
	if e.Method != nil {
		if m.Method, ok = jsonscan.String(e.Method); !ok {
			return wireMessage{}, false
		}
	}
	if e.Error != nil && json.Unmarshal(e.Error, &m.Error) != nil {
		return wireMessage{}, false
	}
	return m, true
}

// kind is the message's kind as a link routes it: a response must have an
// id to be matched with its request.
func (m *wireMessage) kind() int {
	switch {
	case m.Kind == rpc.KindRequest:
		return wireRequest
	case m.Kind == rpc.KindNotification:
		return wireNotification
	case m.Kind == rpc.KindResponse && m.ID != nil:
		return wireResponse
	}
	return wireInvalid
}

// id returns the message's id; the zero ID when it has none or it is
// malformed.
func (m *wireMessage) id() rpc.ID {
	var id rpc.ID
	if m.ID == nil || id.UnmarshalJSON(m.ID) != nil {
		return rpc.ID{}
	}
	return id
}

// idKey is the map key of an id: its JSON text without spaces around.
func idKey(id rpc.ID) string { return strings.TrimSpace(id.String()) }

// splitBody returns the messages of a JSON body: one object, or each
// element of an array (a 2025-03-26 batch of responses).
func splitBody(body []byte) ([][]byte, error) {
	b := bytes.TrimSpace(body)
	if len(b) > 0 && b[0] == '[' {
		var elems []json.RawMessage
		if err := json.Unmarshal(b, &elems); err != nil {
			return nil, err
		}
		out := make([][]byte, len(elems))
		for i, e := range elems {
			out[i] = e
		}
		return out, nil
	}
	if !json.Valid(b) {
		return nil, errors.New("the body is not JSON")
	}
	return [][]byte{b}, nil
}

// inbox holds the messages received for Read, in order of arrival.
type inbox struct {
	ch   chan []byte
	done chan struct{}
	once sync.Once
	err  error // set before done is closed; nil means io.EOF
}

// newInbox returns an empty, open inbox.
func newInbox() *inbox {
	return &inbox{ch: make(chan []byte, inboxSize), done: make(chan struct{})}
}

// push queues a message, waiting while the inbox is full; it reports false
// when the inbox ended first.
func (b *inbox) push(msg []byte) bool {
	select {
	case b.ch <- msg:
		return true
	case <-b.done:
		return false
	}
}

// end ends the inbox: Read returns what is queued, then err (io.EOF when
// err is nil). Only the first call counts.
func (b *inbox) end(err error) {
	b.once.Do(func() {
		b.err = err
		close(b.done)
	})
}

// read returns the next message.
func (b *inbox) read(ctx context.Context) ([]byte, error) {
	select {
	case m := <-b.ch:
		return m, nil
	default:
	}
	select {
	case m := <-b.ch:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-b.done:
		select {
		case m := <-b.ch:
			return m, nil
		default:
		}
		if b.err != nil {
			return nil, b.err
		}
		return nil, io.EOF
	}
}
