package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
)

// tap is the client's end of the pipe. It records every message the client reads, in
// wire order, and checks the messages of both directions against our MCP schema and,
// when shared/mcp-spec is present, the published one.
type tap struct {
	rpc.Transport
	check *mcpcheck.Checker
	mu    sync.Mutex
	seen  []json.RawMessage
	bad   []error
}

func (t *tap) Read(ctx context.Context) ([]byte, error) {
	msg, err := t.Transport.Read(ctx)
	if err == nil {
		t.record(mcpcheck.ServerToClient, msg)
	}
	return msg, err
}

func (t *tap) Write(ctx context.Context, msg []byte) error {
	t.record(mcpcheck.ClientToServer, msg)
	return t.Transport.Write(ctx, msg)
}

func (t *tap) record(dir mcpcheck.Direction, msg []byte) {
	var err error
	if t.check != nil {
		err = t.check.Check(dir, msg)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if dir == mcpcheck.ServerToClient {
		t.seen = append(t.seen, json.RawMessage(append([]byte(nil), msg...)))
	}
	if err != nil {
		t.bad = append(t.bad, err)
	}
}

// wireMessage is the part of a message the ordering checks look at.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// upTo returns the messages read before the response with the given id, and whether
// that response was read at all.
func (t *tap) upTo(id string) ([]wireMessage, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var before []wireMessage
	for _, raw := range t.seen {
		var m wireMessage
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		if m.Method == "" && string(m.ID) == id {
			return before, true
		}
		before = append(before, m)
	}
	return before, false
}

// callbacks answers the server's requests as a cooperative client would and records them.
type callbacks struct {
	v20251125.UnimplementedMCPCallbacks
	mu          sync.Mutex
	sampling    []*mcp.CreateMessageRequestParams
	elicitation []*mcp.ElicitRequestParams
	updated     chan string
	// toolsChanged gets a token for every notifications/tools/list_changed.
	toolsChanged chan struct{}
}

func (c *callbacks) SamplingCreateMessage(_ context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	c.mu.Lock()
	c.sampling = append(c.sampling, p)
	c.mu.Unlock()
	return &mcp.CreateMessageResult{
		Role:       "assistant",
		Content:    mcp.CreateMessageResultContent{Value: mcp.TextContent{Text: "Paris"}},
		Model:      "test-model",
		StopReason: "endTurn",
	}, nil
}

func (c *callbacks) ElicitationCreate(_ context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	c.mu.Lock()
	c.elicitation = append(c.elicitation, p)
	c.mu.Unlock()
	return &mcp.ElicitResult{Action: "accept", Content: formAnswer(p)}, nil
}

// formAnswer fills in the forms of the multi-round-trip tools as the conformance suite
// does (name Alice, ok true, favourite colour blue, context "test context"), and any
// other form (one with a field not among these) with the username alice.
func formAnswer(p *mcp.ElicitRequestParams) map[string]mcp.ElicitResultContentValue {
	var props struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if form, ok := p.AsForm(); ok {
		_ = json.Unmarshal(form.RequestedSchema, &props)
	}
	answers := map[string]mcp.ElicitResultContentValueVariant{
		"name":    mcp.ElicitResultContentValueString("Alice"),
		"ok":      mcp.ElicitResultContentValueBoolean(true),
		"color":   mcp.ElicitResultContentValueString("blue"),
		"context": mcp.ElicitResultContentValueString("test context"),
	}
	out := map[string]mcp.ElicitResultContentValue{}
	for field := range props.Properties {
		v, ok := answers[field]
		if !ok {
			return map[string]mcp.ElicitResultContentValue{"username": {Value: mcp.ElicitResultContentValueString("alice")}}
		}
		out[field] = mcp.ElicitResultContentValue{Value: v}
	}
	return out
}

func (c *callbacks) RootsList(context.Context, *mcp.RequestParams) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///work", Name: "work"}, {URI: "file:///tmp", Name: "tmp"}}}, nil
}

