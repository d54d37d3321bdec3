package mcp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// At the end of its input a stdio server finishes the requests in flight,
// writes their responses, then returns.
func TestEndOfInputFinishesRequestsInFlight(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "slow"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		time.Sleep(100 * time.Millisecond)
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("late")}}, nil
	}))
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}`,
	}, "\n") + "\n"
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Serve(context.Background(), rpc.NewStreamTransport(strings.NewReader(in), outW))
		outW.Close()
	}()
	var lines []string
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	require.NoError(t, <-done)
	require.Len(t, lines, 3)
	joined := strings.Join(lines, "\n")
	assert.Contains(t, joined, `"id":2,"result":{"content":[{"type":"text","text":"late"}]}`)
	assert.Contains(t, joined, `"id":3,"result":{"content":[{"type":"text","text":"late"}]}`)
	for _, l := range lines {
		assert.NotContains(t, l, "\n")
	}
}

// A request still in flight when the input ends reports progress as usual:
// its response will be written, and the progress goes out before it.
func TestProgressAfterTheEndOfInputIsSentBeforeTheResponse(t *testing.T) {
	s := newServer(t, nil)
	progressErr := make(chan error, 1)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "slow"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// The client never answers the ping: it fails when the input ends.
		if err := req.Session.Ping(ctx); !errors.Is(err, rpc.ErrClosed) {
			return nil, fmt.Errorf("ping: got %v, want rpc.ErrClosed", err)
		}
		err := req.Progress(ctx, 1, 2, "")
		progressErr <- err
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("late")}}, err
	}))
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p"}}}`,
	}, "\n") + "\n"
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Serve(context.Background(), rpc.NewStreamTransport(strings.NewReader(in), outW))
		outW.Close()
	}()
	var lines []string
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		if !strings.Contains(sc.Text(), `"method":"ping"`) { // written only when sent before the end of input
			lines = append(lines, sc.Text())
		}
	}
	require.NoError(t, <-done)
	require.NoError(t, <-progressErr)
	require.Len(t, lines, 3)
	assert.JSONEq(t, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":2}}`, lines[1])
	assert.Contains(t, lines[2], `"id":2,"result":{"content":[{"type":"text","text":"late"}]}`)
}
