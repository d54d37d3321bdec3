package rpc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/rpc"
)

// What a handler's failure puts on the wire is chosen, never leaked: a
// panic, or an error that is not an *rpc.Error, reaches the peer as -32603
// "internal error" and nothing more, whatever the panic value or the
// error's text; the details go to the connection's logger. An *rpc.Error
// in an error chain is sent as it is, without the text wrapping it. A
// result that cannot be encoded is -32603 as well.

const rpcSecret = "hunter2-Q7"

var rpcLeaks = []string{rpcSecret, "/var/secret", ".go:", "goroutine ", "panic"}

// rpcSecHandler fails in every way the rule covers, by method.
var rpcSecHandler = rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
	switch req.Method {
	case "panics":
		panic("cannot open /var/secret/" + rpcSecret)
	case "panics-error":
		panic(fmt.Errorf("token %s: %w", rpcSecret, os.ErrPermission))
	case "fails":
		return nil, fmt.Errorf("open /var/secret/%s: %w", rpcSecret, os.ErrNotExist)
	case "wraps-rpc":
		return nil, fmt.Errorf("dial /var/secret/%s: %w", rpcSecret, rpc.NewError(-32001, "backend unavailable"))
	case "unencodable":
		return map[string]any{"f": func() {}, "s": rpcSecret}, nil
	case "bad-raw":
		return json.RawMessage(`{"` + rpcSecret), nil
	case "ok":
		return "fine", nil
	}
	return nil, rpc.MethodNotFound(req.Method)
})

var rpcSecCases = []struct {
	method  string
	code    int
	message string
	logged  bool // the details reach the log
}{
	{"panics", -32603, "internal error", true},
	{"panics-error", -32603, "internal error", true},
	{"fails", -32603, "internal error", true},
	{"wraps-rpc", -32001, "backend unavailable", false},
	{"unencodable", -32603, "internal error", false},
	{"bad-raw", -32603, "internal error", false},
}

// rpcSecResponse is one response as the tests read it.
type rpcSecResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpc.Error      `json:"error"`
}

// rpcSecStream sends raw messages to a connection over an in-memory pipe
// and returns what came back for each.
func rpcSecStream(t *testing.T, log io.Writer) func(msg string) []byte {
	client, server := rpc.NewPipe()
	conn := rpc.NewConn(server, rpc.WithHandler(rpcSecHandler), rpc.WithLogger(slog.New(slog.NewTextHandler(log, nil))))
	t.Cleanup(func() {
		client.Close()
		<-conn.Done()
	})
	return func(msg string) []byte {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, client.Write(ctx, []byte(msg)))
		got, err := client.Read(ctx)
		require.NoError(t, err)
		return got
	}
}

// rpcSecHTTP posts raw messages to an HTTP handler on a loopback server.
func rpcSecHTTP(t *testing.T, log io.Writer) func(msg string) []byte {
	srv := httptest.NewServer(rpc.NewHTTPHandler(rpcSecHandler, rpc.WithLogger(slog.New(slog.NewTextHandler(log, nil)))))
	t.Cleanup(srv.Close)
	return func(msg string) []byte {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(msg))
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return b
	}
}

var rpcSecWires = map[string]func(*testing.T, io.Writer) func(string) []byte{
	"stream": rpcSecStream,
	"HTTP":   rpcSecHTTP,
}

