package rpc_test

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/rpc"
)

// captureDefaultLogger makes slog's default logger write JSON, at every
// level, into the buffer it returns for the rest of the test, as a
// program's slog.SetDefault would. Tests that call it must not be
// parallel.
func captureDefaultLogger(t *testing.T) *syncbuf.Buffer {
	t.Helper()
	var buf syncbuf.Buffer
	prev := slog.Default()
	slog.SetDefault(jsonLogger(&buf, slog.LevelDebug))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return &buf
}

// The failures whose cause the peer never sees: without WithErrorDetail
// the wire says only "internal error", so the cause must reach a log.
var causeTests = []struct {
	name, method, msg, cause string
}{
	{name: "a failing handler", method: "fail", msg: "jsonrpc: handler failed", cause: "disk on fire"},
	{name: "a panicking handler", method: "panic", msg: "jsonrpc: handler panicked", cause: "the handler gave up"},
}

func TestWithoutALoggerTheCauseOfAnInternalErrorGoesToTheDefaultLogger(t *testing.T) {
	for _, tt := range causeTests {
		t.Run(tt.name, func(t *testing.T) {
			for name, mk := range transports {
				t.Run(name, func(t *testing.T) {
					def := captureDefaultLogger(t)
					p := mk(t, logHandler)
					reply := p.call(t, `{"jsonrpc":"2.0","method":"`+tt.method+`","id":7}`)
					assert.JSONEq(t, `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"internal error"}}`, reply, "the wire keeps the sanitised answer")
					rec := awaitRecord(t, def, tt.msg)
					assert.Equal(t, "ERROR", rec["level"])
					assert.Equal(t, tt.method, rec["method"])
					assert.Equal(t, "7", rec["id"])
					assert.Contains(t, def.String(), tt.cause)
					assert.Nil(t, findRecord(logRecords(t, def), "jsonrpc: request received"), "debug lines stay out of the default logger")
				})
			}
		})
	}
}

func TestWithALoggerTheCauseGoesThereAndNotToTheDefaultLogger(t *testing.T) {
	for _, tt := range causeTests {
		t.Run(tt.name, func(t *testing.T) {
			for name, mk := range transports {
				t.Run(name, func(t *testing.T) {
					def := captureDefaultLogger(t)
					var buf syncbuf.Buffer
					p := mk(t, logHandler, rpc.WithLogger(jsonLogger(&buf, slog.LevelInfo)))
					p.call(t, `{"jsonrpc":"2.0","method":"`+tt.method+`","id":7}`)
					awaitRecord(t, &buf, tt.msg)
					assert.Contains(t, buf.String(), tt.cause)
					assert.NotContains(t, def.String(), tt.cause)
				})
			}
		})
	}
}
