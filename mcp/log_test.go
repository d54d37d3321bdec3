package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// logSecret is what the log tests put in tool arguments and the
// Authorization header: it must reach no log unless LogParams asks for
// the params.
const logSecret = "sk-live-9e7d2b"

// A logSetup is one way a client reaches a server: an era over a
// transport.
type logSetup struct {
	name, transport, version string
}

var logSetups = []logSetup{
	{name: "stdio 2025-11-25", transport: "stdio", version: mcp.Version20251125},
	{name: "stdio 2026-07-28", transport: "stdio", version: mcp.Version20260728},
	{name: "http 2025-11-25", transport: "http", version: mcp.Version20251125},
	{name: "http 2026-07-28", transport: "http", version: mcp.Version20260728},
}

// logRecords decodes every line a slog JSON handler wrote to buf.
func logRecords(t *testing.T, buf *syncbuf.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(buf.String()) {
		var r map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &r), "log line: %s", line)
		out = append(out, r)
	}
	return out
}

// awaitLog polls buf, for at most two seconds, for a record that match
// accepts: some lines are written after the answer has been read.
func awaitLog(t *testing.T, buf *syncbuf.Buffer, what string, match func(map[string]any) bool) map[string]any {
	t.Helper()
	var found map[string]any
	require.Eventually(t, func() bool {
		for _, r := range logRecords(t, buf) {
			if match(r) {
				found = r
				return true
			}
		}
		return false
	}, 2*time.Second, 5*time.Millisecond, "no %s in the log:\n%s", what, buf.String())
	return found
}

// debugJSON is a debug-level JSON logger writing to buf.
func debugJSON(buf *syncbuf.Buffer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// logServer has a tool that takes any arguments, a tool that panics and a
// resource whose handler fails.
func logServer(t *testing.T, opts *mcp.ServerOptions) *mcp.Server {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "logs", Version: "1"}, opts)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "login", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("welcome")}}, nil
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "boom", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			panic("the tool broke")
		}))
	require.NoError(t, s.AddResource(&mcp.Resource{URI: "logs://down", Name: "down"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return nil, errors.New("backend down")
		}))
	return s
}

// connectLogged connects a client to s as setup says, with the client
// options copts (whose ProtocolVersions it sets). Over HTTP every request
// carries the secret in its Authorization header.
func connectLogged(t *testing.T, setup logSetup, s *mcp.Server, copts mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	copts.ProtocolVersions = []string{setup.version}
	c := mcp.NewClient(&mcp.Implementation{Name: "log-client", Version: "1"}, &copts)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var tr mcp.ClientTransport
	switch setup.transport {
	case "http":
		srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(s, nil))
		t.Cleanup(srv.Close)
		tr = &mcp.StreamableHTTPTransport{URL: srv.URL, Header: http.Header{"Authorization": {"Bearer " + logSecret}}}
	default:
		toServerR, toServerW := io.Pipe()
		toClientR, toClientW := io.Pipe()
		sctx, stop := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- s.Serve(sctx, rpc.NewStreamTransport(toServerR, toClientW)) }()
		t.Cleanup(func() {
			stop()
			toServerW.Close()
			toClientW.Close()
			select {
			case <-served:
			case <-time.After(5 * time.Second):
				t.Error("the stdio server did not stop")
			}
		})
		tr = &mcp.StreamTransport{Transport: rpc.NewStreamTransport(toClientR, toServerW)}
	}
	cs, err := c.Connect(ctx, tr)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// exercise sends what every log test looks at: a call whose arguments
// hold the secret, a panicking tool and a failing resource read.
func exercise(t *testing.T, cs *mcp.ClientSession, args string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "login", Arguments: json.RawMessage(args)})
	require.NoError(t, err)
	require.Nil(t, res.IsError)
	_, err = cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "boom", Arguments: json.RawMessage(`{}`)})
	require.Error(t, err)
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "logs://down"})
	require.Error(t, err)
}

func secretArgs() string { return `{"password":"` + logSecret + `"}` }

