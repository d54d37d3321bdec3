package mcp_test

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// TestAnIdleHTTPSessionHoldsNoGoroutine pins what lets a server hold many
// idle sessions: once its calls are done and its worker has gone, a
// handshake session over Streamable HTTP is only memory.
func TestAnIdleHTTPSessionHoldsNoGoroutine(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(benchServer(), &mcp.HTTPOptions{JSONResponse: true})
	defer h.Close()
	post := func(body, session string) *httptest.ResponseRecorder {
		return sendAs(t, h, http.MethodPost, "", session, body)
	}
	open := func() string {
		w := post(initializeBody, "")
		id := w.Header().Get(mcp.HeaderSessionID)
		require.NotEmpty(t, id, "initialize: %d %s", w.Code, w.Body)
		require.Equal(t, http.StatusAccepted, post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, id).Code)
		w = post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`, id)
		require.Contains(t, w.Body.String(), `"sum":3`)
		return id
	}
	open() // the handler's own goroutines, if any, start with the first
	base := runtime.NumGoroutine()
	const n = 50
	for range n {
		open()
	}
	// Workers exit after a second idle; then n more sessions hold nothing.
	// A few goroutines of earlier tests may come and go meanwhile: far
	// fewer than one per session.
	waitGoroutines(t, base+n/4)
}

// A POST of notifications that found its session just as it ended is told
// the session is gone (the POST answers 404), not that its frame was taken.
func TestAFrameForASessionThatJustEndedIsRefused(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(benchServer(), &mcp.HTTPOptions{JSONResponse: true})
	defer h.Close()
	w := sendAs(t, h, http.MethodPost, "", "", initializeBody)
	id := w.Header().Get(mcp.HeaderSessionID)
	require.NotEmpty(t, id)
	err := mcp.DeliverAfterEndForTest(h, id, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the session ended")
}
