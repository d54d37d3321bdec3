// Package roundrobin is a reverse proxy that sends each request to the next of several
// backends in turn, with no affinity, as a plain load balancer in front of replicas does.
// Responses stream through as they come (SSE included), and a backend that refuses the
// connection is skipped for the next one, so that a replica that died costs no request
// that could have gone elsewhere.
package roundrobin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync/atomic"
	"syscall"
)

// DefaultMaxBodyBytes bounds a request body when Options.MaxBodyBytes is 0.
const DefaultMaxBodyBytes = 16 << 20

// Options configure a Balancer.
type Options struct {
	// MaxBodyBytes bounds a request body, which the balancer keeps until a backend has
	// taken the connection so that it can send it to the next one; a larger body gets
	// 413. 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// BackendHeader, when not empty, names a response header set to the index (from 0)
	// of the backend that answered, for logs and tests.
	BackendHeader string
	// Logger receives the failures of forwarding; nil discards them.
	Logger *slog.Logger
	// Transport sends the requests to the backends; nil means a clone of
	// http.DefaultTransport.
	Transport http.RoundTripper
}

// Balancer is an http.Handler that forwards each request to the next backend.
type Balancer struct {
	backends []*url.URL
	next     atomic.Uint64
	maxBody  int64
	header   string
	logger   *slog.Logger
	base     http.RoundTripper
	proxy    *httputil.ReverseProxy
}

// New returns a balancer over backends, each an http or https URL whose scheme and host
// replace the request's (the path and query are kept).
func New(backends []*url.URL, opts *Options) (*Balancer, error) {
	if len(backends) == 0 {
		return nil, errors.New("roundrobin: no backends")
	}
	for _, u := range backends {
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("roundrobin: backend %q is not an http or https URL with a host", u)
		}
	}
	if opts == nil {
		opts = &Options{}
	}
	b := &Balancer{
		backends: backends,
		maxBody:  opts.MaxBodyBytes,
		header:   opts.BackendHeader,
		logger:   opts.Logger,
		base:     opts.Transport,
	}
	if b.maxBody <= 0 {
		b.maxBody = DefaultMaxBodyBytes
	}
	if b.logger == nil {
		b.logger = slog.New(slog.DiscardHandler)
	}
	if b.base == nil {
		b.base = http.DefaultTransport.(*http.Transport).Clone()
	}
	b.proxy = &httputil.ReverseProxy{
		Rewrite:       func(*httputil.ProxyRequest) {}, // the transport picks the backend
		Transport:     roundTripper{b},
		FlushInterval: -1,
		ErrorHandler:  b.fail,
		ErrorLog:      slog.NewLogLogger(b.logger.Handler(), slog.LevelWarn),
	}
	return b, nil
}

// attempt is what the transport needs to send one request: where to start, and the body.
type attempt struct {
	first int
	body  []byte
}

type attemptKey struct{}

// ServeHTTP forwards r to the next backend that takes the connection.
func (b *Balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, b.maxBody))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
	}
	first := int((b.next.Add(1) - 1) % uint64(len(b.backends)))
	ctx := context.WithValue(r.Context(), attemptKey{}, &attempt{first: first, body: body})
	b.proxy.ServeHTTP(w, r.WithContext(ctx))
}

// fail answers a request no backend answered: 502, unless the client went away.
func (b *Balancer) fail(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	b.logger.Warn("no backend answered", "method", r.Method, "path", r.URL.Path, "error", err)
	w.WriteHeader(http.StatusBadGateway)
}

// roundTripper sends a request to its first backend and, while backends refuse the
// connection, to the next ones, each at most once.
type roundTripper struct{ b *Balancer }

func (rt roundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	a := r.Context().Value(attemptKey{}).(*attempt) // set by ServeHTTP, the proxy's only caller
	var err error
	for k := range rt.b.backends {
		i := (a.first + k) % len(rt.b.backends)
		target := rt.b.backends[i]
		out := r.Clone(r.Context())
		out.URL.Scheme, out.URL.Host, out.Host = target.Scheme, target.Host, ""
		out.Body, out.ContentLength = http.NoBody, 0
		if a.body != nil {
			out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(a.body)), int64(len(a.body))
		}
		var resp *http.Response
		resp, err = rt.b.base.RoundTrip(out)
		if err == nil {
			if rt.b.header != "" {
				resp.Header.Set(rt.b.header, strconv.Itoa(i))
			}
			return resp, nil
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			return nil, err
		}
		rt.b.logger.Debug("backend refused the connection; trying the next", "backend", target.Host)
	}
	return nil, err
}
