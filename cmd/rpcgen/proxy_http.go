package main

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// headerSession names the Streamable HTTP session header.
const headerSession = "Mcp-Session-Id"

// headerVersion names the Streamable HTTP header that carries the MCP
// version a client's message belongs to.
const headerVersion = "Mcp-Protocol-Version"

// maxConversations bounds the sessions whose checkers the HTTP proxy keeps;
// past it the least recently used is forgotten.
const maxConversations = 1024

// shutdownGrace is how long the HTTP proxy waits for exchanges in progress
// when it stops.
const shutdownGrace = 5 * time.Second

// conversation is one checked conversation: an MCP session, or a single
// HTTP exchange outside any session.
type conversation struct {
	checker *validate.Checker
	session string // "" outside a session
	// label names the conversation in transcript records, for its whole
	// life: the session id, or "exchange-N" for one that began outside a
	// session (an initialize exchange keeps it once the session exists, so
	// its request and answer stay together when the transcript is checked
	// again).
	label string
}

// httpProxy forwards HTTP to the upstream server and checks the JSON-RPC
// messages it carries.
type httpProxy struct {
	mon      *monitor
	upstream *url.URL
	rp       *httputil.ReverseProxy
	stderr   io.Writer

	mu       sync.Mutex
	sessions map[string]*list.Element // of *conversation
	recent   *list.List               // most recently used first
	limit    int
	warned   bool // a body that could not be checked was mentioned
	next     int  // exchanges begun outside a session
}

func newHTTPProxy(mon *monitor, upstream *url.URL, stderr io.Writer) *httpProxy {
	p := &httpProxy{
		mon: mon, upstream: upstream, stderr: stderr,
		sessions: map[string]*list.Element{}, recent: list.New(), limit: maxConversations,
	}
	// The client's Accept-Encoding alone decides the encoding: the
	// transport neither asks for gzip nor decodes it behind its back.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DisableCompression = true
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		Transport:      tr,
		ModifyResponse: p.response,
		FlushInterval:  -1,
		ErrorLog:       log.New(stderr, "rpcgen proxy: ", 0),
	}
	return p
}

// exchangeKey is the context key of an exchange's state.
type exchangeKey struct{}

// exchange is what the proxy knows of one HTTP exchange while it lasts.
type exchange struct {
	conv *conversation
	in   *url.URL // the request's URL as the client sent it
	// checked says the request body was checked as JSON-RPC, so a JSON
	// response body is the server's answer.
	checked bool
}

// ServeHTTP checks the request body, when it is a JSON-RPC message, before
// forwarding it: the checker must see a request before its response.
func (p *httpProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := &exchange{conv: p.conversation(r.Header.Get(headerSession), r.URL), in: r.URL}
	if r.Method == http.MethodPost && mediaType(r.Header.Get("Content-Type")) == "application/json" && r.Body != nil {
		if p.checkable(r.Header) {
			r.Body = p.checkBody(r.Body, ex.conv, validate.FromClient, r.Header.Get(headerVersion))
			ex.checked = true
		}
	}
	p.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex)))
}

// rewrite sends the request to the upstream unchanged but for its URL and
// Host: the upstream's path is put in front of the request's (a request for
// / goes to the upstream URL itself), the query is kept as sent, and the
// forwarding headers the client sent are kept and none are added.
func (p *httpProxy) rewrite(pr *httputil.ProxyRequest) {
	pr.SetURL(p.upstream)
	if pr.In.URL.Path == "/" || pr.In.URL.Path == "" {
		pr.Out.URL.Path, pr.Out.URL.RawPath = p.upstream.Path, p.upstream.RawPath
		if pr.Out.URL.Path == "" {
			pr.Out.URL.Path = "/"
		}
	}
	pr.Out.URL.RawQuery = joinQuery(p.upstream.RawQuery, pr.In.URL.RawQuery)
	for _, h := range []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto"} {
		if v, ok := pr.In.Header[h]; ok {
			pr.Out.Header[h] = v
		}
	}
}

func joinQuery(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "&" + b
}

// response follows the session the response names and arranges for its
// body to be checked as it is forwarded.
func (p *httpProxy) response(resp *http.Response) error {
	ex, _ := resp.Request.Context().Value(exchangeKey{}).(*exchange)
	if ex == nil {
		return nil
	}
	if id := resp.Header.Get(headerSession); id != "" && ex.conv.session == "" {
		// initialize started a session: its conversation goes on.
		p.adopt(id, ex.conv)
	}
	if resp.Request.Method == http.MethodDelete && ex.conv.session != "" && resp.StatusCode/100 == 2 {
		p.forget(ex.conv.session)
	}
	if resp.Body == nil || resp.Body == http.NoBody {
		return nil
	}
	switch mediaType(resp.Header.Get("Content-Type")) {
	case "text/event-stream":
		if p.checkable(resp.Header) {
			resp.Body = p.sseBody(resp.Body, ex)
		}
	case "application/json":
		if ex.checked && p.checkable(resp.Header) {
			resp.Body = p.checkBody(resp.Body, ex.conv, validate.FromServer, "")
		}
	}
	return nil
}