func TestHandlerFailuresReachThePeerAsGenericErrors(t *testing.T) {
	for wname, newWire := range rpcSecWires {
		for _, c := range rpcSecCases {
			t.Run(wname+"/"+c.method, func(t *testing.T) {
				var log syncbuf.Buffer
				send := newWire(t, &log)
				raw := send(`{"jsonrpc":"2.0","id":3,"method":"` + c.method + `"}`)
				for _, leak := range rpcLeaks {
					assert.NotContains(t, string(raw), leak, "the peer received internals")
				}
				var r rpcSecResponse
				require.NoError(t, json.Unmarshal(raw, &r), "%s", raw)
				assert.Equal(t, "3", string(r.ID))
				require.NotNil(t, r.Error, "%s", raw)
				assert.Equal(t, c.code, r.Error.Code)
				assert.Equal(t, c.message, r.Error.Message)
				assert.Empty(t, r.Error.Data)
				if c.logged {
					assert.Contains(t, log.String(), rpcSecret, "the details went to the log")
				}
				var after rpcSecResponse
				require.NoError(t, json.Unmarshal(send(`{"jsonrpc":"2.0","id":4,"method":"ok"}`), &after))
				assert.JSONEq(t, `"fine"`, string(after.Result), "the server still answers")
			})
		}
	}
}

func TestAPanicInABatchLosesNoOtherResponse(t *testing.T) {
	for wname, newWire := range rpcSecWires {
		t.Run(wname, func(t *testing.T) {
			var log syncbuf.Buffer
			raw := newWire(t, &log)(`[{"jsonrpc":"2.0","id":1,"method":"ok"},{"jsonrpc":"2.0","id":2,"method":"panics"},` +
				`{"jsonrpc":"2.0","method":"panics"},{"jsonrpc":"2.0","id":3,"method":"fails"},{"jsonrpc":"2.0","id":4,"method":"ok"}]`)
			for _, leak := range rpcLeaks {
				assert.NotContains(t, string(raw), leak)
			}
			var rs []rpcSecResponse
			require.NoError(t, json.Unmarshal(raw, &rs), "%s", raw)
			byID := map[string]rpcSecResponse{}
			for _, r := range rs {
				byID[string(r.ID)] = r
			}
			require.Len(t, byID, 4, "one response per request, none for the notification: %s", raw)
			assert.JSONEq(t, `"fine"`, string(byID["1"].Result))
			assert.JSONEq(t, `"fine"`, string(byID["4"].Result))
			for _, id := range []string{"2", "3"} {
				require.NotNil(t, byID[id].Error)
				assert.Equal(t, -32603, byID[id].Error.Code)
				assert.Equal(t, "internal error", byID[id].Error.Message)
			}
		})
	}
}

func TestAPanickingNotificationPutsNothingOnTheWire(t *testing.T) {
	var log syncbuf.Buffer
	client, server := rpc.NewPipe()
	conn := rpc.NewConn(server, rpc.WithHandler(rpcSecHandler), rpc.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	t.Cleanup(func() {
		client.Close()
		<-conn.Done()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, client.Write(ctx, []byte(`{"jsonrpc":"2.0","method":"panics"}`)))
	require.Eventually(t, func() bool { return strings.Contains(log.String(), rpcSecret) }, 5*time.Second, 5*time.Millisecond,
		"the notification's panic is logged")
	require.NoError(t, client.Write(ctx, []byte(`{"jsonrpc":"2.0","id":9,"method":"ok"}`)))
	got, err := client.Read(ctx)
	require.NoError(t, err)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":9,"result":"fine"}`, string(got), "the first message out answers the probe")
}

func TestACallWhoseContextEndsDoesNotBreakTheConnection(t *testing.T) {
	client, server := rpc.NewPipe()
	srv := rpc.NewConn(server, rpc.WithHandler(rpcSecHandler))
	conn := rpc.NewConn(client)
	t.Cleanup(func() {
		conn.Close()
		<-srv.Done()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ended, end := context.WithCancel(ctx)
	end()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				var got string
				if (i+j)%2 == 0 {
					// Its write races the ended context: on a message transport
					// it may fail, but only this call may fail for it.
					_ = conn.Call(ended, "ok", nil, &got)
					continue
				}
				if err := conn.Call(ctx, "ok", nil, &got); err != nil {
					t.Errorf("a call with a live context failed: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	var got string
	require.NoError(t, conn.Call(ctx, "ok", nil, &got))
	assert.Equal(t, "fine", got)
}
