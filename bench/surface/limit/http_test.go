package limit_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/bench/surface/limit"
)

func TestHandlerAnswersOverHTTP(t *testing.T) {
	tests := []struct {
		name      string
		method    string
		body      string
		status    int
		session   bool   // a Mcp-Session-Id is set
		bodyHas   string // "" for an empty body
		typedJSON bool
	}{
		{"initialize opens a session", http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
			http.StatusOK, true, `"protocolVersion":"2025-11-25"`, true},
		{"notification is accepted", http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			http.StatusAccepted, false, "", false},
		{"stateless call opens no session", http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},` + meta + `}}`,
			http.StatusOK, false, `"resultType":"complete"`, true},
		{"unknown stateless method is 404", http.MethodPost, `{"jsonrpc":"2.0","id":3,"method":"nope","params":{` + meta + `}}`,
			http.StatusNotFound, false, `-32601`, true},
		{"unknown handshake method is 200", http.MethodPost, `{"jsonrpc":"2.0","id":3,"method":"nope"}`,
			http.StatusOK, false, `-32601`, true},
		{"body over the limit", http.MethodPost, `{"x":"` + strings.Repeat("a", limit.MaxBody) + `"}`,
			http.StatusRequestEntityTooLarge, false, "", false},
		{"GET has no stream", http.MethodGet, "", http.StatusMethodNotAllowed, false, "", false},
		{"DELETE ends nothing", http.MethodDelete, "", http.StatusOK, false, "", false},
	}
	h := &limit.Handler{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, "/mcp", strings.NewReader(tt.body)))
			assert.Equal(t, tt.status, rec.Code)
			assert.Equal(t, tt.session, rec.Header().Get("Mcp-Session-Id") != "")
			if tt.typedJSON {
				assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
			}
			if tt.bodyHas == "" {
				assert.Empty(t, rec.Body.String())
			} else {
				assert.Contains(t, rec.Body.String(), tt.bodyHas)
			}
		})
	}
}

func TestHandlerGivesEachInitializeItsOwnSession(t *testing.T) {
	h := &limit.Handler{}
	ids := map[string]bool{}
	for range 3 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`)))
		ids[rec.Header().Get("Mcp-Session-Id")] = true
	}
	assert.Len(t, ids, 3)
}

// failingBody fails every read.
type failingBody struct{}

func (failingBody) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestHandlerRejectsABodyItCannotRead(t *testing.T) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Body = io.NopCloser(failingBody{})
	(&limit.Handler{}).ServeHTTP(rec, req)
	require.Equal(t, http.StatusBadRequest, rec.Code)
}
