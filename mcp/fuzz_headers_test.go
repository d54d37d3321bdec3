package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// The header fuzz target calls the handler's ServeHTTP directly with an
// httptest recorder: no network, and header values no HTTP client would
// send (control characters, non-ASCII, empty) reach the handler as they are.

// liveSessionID stands, in a fuzzed Mcp-Session-Id, for the id of the one
// live session the target keeps.
const liveSessionID = "LIVE"

// headerServer is a handler with one live handshake session at 2025-06-18.
type headerServer struct {
	h    *mcp.StreamableHTTPHandler
	live string
}

func newHeaderServer(tb testing.TB) *headerServer {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(s, &mcp.HTTPOptions{JSONResponse: true})
	tb.Cleanup(func() { h.Close() })
	hs := &headerServer{h: h}
	w := hs.do(context.Background(), http.MethodPost, map[string]string{},
		fmt.Sprintf(initMessage, mcp.Version20250618))
	require.Equal(tb, http.StatusOK, w.Code, w.Body.String())
	hs.live = w.Header().Get(mcp.HeaderSessionID)
	require.NotEmpty(tb, hs.live)
	w = hs.do(context.Background(), http.MethodPost, map[string]string{mcp.HeaderSessionID: hs.live},
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(tb, http.StatusAccepted, w.Code, w.Body.String())
	return hs
}

// do serves one request from a loopback client, with the usual
// Content-Type and Accept unless hdr replaces them; every value of hdr is
// set as it is (the session id LIVE becomes the live session's).
func (hs *headerServer) do(ctx context.Context, method string, hdr map[string]string, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequestWithContext(ctx, method, "/mcp", strings.NewReader(body))
	r.Host = "localhost"
	r.RemoteAddr = "127.0.0.1:40000"
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == mcp.HeaderSessionID && v == liveSessionID {
			v = hs.live
		}
		r.Header[http.CanonicalHeaderKey(k)] = []string{v}
	}
	w := httptest.NewRecorder()
	hs.h.ServeHTTP(w, r)
	return w
}

// pingWorks checks that the live session answers a ping with its id.
func (hs *headerServer) pingWorks(tb testing.TB) {
	tb.Helper()
	w := hs.do(context.Background(), http.MethodPost, map[string]string{mcp.HeaderSessionID: hs.live,
		mcp.HeaderProtocolVersion: mcp.Version20250618}, `{"jsonrpc":"2.0","id":"probe","method":"ping"}`)
	if w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != `{"jsonrpc":"2.0","id":"probe","result":{}}` {
		tb.Fatalf("the live session no longer answers a ping: %d %s", w.Code, w.Body.String())
	}
}

// visibleASCII reports whether s is a well-formed session id: visible
// ASCII only (0x21 to 0x7E).
func visibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// wantHeaderStatus is the status the documented rules give a request with
// valid Content-Type and Accept (docs/mcp-http.md): an MCP-Protocol-Version
// that is not a handshake version this server serves sends the request to
// the stateless transport, which takes POST only (405) and refuses this
// ping, which carries no mirrored headers, with 400; otherwise a session
// request with no Mcp-Session-Id or one with a character outside 0x21-0x7E
// gets 400, an unknown well-formed id 404, and the live session 200.
func wantHeaderStatus(method, sid string, version *string) int {
	if version != nil && !slices.Contains(mcp.SupportedVersions(), strings.TrimSpace(*version)) {
		if method != http.MethodPost {
			return http.StatusMethodNotAllowed
		}
		return http.StatusBadRequest
	}
	switch {
	case sid == liveSessionID:
		return http.StatusOK
	case sid == "" || !visibleASCII(sid):
		return http.StatusBadRequest
	}
	return http.StatusNotFound
}

