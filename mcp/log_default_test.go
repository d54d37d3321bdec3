package mcp_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/mcp"
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
	slog.SetDefault(debugJSON(&buf))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return &buf
}

// A handler's failure reaches the client as a bare -32603; its cause goes
// to ServerOptions.Logger, or without one to slog's default logger: it is
// never lost.
func TestTheCauseOfAnInternalErrorIsLoggedWithOrWithoutALogger(t *testing.T) {
	for _, setup := range logSetups {
		for _, withLogger := range []bool{false, true} {
			name := setup.name + " without a logger"
			if withLogger {
				name = setup.name + " with a logger"
			}
			t.Run(name, func(t *testing.T) {
				def := captureDefaultLogger(t)
				var own syncbuf.Buffer
				var opts *mcp.ServerOptions
				want := def
				if withLogger {
					opts, want = &mcp.ServerOptions{Logger: debugJSON(&own)}, &own
				}
				s := logServer(t, opts)
				cs := connectLogged(t, setup, s, mcp.ClientOptions{Logger: slog.New(slog.DiscardHandler)})
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()

				_, err := cs.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "logs://down"})
				var werr *rpc.Error
				require.ErrorAs(t, err, &werr)
				assert.Equal(t, rpc.CodeInternalError, werr.Code)
				assert.Equal(t, "internal error", werr.Message)
				assert.Empty(t, werr.Data, "the cause stays off the wire without ErrorDetail")
				_, err = cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "boom", Arguments: json.RawMessage(`{}`)})
				require.ErrorAs(t, err, &werr)
				assert.Equal(t, rpc.CodeInternalError, werr.Code)
				assert.Empty(t, werr.Data)

				failed := awaitLog(t, want, "the failed read", func(r map[string]any) bool {
					return r["level"] == "ERROR" && r["method"] == "resources/read"
				})
				assert.Equal(t, "backend down", failed["error"])
				panicked := awaitLog(t, want, "the panic", func(r map[string]any) bool {
					return r["level"] == "ERROR" && r["method"] == "tools/call"
				})
				assert.Equal(t, "the tool broke", panicked["panic"])
				if withLogger {
					assert.NotContains(t, def.String(), "backend down", "a logger given takes every line")
				}
			})
		}
	}
}

// The default logger gets warnings and errors only: a server nobody
// configured writes nothing for a request that succeeds.
func TestWithoutALoggerRoutineLinesStayOutOfTheDefaultLogger(t *testing.T) {
	def := captureDefaultLogger(t)
	s := logServer(t, nil)
	cs := connectLogged(t, logSetups[0], s, mcp.ClientOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "login", Arguments: json.RawMessage(`{}`)})
	require.NoError(t, err)
	require.NoError(t, cs.Close())
	assert.Empty(t, def.String())
}
