package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/rpc"
)

// logSecret is what the log tests put in params: it must never reach a
// log unless WithLogParams asks for the params.
const logSecret = "sk-live-4f9a1c"

// logRecord is one decoded line of a JSON log.
type logRecord map[string]any

// logRecords decodes every line a slog JSON handler wrote.
func logRecords(t *testing.T, buf *syncbuf.Buffer) []logRecord {
	t.Helper()
	var out []logRecord
	for line := range strings.Lines(buf.String()) {
		var r logRecord
		require.NoError(t, json.Unmarshal([]byte(line), &r), "log line: %s", line)
		out = append(out, r)
	}
	return out
}

// findRecord returns the first record with the message msg, nil when none.
func findRecord(recs []logRecord, msg string) logRecord {
	for _, r := range recs {
		if r["msg"] == msg {
			return r
		}
	}
	return nil
}

// awaitRecord polls buf (for at most ten seconds) for a record with the
// message msg: handlers log after the reply may have been read.
func awaitRecord(t *testing.T, buf *syncbuf.Buffer, msg string) logRecord {
	t.Helper()
	var rec logRecord
	require.Eventually(t, func() bool {
		rec = findRecord(logRecords(t, buf), msg)
		return rec != nil
	}, 10*time.Second, 5*time.Millisecond, "no %q record in: %s", msg, buf.String())
	return rec
}

// jsonLogger logs at level, as JSON, into buf.
func jsonLogger(buf *syncbuf.Buffer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: level}))
}

// logHandler fails, panics, refuses or answers, by method.
var logHandler = rpc.HandlerFunc(func(_ context.Context, req *rpc.Request) (any, error) {
	switch req.Method {
	case "fail":
		return nil, errors.New("disk on fire")
	case "panic":
		panic("the handler gave up")
	case "refuse":
		return nil, rpc.InvalidParams("token " + logSecret + " is not accepted")
	case "note":
		return nil, nil
	}
	return "ok", nil
})

func TestLogsNameTheRequestOfEveryFailure(t *testing.T) {
	tests := []struct {
		name, method, msg string
		level             string
		code              float64
	}{
		{name: "a failing handler", method: "fail", msg: "jsonrpc: handler failed", level: "ERROR", code: rpc.CodeInternalError},
		{name: "a panicking handler", method: "panic", msg: "jsonrpc: handler panicked", level: "ERROR", code: rpc.CodeInternalError},
		{name: "an error the handler chose", method: "refuse", msg: "jsonrpc: request answered with an error", level: "DEBUG", code: rpc.CodeInvalidParams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, mk := range transports {
				t.Run(name, func(t *testing.T) {
					var buf syncbuf.Buffer
					p := mk(t, logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)))
					p.call(t, `{"jsonrpc":"2.0","method":"`+tt.method+`","params":{"token":"`+logSecret+`"},"id":"r-7"}`)
					rec := awaitRecord(t, &buf, tt.msg)
					assert.Equal(t, tt.level, rec["level"])
					assert.Equal(t, tt.method, rec["method"])
					assert.Equal(t, `"r-7"`, rec["id"])
					assert.Equal(t, tt.code, rec["code"])
					assert.NotContains(t, buf.String(), logSecret)
				})
			}
		})
	}
}

func TestHTTPHandlerLogsNameTheirTransport(t *testing.T) {
	var buf syncbuf.Buffer
	p := newHTTPPeer(t, logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)))
	p.call(t, `{"jsonrpc":"2.0","method":"fail","id":1}`)
	rec := awaitRecord(t, &buf, "jsonrpc: handler failed")
	assert.Equal(t, "http", rec["transport"])
}

func TestEveryMessageReceivedIsLoggedAtDebugWithoutItsParams(t *testing.T) {
	tests := []struct {
		name, raw, msg string
		id             any
		silent         bool
	}{
		{name: "a request", raw: `{"jsonrpc":"2.0","method":"ok","params":["` + logSecret + `"],"id":3}`, msg: "jsonrpc: request received", id: "3"},
		{name: "a notification", raw: `{"jsonrpc":"2.0","method":"note","params":{"k":"` + logSecret + `"}}`, msg: "jsonrpc: notification received", silent: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, mk := range transports {
				t.Run(name, func(t *testing.T) {
					var buf syncbuf.Buffer
					p := mk(t, logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)))
					if tt.silent {
						p.silent(t, tt.raw)
					} else {
						p.call(t, tt.raw)
					}
					rec := awaitRecord(t, &buf, tt.msg)
					assert.Equal(t, "DEBUG", rec["level"])
					assert.Equal(t, map[bool]string{true: "note", false: "ok"}[tt.silent], rec["method"])
					assert.Equal(t, tt.id, rec["id"])
					assert.NotContains(t, rec, "params")
					assert.NotContains(t, buf.String(), logSecret)
				})
			}
		})
	}
}