func TestFailingHandlersAreLoggedAtErrorWithTheRequestIDMethodAndCode(t *testing.T) {
	for _, setup := range logSetups {
		t.Run(setup.name, func(t *testing.T) {
			var buf syncbuf.Buffer
			s := logServer(t, &mcp.ServerOptions{Logger: debugJSON(&buf)})
			exercise(t, connectLogged(t, setup, s, mcp.ClientOptions{}), secretArgs())
			for _, method := range []string{"tools/call", "resources/read"} {
				rec := awaitLog(t, &buf, method+" failure", func(r map[string]any) bool {
					return r["level"] == "ERROR" && r["method"] == method
				})
				assert.NotEmpty(t, rec["id"], "the request id: %v", rec)
				assert.Equal(t, float64(rpc.CodeInternalError), rec["code"])
				assert.Equal(t, setup.transport, rec["transport"])
			}
		})
	}
}

func TestNotificationsAreLoggedAtDebugWithTheirMethod(t *testing.T) {
	for _, setup := range logSetups {
		if setup.version == mcp.Version20260728 {
			continue // the stateless client sends no notification unprompted
		}
		t.Run(setup.name, func(t *testing.T) {
			var serverLog, clientLog syncbuf.Buffer
			s := logServer(t, &mcp.ServerOptions{Logger: debugJSON(&serverLog)})
			connectLogged(t, setup, s, mcp.ClientOptions{Logger: debugJSON(&clientLog)})
			rec := awaitLog(t, &serverLog, "notifications/initialized", func(r map[string]any) bool {
				return r["method"] == "notifications/initialized"
			})
			assert.Equal(t, "DEBUG", rec["level"])
			assert.Equal(t, setup.transport, rec["transport"])

			require.NoError(t, s.AddTool(&mcp.Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{}, nil
				}))
			rec = awaitLog(t, &clientLog, "the client's notifications/tools/list_changed", func(r map[string]any) bool {
				return r["method"] == "notifications/tools/list_changed"
			})
			assert.Equal(t, "DEBUG", rec["level"])
			assert.Equal(t, setup.transport, rec["transport"])
		})
	}
}

func TestSecretsReachNoLogByDefault(t *testing.T) {
	for _, setup := range logSetups {
		t.Run(setup.name, func(t *testing.T) {
			var serverLog, clientLog syncbuf.Buffer
			s := logServer(t, &mcp.ServerOptions{Logger: debugJSON(&serverLog)})
			exercise(t, connectLogged(t, setup, s, mcp.ClientOptions{Logger: debugJSON(&clientLog)}), secretArgs())
			awaitLog(t, &serverLog, "the tools/call", func(r map[string]any) bool { return r["method"] == "tools/call" })
			assert.NotContains(t, serverLog.String(), logSecret)
			assert.NotContains(t, clientLog.String(), logSecret)
		})
	}
}

func TestLogParamsLogsTheArgumentsCutAfterOneKiB(t *testing.T) {
	long := strings.Repeat("z", 4000)
	tests := []struct {
		name, args string
		cut        bool
	}{
		{name: "short", args: secretArgs()},
		{name: "long", args: `{"password":"` + logSecret + `","pad":"` + long + `"}`, cut: true},
	}
	for _, tt := range tests {
		for _, setup := range logSetups {
			t.Run(tt.name+"/"+setup.name, func(t *testing.T) {
				var buf syncbuf.Buffer
				s := logServer(t, &mcp.ServerOptions{Logger: debugJSON(&buf), LogParams: true})
				exercise(t, connectLogged(t, setup, s, mcp.ClientOptions{}), tt.args)
				rec := awaitLog(t, &buf, "the login call", func(r map[string]any) bool {
					p, _ := r["params"].(string)
					return r["method"] == "tools/call" && strings.Contains(p, logSecret)
				})
				params := rec["params"].(string)
				assert.Contains(t, params, logSecret)
				if tt.cut {
					assert.NotContains(t, params, long)
					assert.Contains(t, params, "truncated")
					assert.Less(t, len(params), 1200)
				}
				assert.NotContains(t, buf.String(), "Bearer", "headers are never logged")
			})
		}
	}
}

