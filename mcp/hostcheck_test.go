package mcp_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/mcp"
)

// checkHost sends a request with these headers, arriving on local, through
// a handler with opts, and returns the status: 403 when the Host/Origin
// check refuses it, 400 (no session id) when it lets it through.
func checkHost(t *testing.T, opts *mcp.HTTPOptions, local net.Addr, host, origin string) int {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil), opts)
	defer h.Close()
	req := httptest.NewRequest(http.MethodDelete, "http://x/mcp", nil)
	if local != nil {
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, local))
	}
	req.Host = host
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func TestHostAndOriginChecks(t *testing.T) {
	loop := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8000}
	loop6 := &net.TCPAddr{IP: net.IPv6loopback, Port: 8000}
	public := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 10), Port: 8000}
	const pass, refuse = http.StatusBadRequest, http.StatusForbidden
	allowed := &mcp.HTTPOptions{
		AllowedHosts:   []string{"mcp.example.com", "Pinned.Example.com:9000"},
		AllowedOrigins: []string{"https://app.example.com/", "null"},
	}
	for _, tc := range []struct {
		name         string
		opts         *mcp.HTTPOptions
		local        net.Addr
		host, origin string
		want         int
	}{
		{"loopback: 127.0.0.1, any port", nil, loop, "127.0.0.1:1234", "", pass},
		{"loopback: localhost without a port", nil, loop, "localhost", "", pass},
		{"loopback: LOCALHOST", nil, loop, "LOCALHOST:8000", "", pass},
		{"loopback: [::1]", nil, loop6, "[::1]:8000", "", pass},
		{"loopback: other 127/8 address", nil, loop, "127.1.2.3:8000", "", pass},
		{"loopback: IPv4-mapped [::ffff:127.0.0.1]", nil, loop6, "[::ffff:127.0.0.1]:8000", "", pass},
		{"loopback: an address with a zone", nil, loop6, "[::1%25eth0]:8000", "", refuse},
		{"loopback: a public name", nil, loop, "evil.example.com", "", refuse},
		{"loopback: a name ending in localhost", nil, loop, "localhost.evil.example.com", "", refuse},
		{"loopback: a private address", nil, loop, "192.168.1.1:8000", "", refuse},
		{"unknown local address is treated as loopback", nil, nil, "evil.example.com", "", refuse},

		{"origin: loopback http", nil, loop, "localhost:8000", "http://localhost:3000", pass},
		{"origin: loopback https", nil, loop, "localhost:8000", "https://127.0.0.1", pass},
		{"origin: evil", nil, loop, "localhost:8000", "http://evil.example.com", refuse},
		{"origin: not http", nil, loop, "localhost:8000", "file://localhost", refuse},
		{"origin: null", nil, loop, "localhost:8000", "null", refuse},
		{"origin: garbage", nil, loop, "localhost:8000", "::", refuse},
		{"origin: with a path", nil, loop, "localhost:8000", "http://localhost/x", refuse},
		{"origin: with user info", nil, loop, "localhost:8000", "http://u@localhost", refuse},

		{"allowed host, any port", allowed, loop, "mcp.example.com:443", "", pass},
		{"allowed host:port", allowed, loop, "pinned.example.com:9000", "", pass},
		{"allowed host, wrong port", allowed, loop, "pinned.example.com:9001", "", refuse},
		{"allowed origin", allowed, loop, "localhost", "https://APP.example.com", pass},
		{"allowed null origin", allowed, loop, "localhost", "null", pass},
		{"same origin as an allowed host", allowed, loop, "mcp.example.com", "https://mcp.example.com:80", refuse},
		{"same origin, default port", allowed, loop, "mcp.example.com", "http://mcp.example.com", pass},

		{"public: any host without an allow-list", nil, public, "mcp.example.com", "", pass},
		{"public: same origin", nil, public, "mcp.example.com", "https://mcp.example.com:443", pass},
		{"public: cross origin", nil, public, "mcp.example.com", "https://evil.example.com", refuse},
		{"public: loopback origin is not special", nil, public, "mcp.example.com", "http://localhost", refuse},
		{"public: the allow-list is the whole set", allowed, public, "other.example.com", "", refuse},
		{"public: listed host", allowed, public, "mcp.example.com", "", pass},

		{"check disabled", &mcp.HTTPOptions{DisableHostCheck: true}, loop, "evil.example.com", "http://evil.example.com", pass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, checkHost(t, tc.opts, tc.local, tc.host, tc.origin))
		})
	}
}

func TestAHostAcceptedOnceIsAcceptedAgainOnlyOnTheSameKindOfConnection(t *testing.T) {
	loop := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8000}
	public := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 10), Port: 8000}
	const pass, refuse = http.StatusBadRequest, http.StatusForbidden
	h := mcp.NewStreamableHTTPHandler(mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil),
		&mcp.HTTPOptions{AllowedHosts: []string{"mcp.example.com"}})
	defer h.Close()
	send := func(local net.Addr, host, origin string) int {
		req := httptest.NewRequest(http.MethodDelete, "http://x/mcp", nil)
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, local))
		req.Host = host
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	// In order: each step follows a request the check accepted.
	for _, step := range []struct {
		name         string
		local        net.Addr
		host, origin string
		want         int
	}{
		{"a loopback name on a loopback connection", loop, "localhost:8000", "", pass},
		{"the same again", loop, "localhost:8000", "", pass},
		{"the same name on a public connection, where the allow-list is the whole set", public, "localhost:8000", "", refuse},
		{"another name on the loopback connection", loop, "evil.example.com", "", refuse},
		{"the same name with a foreign origin", loop, "localhost:8000", "https://evil.example.com", refuse},
		{"the same name with its own origin", loop, "localhost:8000", "http://localhost:8000", pass},
		{"an allowed name on a public connection", public, "mcp.example.com", "", pass},
		{"a loopback name there after it", public, "127.0.0.1:8000", "", refuse},
		{"and back on loopback", loop, "localhost:8000", "", pass},
	} {
		assert.Equal(t, step.want, send(step.local, step.host, step.origin), step.name)
	}
}
