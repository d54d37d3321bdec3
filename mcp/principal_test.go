package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// sendAs sends one POST (or GET, DELETE) to h acting for principal ("" for
// none), in session (when not empty). A GET stream it is wrongly admitted
// to ends after 10 s.
func sendAs(t testing.TB, h http.Handler, method, principal, session, body string) *httptest.ResponseRecorder {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r := httptest.NewRequestWithContext(ctx, method, "http://127.0.0.1/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		r.Header.Set(mcp.HeaderSessionID, session)
		r.Header.Set(mcp.HeaderProtocolVersion, mcp.Version20251125)
	}
	if principal != "" {
		r = r.WithContext(mcp.WithPrincipal(r.Context(), principal))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

const initializeBody = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`

// A session initialized for a principal (mcp.WithPrincipal, as auth.Require
// sets it) serves that principal alone, at every replica: another
// principal, or a request that names none, is refused with 403, on POST,
// GET and DELETE. A session opened for no principal binds nothing.
func TestASessionServesThePrincipalItWasOpenedFor(t *testing.T) {
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	single := mcp.NewStreamableHTTPHandler(askingServer(t), nil)
	t.Cleanup(func() { single.Close() })
	for name, handlers := range map[string][]*mcp.StreamableHTTPHandler{
		"one handler":  {single},
		"two replicas": newCluster(t, 2, askingServer, nil).handlers,
	} {
		at := func(i int) http.Handler { return handlers[i%len(handlers)] }

		w := sendAs(t, at(0), http.MethodPost, "alice", "", initializeBody)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		alice := w.Header().Get(mcp.HeaderSessionID)
		for _, intruder := range []string{"bob", ""} {
			for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
				body := ""
				if method == http.MethodPost {
					body = ping
				}
				w = sendAs(t, at(1), method, intruder, alice, body)
				assert.Equal(t, http.StatusForbidden, w.Code, "%s: %s by %q: %s", name, method, intruder, w.Body)
				assert.Contains(t, w.Body.String(), "the session was opened for another principal")
			}
		}
		w = sendAs(t, at(1), http.MethodPost, "alice", alice, ping)
		assert.Equal(t, http.StatusOK, w.Code, "%s: alice's own session: %s", name, w.Body)

		w = sendAs(t, at(0), http.MethodPost, "", "", initializeBody)
		require.Equal(t, http.StatusOK, w.Code)
		open := w.Header().Get(mcp.HeaderSessionID)
		assert.Equal(t, http.StatusOK, sendAs(t, at(1), http.MethodPost, "bob", open, ping).Code, "%s: a session opened for no principal", name)
	}
}
