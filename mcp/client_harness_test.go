package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// wireLog records the messages both sides of a connection write, in the
// order they were written.
type wireLog struct {
	mu   sync.Mutex
	msgs []wireMsg
}

// wireMsg is one message written by one side.
type wireMsg struct {
	fromClient bool
	body       []byte
}

// side is one end of a connection whose writes go to a wireLog.
type side struct {
	rpc.Transport
	log        *wireLog
	fromClient bool
	drop       func(msg []byte) bool // read filter: messages the side never sees
}

func (s *side) Write(ctx context.Context, msg []byte) error {
	s.log.mu.Lock()
	s.log.msgs = append(s.log.msgs, wireMsg{s.fromClient, append([]byte(nil), msg...)})
	s.log.mu.Unlock()
	return s.Transport.Write(ctx, msg)
}

func (s *side) Read(ctx context.Context) ([]byte, error) {
	for {
		msg, err := s.Transport.Read(ctx)
		if err != nil || s.drop == nil || !s.drop(msg) {
			return msg, err
		}
	}
}

// sent returns what the client wrote, decoded.
func (l *wireLog) sent() []map[string]any {
	return l.decoded(true)
}

// received returns what the server wrote, decoded.
func (l *wireLog) received() []map[string]any {
	return l.decoded(false)
}

func (l *wireLog) decoded(fromClient bool) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, m := range l.msgs {
		if m.fromClient != fromClient {
			continue
		}
		var v map[string]any
		if json.Unmarshal(m.body, &v) == nil {
			out = append(out, v)
		}
	}
	return out
}

// methods returns the methods of what the client wrote.
func (l *wireLog) methods() []string {
	var out []string
	for _, m := range l.sent() {
		if s, ok := m["method"].(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// requests returns the client's requests of one method.
func (l *wireLog) requests(method string) []map[string]any {
	var out []map[string]any
	for _, m := range l.sent() {
		if m["method"] == method {
			out = append(out, m)
		}
	}
	return out
}

// checkSchemas validates the session's messages against our schema and the
// published one of its version. In a handshake session the messages of a
// failed discovery probe before initialize are left out.
func (l *wireLog) checkSchemas(t *testing.T, version string) {
	t.Helper()
	chk, err := mcpcheck.New(version)
	require.NoError(t, err)
	l.mu.Lock()
	msgs := append([]wireMsg(nil), l.msgs...)
	l.mu.Unlock()
	started := version == mcp.Version20260728
	for _, m := range msgs {
		if !started {
			started = m.fromClient && strings.Contains(string(m.body), `"method":"initialize"`)
			if !started {
				continue
			}
		}
		dir := mcpcheck.ServerToClient
		if m.fromClient {
			dir = mcpcheck.ClientToServer
		}
		if err := chk.Check(dir, m.body); err != nil {
			t.Errorf("a message fails the schemas: %v", err)
		}
	}
}

// clientFixture is a client session connected over a pipe to a server.
type clientFixture struct {
	session *mcp.ClientSession
	client  *mcp.Client
	wire    *wireLog
	server  *mcp.Server
}

// connectOptions adjust a clientFixture.
type connectOptions struct {
	key         string                // era cache key of the link
	dropServer  func(msg []byte) bool // messages the server never sees
	noSchemaChk bool                  // skip the schema check of the messages
}

// connect serves s over a pipe and connects a new client with opts to it.
func connect(t *testing.T, s *mcp.Server, opts *mcp.ClientOptions, co ...connectOptions) *clientFixture {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1.0.0"}, opts)
	return connectWith(t, c, s, co...)
}

// connectWith connects client c to a new session of s.
func connectWith(t *testing.T, c *mcp.Client, s *mcp.Server, co ...connectOptions) *clientFixture {
	t.Helper()
	var o connectOptions
	if len(co) > 0 {
		o = co[0]
	}
	srvEnd, cliEnd := rpc.NewPipe()
	log := &wireLog{}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, &side{Transport: srvEnd, log: log, drop: o.dropServer}) }()
	cs, err := c.Connect(ctx, &mcp.StreamTransport{Transport: &side{Transport: cliEnd, log: log, fromClient: true}, Key: o.key})
	require.NoError(t, err)
	t.Cleanup(func() {
		s.CloseSubscriptions()
		cs.Close()
		cancel()
		select {
		case <-served:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop")
		}
		if !o.noSchemaChk {
			log.checkSchemas(t, cs.ProtocolVersion())
		}
	})
	return &clientFixture{session: cs, client: c, wire: log, server: s}
}

// fakeServer answers a client's requests with answer, over a pipe; the
// client's writes are logged.
func fakeServer(t *testing.T, answer func(method string, params json.RawMessage) (any, error)) (*mcp.StreamTransport, *wireLog) {
	t.Helper()
	srvEnd, cliEnd := rpc.NewPipe()
	log := &wireLog{}
	conn := rpc.NewConn(&side{Transport: srvEnd, log: log}, rpc.WithHandler(rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		return answer(req.Method, req.Params)
	})))
	t.Cleanup(func() { conn.Close() })
	return &mcp.StreamTransport{Transport: &side{Transport: cliEnd, log: log, fromClient: true}}, log
}

// bg is a context with a test-sized deadline.
func bg(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// toolText returns the text of a tool result's first content block.
func toolText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotEmpty(t, res.Content)
	b, err := json.Marshal(res.Content[0])
	require.NoError(t, err)
	var c struct{ Text string }
	require.NoError(t, json.Unmarshal(b, &c))
	return c.Text
}

// fakeStateless is a stateless fake server whose connection the test
// drives: it answers server/discover and holds every subscriptions/listen
// open, reporting its id.
type fakeStateless struct {
	transport *mcp.StreamTransport
	conn      *rpc.Conn
	listenIDs chan json.RawMessage
}

// fakeServerConn starts a fakeStateless.
func fakeServerConn(t *testing.T) (*fakeStateless, *wireLog) {
	t.Helper()
	srvEnd, cliEnd := rpc.NewPipe()
	log := &wireLog{}
	f := &fakeStateless{listenIDs: make(chan json.RawMessage, 4)}
	f.conn = rpc.NewConn(&side{Transport: srvEnd, log: log}, rpc.WithHandler(rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		switch req.Method {
		case "server/discover":
			return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},"ttlMs":0,"cacheScope":"private"}`), nil
		case "subscriptions/listen":
			f.listenIDs <- req.ID.Raw()
			<-ctx.Done()
			return nil, rpc.ErrNoResponse
		}
		return nil, nil
	})))
	t.Cleanup(func() { f.conn.Close() })
	f.transport = &mcp.StreamTransport{Transport: &side{Transport: cliEnd, log: log, fromClient: true}}
	return f, log
}