// FuzzSessionHeader sends POST, GET and DELETE requests with a fuzzed
// Mcp-Session-Id, MCP-Protocol-Version and (optionally) Accept to a
// Streamable HTTP handler that holds one live session. Invariants: never a
// 5xx or a panic; ids outside 0x21-0x7E get 400 and unknown ones 404;
// a protocol version the server does not serve never reaches a session
// (400 on POST, 405 otherwise); an error status carries a JSON-RPC error
// body; with a fuzzed Accept the answer is the same or 406; and the live
// session still answers a ping afterwards.
func FuzzSessionHeader(f *testing.F) {
	seeds := []struct {
		sid, version string
		hasVersion   bool
		op           uint8
		accept       string
	}{
		{liveSessionID, mcp.Version20250618, true, 0, ""},
		{liveSessionID, "", false, 0, ""},
		{liveSessionID, "1999-01-01", true, 0, ""},
		{liveSessionID, mcp.Version20250618 + " ", true, 0, ""},
		{liveSessionID, "2026-07-28", true, 1, ""},
		{"0123456789abcdef0123456789abcdef", mcp.Version20251125, true, 0, ""},
		{"nosuch", "", false, 2, ""},
		{"bad id", "", false, 0, ""},
		{"caf\u00e9", mcp.Version20250326, true, 1, ""},
		{"\x7f", "", false, 2, ""},
		{"\x00", "", false, 0, ""},
		{"a\r\nb", "", false, 1, ""},
		{"", "", false, 0, ""},
		{"", mcp.Version20241105, true, 2, ""},
		{"x", "garbage\x00", true, 1, ""},
		{liveSessionID, mcp.Version20250618, true, 0, "text/event-stream"},
		{liveSessionID, mcp.Version20250618, true, 0, "*/*"},
		{"nosuch", "", false, 1, "application/json;q=0"},
	}
	for _, s := range seeds {
		f.Add(s.sid, s.version, s.hasVersion, s.op, s.accept)
	}
	hs := newHeaderServer(f)
	f.Fuzz(func(t *testing.T, sid, version string, hasVersion bool, op uint8, accept string) {
		method := []string{http.MethodPost, http.MethodGet, http.MethodDelete}[op%3]
		if sid == liveSessionID && method != http.MethodPost {
			return // a GET would hold the live stream open, a DELETE end the session
		}
		hdr := map[string]string{}
		if sid != "" {
			hdr[mcp.HeaderSessionID] = sid
		}
		var v *string
		if hasVersion {
			hdr[mcp.HeaderProtocolVersion] = version
			v = &version
		}
		if accept != "" {
			hdr["Accept"] = accept
		}
		body := ""
		if method == http.MethodPost {
			body = `{"jsonrpc":"2.0","id":7,"method":"ping"}`
		}
		w := hs.do(t.Context(), method, hdr, body)
		want := wantHeaderStatus(method, sid, v)
		switch {
		case w.Code >= 500:
			t.Fatalf("%s with session %q, version %q (%v), accept %q: %d %s", method, sid, version, hasVersion, accept, w.Code, w.Body.String())
		case w.Code != want && (accept == "" || w.Code != http.StatusNotAcceptable):
			t.Fatalf("%s with session %q, version %q (%v), accept %q: %d, want %d: %s", method, sid, version, hasVersion, accept, w.Code, want, w.Body.String())
		case w.Code >= 400:
			var e struct {
				JSONRPC string `json:"jsonrpc"`
				Error   *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if json.Unmarshal(w.Body.Bytes(), &e) != nil || e.JSONRPC != "2.0" || e.Error == nil || e.Error.Message == "" {
				t.Fatalf("%s: status %d without a JSON-RPC error body: %q", method, w.Code, w.Body.String())
			}
		case w.Code == http.StatusOK && strings.TrimSpace(w.Body.String()) != `{"jsonrpc":"2.0","id":7,"result":{}}`:
			t.Fatalf("%s on the live session: unexpected answer %s", method, w.Body.String())
		}
		hs.pingWorks(t)
	})
}

func TestMalformedSessionIDsAre400AndUnknownOnes404(t *testing.T) {
	hs := newHeaderServer(t)
	for _, c := range []struct {
		name, sid string
		want      int
	}{
		{"space inside", "bad id", http.StatusBadRequest},
		{"non-ASCII", "caf\u00e9", http.StatusBadRequest},
		{"DEL", "abc\x7f", http.StatusBadRequest},
		{"NUL", "\x00", http.StatusBadRequest},
		{"tab", "\tabc", http.StatusBadRequest},
		{"well-formed but unknown", "0123456789abcdef0123456789abcdef", http.StatusNotFound},
		{"every visible character", "!~\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}", http.StatusNotFound},
	} {
		for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
			t.Run(c.name+" "+method, func(t *testing.T) {
				body := ""
				if method == http.MethodPost {
					body = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
				}
				w := hs.do(t.Context(), method, map[string]string{mcp.HeaderSessionID: c.sid}, body)
				assert.Equal(t, c.want, w.Code, w.Body.String())
				if c.want == http.StatusBadRequest {
					assert.Contains(t, w.Body.String(), "malformed Mcp-Session-Id")
				}
			})
		}
	}
	hs.pingWorks(t)
}