// checkable says whether a body can be read as sent; an encoded one
// (gzip, say) is forwarded without being checked, which is said once.
func (p *httpProxy) checkable(h http.Header) bool {
	enc := h.Get("Content-Encoding")
	if enc == "" || strings.EqualFold(enc, "identity") {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.warned {
		p.warned = true
		fmt.Fprintf(p.stderr, "rpcgen proxy: bodies with Content-Encoding %q are forwarded unchecked\n", enc)
	}
	return false
}

// checkBody reads a body holding one message (or batch), checks it, and
// returns a body that yields the same bytes. Reading it whole first keeps
// the order of the conversation: the peer gets the message only once it
// has been checked. A body longer than the monitor's bound is reported and
// streamed on; one that fails to read is passed on unchecked, failing the
// same way. version is the request's MCP-Protocol-Version header, for a
// client's body.
func (p *httpProxy) checkBody(body io.ReadCloser, conv *conversation, from validate.Direction, version string) io.ReadCloser {
	b, err := io.ReadAll(io.LimitReader(body, int64(p.mon.max)+1))
	switch {
	case err != nil:
		return readCloser{io.MultiReader(bytes.NewReader(b), errReader{err}), body}
	case len(b) > p.mon.max:
		p.mon.tooLong(conv.checker, from)
		return readCloser{io.MultiReader(bytes.NewReader(b), body), body}
	}
	if msg := bytes.TrimSpace(b); len(msg) > 0 {
		p.mon.check(conv.checker, msg, from, conv.label, version)
	}
	return readCloser{bytes.NewReader(b), body}
}

// sseBody returns a body that checks each event of an SSE stream before
// the bytes that complete it are forwarded. The endpoint event of the old
// HTTP+SSE transport names the URL the client posts its messages to: they
// then belong to the stream's conversation.
func (p *httpProxy) sseBody(body io.ReadCloser, ex *exchange) io.ReadCloser {
	conv := ex.conv
	return &sseBody{ReadCloser: body, parser: &sseParser{
		max:     p.mon.max,
		event:   func(data []byte) { p.mon.check(conv.checker, data, validate.FromServer, conv.label, "") },
		tooLong: func() { p.mon.tooLong(conv.checker, validate.FromServer) },
		other: func(typ string, data []byte) {
			if typ != "endpoint" || conv.session != "" {
				return
			}
			if u, err := ex.in.Parse(strings.TrimSpace(string(data))); err == nil {
				p.adopt(endpointKey(u), conv)
			}
		},
	}}
}

type sseBody struct {
	io.ReadCloser
	parser *sseParser
}

func (b *sseBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.parser.write(p[:n])
	return n, err
}

type readCloser struct {
	io.Reader
	io.Closer
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// mediaType is the lower-case media type of a Content-Type, "" if none.
func mediaType(ct string) string {
	t, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return t
}

// endpointKey is the session key of the old HTTP+SSE transport's
// conversations: the URL the client posts to, as the client sends it.
func endpointKey(u *url.URL) string { return "endpoint " + u.RequestURI() }

// conversation returns the conversation of a session, started if need be,
// or a new one for an exchange outside any session. A request without a
// session header to the endpoint of an old HTTP+SSE stream belongs to that
// stream's conversation.
func (p *httpProxy) conversation(session string, u *url.URL) *conversation {
	p.mu.Lock()
	defer p.mu.Unlock()
	if session == "" {
		if e, ok := p.sessions[endpointKey(u)]; ok {
			p.recent.MoveToFront(e)
			return e.Value.(*conversation)
		}
		p.next++
		return &conversation{checker: p.mon.set.NewChecker(), label: fmt.Sprintf("exchange-%d", p.next)}
	}
	if e, ok := p.sessions[session]; ok {
		p.recent.MoveToFront(e)
		return e.Value.(*conversation)
	}
	c := &conversation{checker: p.mon.set.NewChecker(), session: session, label: session}
	p.keep(c)
	return c
}

// adopt makes an exchange's conversation the session's.
func (p *httpProxy) adopt(session string, c *conversation) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.sessions[session]; ok {
		return
	}
	// The exchange's goroutine is the only one that knows c so far.
	c.session = session
	p.keep(c)
}

// keep remembers a session's conversation, forgetting the least recently
// used past the limit. p.mu is held.
func (p *httpProxy) keep(c *conversation) {
	p.sessions[c.session] = p.recent.PushFront(c)
	for p.recent.Len() > p.limit {
		old := p.recent.Back()
		p.recent.Remove(old)
		delete(p.sessions, old.Value.(*conversation).session)
	}
}

// forget drops an ended session's conversation.
func (p *httpProxy) forget(session string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.sessions[session]; ok {
		p.recent.Remove(e)
		delete(p.sessions, session)
	}
}

// conversations returns how many sessions are remembered.
func (p *httpProxy) conversations() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.recent.Len()
}

// serveProxyHTTP serves the HTTP proxy of cfg until ctx ends, then shuts
// it down, and returns the exit status.
func serveProxyHTTP(ctx context.Context, cfg proxyConfig, mon *monitor, stderr io.Writer) int {
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		fmt.Fprintf(stderr, "rpcgen proxy: %v\n", err)
		return exitFail
	}
	upstream, _ := url.Parse(cfg.upstream) // checked by parseProxy
	if err := serveProxyOn(ctx, ln, newHTTPProxy(mon, upstream, stderr), stderr); err != nil {
		fmt.Fprintf(stderr, "rpcgen proxy: %v\n", err)
		return exitFail
	}
	return exitOK
}

// serveProxyOn serves p on ln until ctx ends. Exchanges still in progress
// then (open SSE streams above all) are cancelled, so that the shutdown
// does not wait on streams that never end.
func serveProxyOn(ctx context.Context, ln net.Listener, p *httpProxy, stderr io.Writer) error {
	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	srv := &http.Server{
		Handler:           p,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          log.New(stderr, "rpcgen proxy: ", 0),
	}
	fmt.Fprintf(stderr, "rpcgen proxy: listening on http://%s, forwarding to %s\n", ln.Addr(), p.upstream)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	cancel()
	sctx, stop := context.WithTimeout(context.Background(), shutdownGrace)
	defer stop()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