func (c *callbacks) NotificationsMessage(context.Context, *mcp.LoggingMessageNotificationParams) error {
	return nil
}

func (c *callbacks) NotificationsProgress(context.Context, *mcp.ProgressNotificationParams) error {
	return nil
}

func (c *callbacks) NotificationsToolsListChanged(context.Context, *mcp.NotificationParams) error {
	select {
	case c.toolsChanged <- struct{}{}:
	default:
	}
	return nil
}

func (c *callbacks) NotificationsResourcesUpdated(_ context.Context, p *mcp.ResourceUpdatedNotificationParams) error {
	select {
	case c.updated <- p.URI:
	default:
	}
	return nil
}

// session is a client connected in-process to a fresh everything server.
type session struct {
	t       *testing.T
	conn    *rpc.Conn
	tap     *tap
	cb      *callbacks
	server  *mcp.Server
	watched *watched
	// init is the initialize result.
	init json.RawMessage
}

// clientOptions say how the test client introduces itself.
type clientOptions struct {
	capabilities string // the capabilities object; default: sampling and form elicitation
	pageSize     int
}

const fullCapabilities = `{"sampling":{},"elicitation":{"form":{}}}`

// connect starts a server on one end of an in-memory pipe and initializes a session from
// the other end.
func connect(t *testing.T, o clientOptions) *session {
	t.Helper()
	if o.capabilities == "" {
		o.capabilities = fullCapabilities
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)

	w := &watched{}
	s, err := newServer(slog.New(slog.NewTextHandler(io.Discard, nil)), o.pageSize, w)
	require.NoError(t, err)
	serverEnd, clientEnd := rpc.NewPipe()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, serverEnd) }()

	cb := &callbacks{updated: make(chan string, 16), toolsChanged: make(chan struct{}, 16)}
	router := rpc.NewRouter()
	v20251125.RegisterMCPCallbacks(router, cb)
	checker, err := mcpcheck.New(mcpcheck.OurVersion)
	require.NoError(t, err)
	if !checker.Published() {
		t.Log("no shared/mcp-spec found: messages are checked against our schema only")
	}
	tp := &tap{Transport: clientEnd, check: checker}
	conn := rpc.NewConn(tp, rpc.WithHandler(router))
	t.Cleanup(func() {
		tp.mu.Lock()
		for _, err := range tp.bad {
			t.Errorf("a message on the wire fails the schema: %v", err)
		}
		tp.mu.Unlock()
		_ = conn.Close()
		select {
		case <-served:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop after the client closed the connection")
		}
	})

	sess := &session{t: t, conn: conn, tap: tp, cb: cb, server: s, watched: w}
	sess.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":`+o.capabilities+
		`,"clientInfo":{"name":"everything-test","version":"1"}}`, &sess.init)
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	require.NoError(t, json.Unmarshal(sess.init, &init))
	require.Equal(t, "2025-11-25", init.ProtocolVersion)
	require.NoError(t, conn.Notify(ctx, "notifications/initialized", nil))
	return sess
}

// call sends a request with params given as JSON and decodes the result into out (nil
// discards it); any error fails the test.
func (s *session) call(method, params string, out any) {
	s.t.Helper()
	require.NoError(s.t, s.try(method, params, out), "%s %s", method, params)
}

// try is call that returns the error.
func (s *session) try(method, params string, out any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var p any
	if params != "" {
		p = json.RawMessage(params)
	}
	return s.conn.Call(ctx, method, p, out)
}

// callTool calls a tool and returns its raw result.
func (s *session) callTool(name, arguments string) json.RawMessage {
	s.t.Helper()
	params := `{"name":"` + name + `"}`
	if arguments != "" {
		params = `{"name":"` + name + `","arguments":` + arguments + `}`
	}
	var res json.RawMessage
	s.call("tools/call", params, &res)
	return res
}
