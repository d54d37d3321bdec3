package mcp_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/require"
)

// tap records every message that crosses a transport, in order.
type tap struct {
	rpc.Transport
	mu      sync.Mutex
	sent    [][]byte
	onWrite func([]byte)
	check   func([]byte)
}

func (t *tap) Write(ctx context.Context, msg []byte) error {
	t.mu.Lock()
	t.sent = append(t.sent, append([]byte(nil), msg...))
	f := t.onWrite
	t.mu.Unlock()
	if t.check != nil {
		t.check(msg)
	}
	if f != nil {
		f(msg)
	}
	return t.Transport.Write(ctx, msg)
}

// messages returns what was written so far.
func (t *tap) messages() [][]byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([][]byte(nil), t.sent...)
}

// client is a test client: a raw connection to a server session, the
// generated typed client over it, and what the server wrote.
type client struct {
	conn    *rpc.Conn
	mcp     *v20251125.MCPClient
	server  *tap
	raw     rpc.Transport // the client's end, for writing raw bytes
	notes   chan *rpc.Request
	session *mcp.ServerSession
}

// clientOptions choose what the test client declares and serves.
type clientOptions struct {
	version   string                 // "" → latest
	caps      json.RawMessage        // client capabilities; nil → {}
	callbacks v20251125.MCPCallbacks // serves sampling, elicitation, roots
	noInit    bool                   // leave the session uninitialized
}

// dial serves a session of s over a pipe and connects a client to it.
func dial(t *testing.T, s *mcp.Server, o clientOptions) *client {
	t.Helper()
	srvEnd, cliEnd := rpc.NewPipe()
	version := o.version
	if version == "" {
		version = mcp.LatestVersion
	}
	// Every message the server emits must validate against our schema and
	// the published one of the session's version; what the client sends
	// is fed to the checker too, so responses meet their requests.
	chk, err := mcpcheck.New(version)
	require.NoError(t, err)
	var bad []string
	var badMu sync.Mutex
	tp := &tap{Transport: srvEnd, check: func(b []byte) {
		if err := chk.Check(mcpcheck.ServerToClient, b); err != nil {
			badMu.Lock()
			bad = append(bad, err.Error()+"\n  message: "+string(b))
			badMu.Unlock()
		}
	}}
	cliTap := &tap{Transport: cliEnd, check: func(b []byte) { chk.Check(mcpcheck.ClientToServer, b) }}
	t.Cleanup(func() {
		badMu.Lock()
		defer badMu.Unlock()
		for _, b := range bad {
			t.Errorf("the server emitted a message that fails the schemas: %s", b)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, tp) }()

	c := &client{server: tp, raw: cliTap, notes: make(chan *rpc.Request, 64)}
	router := rpc.NewRouter()
	cb := o.callbacks
	if cb == nil {
		cb = v20251125.UnimplementedMCPCallbacks{}
	}
	v20251125.RegisterMCPCallbacks(router, cb)
	router.Use(func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			if req.IsNotification() {
				select {
				case c.notes <- req:
				default:
				}
			}
			return next.Handle(ctx, req)
		})
	})
	c.conn = rpc.NewConn(cliTap, rpc.WithHandler(router))
	c.mcp = v20251125.NewMCPClient(c.conn)
	t.Cleanup(func() {
		c.conn.Close()
		cancel()
		select {
		case <-served:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop")
		}
	})
	if !o.noInit {
		v := version
		caps := v20251125.ClientCapabilities{}
		if o.caps != nil {
			require.NoError(t, json.Unmarshal(o.caps, &caps))
		}
		res, err := c.mcp.Initialize(context.Background(), &v20251125.InitializeRequestParams{
			ProtocolVersion: v, Capabilities: caps, ClientInfo: v20251125.Implementation{Name: "test", Version: "1"},
		})
		require.NoError(t, err)
		require.Equal(t, v, res.ProtocolVersion)
		require.NoError(t, c.mcp.NotificationsInitialized(context.Background(), &v20251125.NotificationParams{}))
	}
	return c
}

// call sends a raw request and returns the raw response's result or error.
func (c *client) call(t *testing.T, method string, params any) (json.RawMessage, *rpc.Error) {
	t.Helper()
	var res json.RawMessage
	err := c.conn.Call(context.Background(), method, params, &res)
	if err == nil {
		return res, nil
	}
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	return nil, rerr
}

// note waits for the next notification of a method.
func (c *client) note(t *testing.T, method string) *rpc.Request {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case n := <-c.notes:
			if n.Method == method {
				return n
			}
		case <-deadline:
			t.Fatalf("no %s notification", method)
			return nil
		}
	}
}
