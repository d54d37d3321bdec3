package mcp_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
)

// BenchmarkIdleHandshakeSession measures what an idle handshake session
// over Streamable HTTP holds: b.N sessions are opened (initialize, then
// notifications/initialized) and kept, and the heap and goroutine stacks
// they hold once idle are reported per session, after a GC. "json" answers
// as bench's startload server does (HTTPOptions.JSONResponse), which
// measures the same in RSS, across processes; "sse" with the default
// options, where the initialize stream's events are kept for resumption.
// With IDLEHEAP=file set, the heap profile of the idle sessions is written
// to file (go test's -memprofile is written after they are closed).
func BenchmarkIdleHandshakeSession(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts *mcp.HTTPOptions
	}{
		{"json", &mcp.HTTPOptions{JSONResponse: true}},
		{"sse", nil},
	} {
		b.Run(mode.name, func(b *testing.B) { benchmarkIdleSessions(b, mode.opts) })
	}
}

func benchmarkIdleSessions(b *testing.B, opts *mcp.HTTPOptions) {
	h := mcp.NewStreamableHTTPHandler(benchServer(), opts)
	b.Cleanup(func() { h.Close() })
	post := func(body, session string) *httptest.ResponseRecorder {
		return sendAs(b, h, http.MethodPost, "", session, body)
	}
	held := func() (heap, stack uint64) {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc, m.StackInuse
	}
	post(initializeBody, "")
	heap0, stack0 := held()
	goroutines := runtime.NumGoroutine()
	b.ResetTimer()
	for range b.N {
		w := post(initializeBody, "")
		id := w.Header().Get(mcp.HeaderSessionID)
		if id == "" {
			b.Fatalf("initialize: %d %s", w.Code, w.Body)
		}
		if w := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, id); w.Code != http.StatusAccepted {
			b.Fatalf("initialized: %d %s", w.Code, w.Body)
		}
	}
	b.StopTimer()
	// Idle: a session's worker exits after a second without work, and an
	// idle session needs no goroutine. Wait for that (bounded), so what
	// is left is what an idle session holds.
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > goroutines && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if os.Getenv("DUMPG") != "" {
		pprof.Lookup("goroutine").WriteTo(os.Stdout, 1)
	}
	heap, stack := held()
	if f := os.Getenv("IDLEHEAP"); f != "" {
		out, _ := os.Create(f)
		pprof.Lookup("heap").WriteTo(out, 0)
		out.Close()
	}
	b.ReportMetric((float64(heap)+float64(stack)-float64(heap0)-float64(stack0))/float64(b.N), "B/session")
	b.ReportMetric((float64(stack)-float64(stack0))/float64(b.N), "stackB/session")
	b.ReportMetric(float64(runtime.NumGoroutine()-goroutines)/float64(b.N), "goroutines/session")
}
