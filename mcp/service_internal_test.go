package mcp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// lineSession is one session served over pipes by serveStream: write sends
// a line, read waits for the next one.
type lineSession struct {
	in    *io.PipeWriter
	lines chan string
}

func serveLines(t *testing.T, s *Server) *lineSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.serveStream(ctx, inR, outW)
		outW.Close()
	}()
	ls := &lineSession{in: inW, lines: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			ls.lines <- sc.Text()
		}
		close(ls.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
	})
	return ls
}

func (ls *lineSession) call(t *testing.T, line string) string {
	t.Helper()
	_, err := io.WriteString(ls.in, line+"\n")
	require.NoError(t, err)
	if strings.Contains(line, `"id"`) {
		select {
		case reply := <-ls.lines:
			return reply
		case <-time.After(10 * time.Second):
			t.Fatalf("no reply to %s", line)
		}
	}
	return ""
}

const (
	lineInitialize    = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	lineInitialized   = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	lineStatelessCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}`
	lineHandshakeCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`
)

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

func newAddServer(t *testing.T) *Server {
	t.Helper()
	s := NewServer(&Implementation{Name: "s", Version: "1"}, &ServerOptions{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, AddTool(s, &Tool{Name: "add"}, func(_ context.Context, _ *CallToolRequest, in addArgs) (*CallToolResult, any, error) {
		return &CallToolResult{Content: []ContentBlock{Text(fmt.Sprint(in.A + in.B))}}, nil, nil
	}))
	return s
}

func TestStatelessRequestsLeaveTheHandshakeMethodsUnregistered(t *testing.T) {
	s := newAddServer(t)
	assert.Empty(t, s.router.Methods(), "NewServer registers nothing")

	ls := serveLines(t, s)
	assert.Contains(t, ls.call(t, lineStatelessCall), `"text":"3"`)
	assert.Empty(t, s.router.Methods(), "a stateless call is served by the stateless router alone")

	assert.Contains(t, ls.call(t, lineInitialize), `"protocolVersion":"2025-11-25"`)
	ls.call(t, lineInitialized)
	assert.Contains(t, ls.call(t, lineHandshakeCall), `"text":"3"`)
	assert.Contains(t, s.router.Methods(), "initialize")
	assert.Contains(t, s.router.Methods(), "tools/call")
}

func TestMethodsAddedWithRegisterAreServedBeforeAndAfterTheHandshakeMethods(t *testing.T) {
	s := newAddServer(t)
	require.NoError(t, s.Register("example/echo", rpc.Method{Handler: func(_ context.Context, req *rpc.Request) (any, error) {
		return map[string]string{"method": req.Method}, nil
	}}))
	assert.Equal(t, []string{"example/echo"}, s.router.Methods(), "only the application's own method before any handshake")

	ls := serveLines(t, s)
	ls.call(t, lineInitialize)
	ls.call(t, lineInitialized)
	assert.Contains(t, ls.call(t, `{"jsonrpc":"2.0","id":3,"method":"example/echo"}`), `"method":"example/echo"`)
	assert.Contains(t, ls.call(t, `{"jsonrpc":"2.0","id":4,"method":"ping"}`), `"result":{}`)
}

func TestConcurrentFirstHandshakesRegisterTheHandshakeMethodsOnce(t *testing.T) {
	s := newAddServer(t)
	const sessions = 8
	sess := make([]*lineSession, sessions)
	for i := range sess {
		sess[i] = serveLines(t, s)
	}
	var wg sync.WaitGroup
	replies := make([]string, sessions)
	for i, ls := range sess {
		wg.Go(func() {
			if !strings.Contains(ls.call(t, lineInitialize), `"result"`) {
				return
			}
			ls.call(t, lineInitialized)
			replies[i] = ls.call(t, lineHandshakeCall)
		})
	}
	wg.Wait()
	for i, r := range replies {
		assert.Contains(t, r, `"text":"3"`, "session %d", i)
	}
}
