package mcp_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
)

// benchHTTPCalls measures one POST through the Streamable HTTP handler,
// without the network: the handler's own cost per call, in both eras.
func benchHTTPCalls(b *testing.B, opts *mcp.HTTPOptions, handshake bool, call func(i int) string) {
	h := mcp.NewStreamableHTTPHandler(benchServer(), opts)
	b.Cleanup(func() { h.Close() })
	post := func(body, session, version string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			r.Header.Set(mcp.HeaderSessionID, session)
		}
		if version != "" {
			r.Header.Set("MCP-Protocol-Version", version)
		}
		if !handshake {
			r.Header.Set("Mcp-Method", "tools/call")
			r.Header.Set("Mcp-Name", "add")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	session, version := "", ""
	if handshake {
		w := post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`, "", "")
		session, version = w.Header().Get(mcp.HeaderSessionID), "2025-11-25"
		if session == "" {
			b.Fatalf("initialize: %d %s", w.Code, w.Body)
		}
		if w := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session, version); w.Code != http.StatusAccepted {
			b.Fatalf("initialized: %d %s", w.Code, w.Body)
		}
	} else {
		version = "2026-07-28"
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		w := post(call(i), session, version)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"sum":3`) {
			b.Fatalf("call %d: %d %s", i, w.Code, w.Body)
		}
	}
}

func addCall2025(i int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`
}

func addCall2026(i int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},` + statelessMeta + `}}`
}

func BenchmarkHTTPToolsCallAdd2025(b *testing.B) { benchHTTPCalls(b, nil, true, addCall2025) }

func BenchmarkHTTPToolsCallAdd2025JSON(b *testing.B) {
	benchHTTPCalls(b, &mcp.HTTPOptions{JSONResponse: true}, true, addCall2025)
}

func BenchmarkHTTPToolsCallAdd2026(b *testing.B) { benchHTTPCalls(b, nil, false, addCall2026) }
