package mcp_test

import (
	"io"
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

// BenchmarkHTTPToolsCallAdd2026JSON is BenchmarkHTTPToolsCallAdd2026 with
// the options of the bench server (HTTPOptions.JSONResponse), the
// counterpart of BenchmarkHTTPToolsCallAdd2025JSON.
func BenchmarkHTTPToolsCallAdd2026JSON(b *testing.B) {
	benchHTTPCalls(b, &mcp.HTTPOptions{JSONResponse: true}, false, addCall2026)
}

// BenchmarkHTTPLoopbackToolsCallAdd2025JSON measures one POST at a time on
// one session through a real net/http server on 127.0.0.1, as the load
// driver sends them: the client's cost is in the figure too, but a heap
// or CPU profile focused on net/http.(*conn).serve shows the server's
// alone, the request context and response writer net/http makes included.
func BenchmarkHTTPLoopbackToolsCallAdd2025JSON(b *testing.B) {
	h := mcp.NewStreamableHTTPHandler(benchServer(), &mcp.HTTPOptions{JSONResponse: true})
	srv := httptest.NewServer(h)
	b.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	client := srv.Client()
	post := func(body, session string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set(mcp.HeaderSessionID, session)
			req.Header.Set(mcp.HeaderProtocolVersion, "2025-11-25")
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			b.Fatal(err)
		}
		return resp, string(got)
	}
	resp, _ := post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`, "")
	session := resp.Header.Get(mcp.HeaderSessionID)
	if session == "" {
		b.Fatalf("initialize: %d", resp.StatusCode)
	}
	if resp, _ := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session); resp.StatusCode != http.StatusAccepted {
		b.Fatalf("initialized: %d", resp.StatusCode)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if resp, body := post(addCall2025(i), session); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"sum":3`) {
			b.Fatalf("call %d: %d %s", i, resp.StatusCode, body)
		}
	}
}