func TestAnInfoLoggerGetsOnlyTheSessionsLifecycle(t *testing.T) {
	lifecycle := map[string]bool{"mcp: session started": true, "mcp: session initialized": true, "mcp: session ended": true}
	for _, setup := range logSetups {
		t.Run(setup.name, func(t *testing.T) {
			var buf syncbuf.Buffer
			s := logServer(t, &mcp.ServerOptions{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
			cs := connectLogged(t, setup, s, mcp.ClientOptions{})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			for range 3 {
				_, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "login", Arguments: json.RawMessage(secretArgs())})
				require.NoError(t, err)
			}
			for _, r := range logRecords(t, &buf) {
				assert.True(t, lifecycle[r["msg"].(string)], "a line per message at info: %v", r)
			}
		})
	}
}

func TestASessionsLifecycleIsLoggedAtInfo(t *testing.T) {
	for _, setup := range logSetups {
		if setup.version == mcp.Version20260728 && setup.transport == "http" {
			continue // stateless over HTTP: no session
		}
		t.Run(setup.name, func(t *testing.T) {
			var buf syncbuf.Buffer
			s := logServer(t, &mcp.ServerOptions{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
			cs := connectLogged(t, setup, s, mcp.ClientOptions{})
			started := awaitLog(t, &buf, "session started", func(r map[string]any) bool { return r["msg"] == "mcp: session started" })
			assert.Equal(t, setup.transport, started["transport"])
			if setup.transport == "http" {
				assert.NotEmpty(t, started["session"])
			}
			if setup.version != mcp.Version20260728 {
				init := awaitLog(t, &buf, "session initialized", func(r map[string]any) bool { return r["msg"] == "mcp: session initialized" })
				assert.Equal(t, setup.version, init["version"])
				assert.Equal(t, "log-client", init["client"])
			}
			require.NoError(t, cs.Close())
			awaitLog(t, &buf, "session ended", func(r map[string]any) bool { return r["msg"] == "mcp: session ended" })
		})
	}
}

func TestTheClientLogsOnlyTheLengthOfAMessageItDrops(t *testing.T) {
	junk := `{"token":"` + logSecret + `"`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message\ndata: "+junk+"\n\n")
		io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		name      string
		logParams bool
	}{
		{name: "by default"},
		{name: "with LogParams, a bounded excerpt", logParams: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf syncbuf.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			link, err := mcp.DialLoggedLinkForTest(ctx, &mcp.StreamableHTTPTransport{URL: srv.URL}, debugJSON(&buf), tt.logParams)
			require.NoError(t, err)
			t.Cleanup(func() { link.Close() })
			require.NoError(t, link.Write(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)))
			msg, err := link.Read(ctx)
			require.NoError(t, err)
			assert.Contains(t, string(msg), `"result"`)
			rec := awaitLog(t, &buf, "the dropped event", func(r map[string]any) bool {
				return r["msg"] == "mcp: dropped an event whose data is not JSON"
			})
			assert.Equal(t, "WARN", rec["level"])
			assert.Equal(t, float64(len(junk)), rec["bytes"])
			if tt.logParams {
				assert.Equal(t, junk, rec["excerpt"])
				return
			}
			assert.NotContains(t, buf.String(), logSecret)
		})
	}
}

func TestURLsAreLoggedWithoutCredentials(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.test/mcp", "https://example.test/mcp"},
		{"https://user:" + logSecret + "@example.test/mcp", "https://example.test/mcp"},
		{"http://127.0.0.1:9/messages?sessionId=" + logSecret, "http://127.0.0.1:9/messages"},
		{"http://127.0.0.1:9/a%2Fb#" + logSecret, "http://127.0.0.1:9/a%2Fb"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, mcp.LogURLForTest(tt.in))
		})
	}
}
