package inspect_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/cmd/rpcgen/internal/inspect"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// bound is how long a test waits for anything.
const bound = 30 * time.Second

// greeter is an in-process server with a tool that has an output schema
// and one that asks the client for a form.
func greeter() mcp.ClientTransport {
	s := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1.0.0"}, &mcp.ServerOptions{Instructions: "Say hello."})
	out := json.RawMessage(`{"type":"object","properties":{"greeting":{"type":"string"}},"required":["greeting"]}`)
	in := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)
	s.AddTool(&mcp.Tool{Name: "greet", Description: "Greets someone.", InputSchema: in, OutputSchema: out},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Name string }
			json.Unmarshal(req.Params.Arguments, &a)
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("hello, " + a.Name)},
				StructuredContent: json.RawMessage(`{"greeting":"hello, ` + a.Name + `"}`)}, nil
		})
	s.AddTool(&mcp.Tool{Name: "ask_name", Description: "Asks the user's name.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{
				Message:         "Your name?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
			}})
			if err != nil {
				return nil, err
			}
			b, _ := json.Marshal(res)
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(string(b))}}, nil
		})
	srv, cli := rpc.NewPipe()
	go s.Serve(context.Background(), srv)
	return &mcp.StreamTransport{Transport: cli}
}

// start starts an inspector of t, closed when the test ends.
func start(t *testing.T, tr mcp.ClientTransport, versions ...string) *inspect.Inspector {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	in, err := inspect.Start(ctx, inspect.Config{Transport: tr, Target: "test", ProtocolVersions: versions})
	require.NoError(t, err)
	t.Cleanup(func() { in.Close() })
	return in
}

// client is how the tests talk to an inspector as its page would.
type client struct {
	t     *testing.T
	base  string // http://127.0.0.1:PORT
	token string
}

func pageClient(t *testing.T, in *inspect.Inspector) client {
	base, query, _ := strings.Cut(in.URL(), "/?token=")
	return client{t: t, base: base, token: query}
}

// do sends a request with the token and the page's own Origin; body, when
// not "", is posted as JSON.
func (c client) do(method, path, body string) *http.Response {
	c.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	require.NoError(c.t, err)
	req.Header.Set(inspect.TokenHeader, c.token)
	req.Header.Set("Origin", c.base)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	c.t.Cleanup(cancel)
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	require.NoError(c.t, err)
	c.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// json sends a request and decodes the JSON answer, which must have the
// given status.
func (c client) json(method, path, body string, status int, v any) {
	c.t.Helper()
	resp := c.do(method, path, body)
	b, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	require.Equal(c.t, status, resp.StatusCode, string(b))
	require.NoError(c.t, json.Unmarshal(b, v), string(b))
}

// event is one event of the live stream.
type event struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// events reads the live stream.
type events struct {
	sc *bufio.Scanner
}

func (c client) events() events {
	resp := c.do("GET", "/api/events", "")
	require.Equal(c.t, http.StatusOK, resp.StatusCode)
	return events{sc: bufio.NewScanner(resp.Body)}
}

// until reads events until ok returns true for one, and returns it; the
// stream's context bounds the wait.
func (e events) until(t *testing.T, ok func(event) bool) event {
	t.Helper()
	for e.sc.Scan() {
		data, found := strings.CutPrefix(e.sc.Text(), "data: ")
		if !found {
			continue
		}
		var ev event
		require.NoError(t, json.Unmarshal([]byte(data), &ev))
		if ok(ev) {
			return ev
		}
	}
	t.Fatalf("the event stream ended: %v", e.sc.Err())
	return event{}
}