func TestWithLogParamsAddsTheParamsCutAfterOneKiB(t *testing.T) {
	long := strings.Repeat("x", 3000)
	tests := []struct {
		name, params string
		whole        bool
	}{
		{name: "short params whole", params: `{"token":"` + logSecret + `"}`, whole: true},
		{name: "long params cut", params: `{"token":"` + logSecret + `","pad":"` + long + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, mk := range transports {
				t.Run(name, func(t *testing.T) {
					var buf syncbuf.Buffer
					p := mk(t, logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)), rpc.WithLogParams(true))
					p.call(t, `{"jsonrpc":"2.0","method":"ok","params":`+tt.params+`,"id":1}`)
					rec := awaitRecord(t, &buf, "jsonrpc: request received")
					got, _ := rec["params"].(string)
					assert.Contains(t, got, logSecret)
					if tt.whole {
						assert.Equal(t, tt.params, got)
						return
					}
					assert.NotContains(t, got, long)
					assert.Contains(t, got, "truncated")
					assert.Less(t, len(got), 1200)
				})
			}
		})
	}
}

func TestWithLogParamsAddsTheReasonOfAnErrorAnswer(t *testing.T) {
	var buf syncbuf.Buffer
	p := newStreamPeer(t, logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)), rpc.WithLogParams(true))
	p.call(t, `{"jsonrpc":"2.0","method":"refuse","id":1}`)
	rec := awaitRecord(t, &buf, "jsonrpc: request answered with an error")
	assert.Contains(t, rec["error"], logSecret)
}

func TestAnInfoLoggerGetsNoLinePerMessage(t *testing.T) {
	for name, mk := range transports {
		t.Run(name, func(t *testing.T) {
			var buf syncbuf.Buffer
			p := mk(t, logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelInfo)))
			p.call(t, `{"jsonrpc":"2.0","method":"ok","params":[1],"id":1}`)
			p.call(t, `{"jsonrpc":"2.0","method":"refuse","id":2}`)
			p.silent(t, `{"jsonrpc":"2.0","method":"note"}`)
			p.call(t, `{"jsonrpc":"2.0","method":`)
			assert.Empty(t, buf.String())
		})
	}
}

func TestUnreadableInputIsLoggedWithoutItsBytes(t *testing.T) {
	const raw = `{"jsonrpc":"2.0","method":"ok","params":{"token":"` + logSecret + `"` // not closed
	tests := []struct {
		name      string
		logParams bool
	}{
		{name: "by default only its length"},
		{name: "with WithLogParams a bounded excerpt", logParams: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, mk := range transports {
				t.Run(name, func(t *testing.T) {
					var buf syncbuf.Buffer
					p := mk(t, logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)), rpc.WithLogParams(tt.logParams))
					p.call(t, raw)
					rec := awaitRecord(t, &buf, "jsonrpc: unreadable message")
					assert.Equal(t, "DEBUG", rec["level"])
					assert.Equal(t, float64(rpc.CodeParseError), rec["code"])
					assert.Equal(t, float64(len(raw)), rec["bytes"])
					if tt.logParams {
						assert.Contains(t, rec["excerpt"], logSecret)
						return
					}
					assert.NotContains(t, buf.String(), logSecret)
				})
			}
		})
	}
}

func TestAnInvalidRequestIsLoggedAtWarnWithItsID(t *testing.T) {
	for name, mk := range transports {
		t.Run(name, func(t *testing.T) {
			var buf syncbuf.Buffer
			p := mk(t, logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)))
			p.call(t, `{"jsonrpc":"1.0","method":"ok","params":["`+logSecret+`"],"id":9}`)
			rec := awaitRecord(t, &buf, "jsonrpc: invalid request answered with an error")
			assert.Equal(t, "WARN", rec["level"])
			assert.Equal(t, "9", rec["id"])
			assert.Equal(t, float64(rpc.CodeInvalidRequest), rec["code"])
			assert.NotContains(t, buf.String(), logSecret)
		})
	}
}

func TestANotificationThatFailsIsLoggedByHowItFailed(t *testing.T) {
	h := rpc.HandlerFunc(func(_ context.Context, req *rpc.Request) (any, error) {
		switch req.Method {
		case "broken":
			return nil, errors.New("queue closed")
		case "unknown":
			return nil, rpc.MethodNotFound(req.Method)
		}
		return nil, fmt.Errorf("skipped: %w", rpc.ErrNoResponse)
	})
	tests := []struct {
		method, msg, level string
	}{
		{method: "broken", msg: "jsonrpc: notification handler failed", level: "ERROR"},
		{method: "unknown", msg: "jsonrpc: notification refused", level: "DEBUG"},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			var buf syncbuf.Buffer
			p := newStreamPeer(t, h, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)))
			p.silent(t, `{"jsonrpc":"2.0","method":"`+tt.method+`"}`)
			rec := awaitRecord(t, &buf, tt.msg)
			assert.Equal(t, tt.level, rec["level"])
			assert.Equal(t, tt.method, rec["method"])
		})
	}
}

func TestAClientLogsTheResponsesItReceivesAtDebug(t *testing.T) {
	var buf syncbuf.Buffer
	a, b := rpc.NewPipe()
	server := rpc.NewConn(a, rpc.WithHandler(logHandler))
	client := rpc.NewConn(b, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)))
	t.Cleanup(func() { client.Close(); server.Close() })
	require.NoError(t, client.Call(context.Background(), "ok", map[string]string{"token": logSecret}, nil))
	require.Error(t, client.Call(context.Background(), "refuse", nil, nil))
	var codes []any
	for _, r := range logRecords(t, &buf) {
		if r["msg"] == "jsonrpc: response received" {
			assert.Equal(t, "pipe", r["transport"])
			codes = append(codes, r["code"])
		}
	}
	assert.Equal(t, []any{nil, float64(rpc.CodeInvalidParams)}, codes)
	assert.NotContains(t, buf.String(), logSecret)
}

func TestWebSocketLogsNameTheirTransport(t *testing.T) {
	var buf syncbuf.Buffer
	srv := httptest.NewServer(rpc.NewWebSocketHandler(logHandler, nil, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug))))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := rpc.DialWebSocket(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), &websocket.DialOptions{HTTPHeader: http.Header{}})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	require.Error(t, c.Call(ctx, "fail", nil, nil))
	rec := awaitRecord(t, &buf, "jsonrpc: handler failed")
	assert.Equal(t, "websocket", rec["transport"])
	assert.Equal(t, "fail", rec["method"])
	assert.Equal(t, "1", rec["id"])
}

func TestAnInfoLoggerCostsAMessageNoAllocation(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	bodies := []string{
		`{"jsonrpc":"2.0","method":"ok","params":[1],"id":1}`,
		`{"jsonrpc":"2.0","method":"refuse","params":[1],"id":2}`,
		`{"jsonrpc":"2.0","method":"note","params":[1]}`,
	}
	allocs := func(opts ...rpc.Option) float64 {
		h := rpc.NewHTTPHandler(logHandler, opts...)
		return testing.AllocsPerRun(100, func() {
			for _, b := range bodies {
				req := httptest.NewRequest(http.MethodPost, "http://localhost/", strings.NewReader(b))
				req.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
	unconfigured := allocs()
	assert.Equal(t, unconfigured, allocs(rpc.WithLogger(slog.New(slog.NewJSONHandler(io.Discard, nil)))), "an info-level logger")
	assert.Equal(t, unconfigured, allocs(rpc.WithLogParams(true)), "params asked for but no logger")
	assert.Greater(t, allocs(rpc.WithLogger(jsonLogger(new(syncbuf.Buffer), slog.LevelDebug)), rpc.WithLogParams(true)), unconfigured,
		"the measure sees the params a debug logger is given")
}

func TestHTTPRefusalsAreLoggedAtWarnWithTheirStatus(t *testing.T) {
	tests := []struct {
		name, method, contentType string
		host, encoding            string
		status                    int
	}{
		{name: "not POST", method: http.MethodGet, contentType: "application/json", status: http.StatusMethodNotAllowed},
		{name: "not JSON", method: http.MethodPost, contentType: "text/plain", status: http.StatusUnsupportedMediaType},
		{name: "foreign host", method: http.MethodPost, contentType: "application/json", host: "evil.example.com", status: http.StatusForbidden},
		{name: "compressed", method: http.MethodPost, contentType: "application/json", encoding: "gzip", status: http.StatusUnsupportedMediaType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf syncbuf.Buffer
			h := rpc.NewHTTPHandler(logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug)))
			req := httptest.NewRequest(tt.method, "http://localhost/", strings.NewReader(`{"jsonrpc":"2.0","method":"ok","params":["`+logSecret+`"],"id":1}`))
			req.Header.Set("Content-Type", tt.contentType)
			if tt.host != "" {
				req.Host = tt.host
			}
			if tt.encoding != "" {
				req.Header.Set("Content-Encoding", tt.encoding)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			require.Equal(t, tt.status, rec.Code)
			line := findRecord(logRecords(t, &buf), "jsonrpc: HTTP request refused")
			require.NotNil(t, line, buf.String())
			assert.Equal(t, "WARN", line["level"])
			assert.Equal(t, float64(tt.status), line["status"])
			assert.Equal(t, "http", line["transport"])
			assert.NotContains(t, buf.String(), logSecret)
		})
	}
}
