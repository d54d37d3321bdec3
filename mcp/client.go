package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/rpc"
)

// Client is an MCP client of both eras. One Client serves an application:
// [Client.Connect] opens a [ClientSession] to a server over a
// [ClientTransport], finding out which era the server speaks (a
// server/discover probe for 2026-07-28, the initialize handshake for the
// older versions) and remembering the answer per server.
type Client struct {
	info Implementation
	opts ClientOptions
	log  *slog.Logger

	mu   sync.Mutex
	eras map[string]string // link key → the version last agreed with that server
}

// ClientOptions configure a Client. The zero value is usable: a client that
// speaks every version and serves nothing but ping.
type ClientOptions struct {
	// CreateMessage answers the server's sampling requests
	// (sampling/createMessage); non-nil declares the sampling capability.
	CreateMessage func(ctx context.Context, p *CreateMessageRequestParams) (*CreateMessageResult, error)
	// Elicit answers the server's elicitation requests (elicitation/create);
	// non-nil declares the elicitation capability (form mode, and URL mode
	// with ElicitURL). A form answer with action accept is completed with
	// the requested schema's defaults for the fields it omits, then
	// validated against that schema; an answer that fails is never sent.
	Elicit func(ctx context.Context, p *ElicitRequestParams) (*ElicitResult, error)
	// ElicitURL declares URL-mode elicitation as well as form mode.
	ElicitURL bool
	// ListRoots answers the server's roots/list; non-nil declares the roots
	// capability (with listChanged: see ClientSession.NotifyRootsListChanged).
	ListRoots func(ctx context.Context) (*ListRootsResult, error)
	// SamplingTools declares sampling.tools: CreateMessage accepts requests
	// that offer tools.
	SamplingTools bool
	// Capabilities, when set, is declared as is instead of the capabilities
	// derived from the handlers above.
	Capabilities *ClientCapabilities

	// OnProgress receives every progress notification (see also
	// WithProgressHandler for the progress of one call).
	OnProgress func(ctx context.Context, p *ProgressNotificationParams)
	// OnLog receives the server's log messages (notifications/message).
	OnLog func(ctx context.Context, p *LoggingMessageNotificationParams)
	// OnToolsListChanged, OnPromptsListChanged and OnResourcesListChanged
	// are told that a list changed. In 2026-07-28 such news arrives only on
	// a ClientSession.Listen stream.
	OnToolsListChanged     func(ctx context.Context)
	OnPromptsListChanged   func(ctx context.Context)
	OnResourcesListChanged func(ctx context.Context)
	// OnResourceUpdated is told that a subscribed resource changed.
	OnResourceUpdated func(ctx context.Context, p *ResourceUpdatedNotificationParams)
	// OnElicitationComplete is told that a URL-mode elicitation finished
	// (2025-11-25).
	OnElicitationComplete func(ctx context.Context, p *ElicitationCompleteNotificationParams)

	// ProtocolVersions the client speaks, preferred first. nil means every
	// version: 2026-07-28, then 2025-11-25 down to 2024-11-05. With only
	// handshake versions the client never probes with server/discover;
	// with only 2026-07-28 it never sends initialize.
	ProtocolVersions []string
	// MaxInputRounds bounds the input_required rounds of one 2026-07-28
	// call; 0 means 8.
	MaxInputRounds int
	// DiscoverTimeout bounds the server/discover probe on a stream (stdio):
	// a server that does not answer in time is taken for a handshake
	// server. 0 means 5 seconds.
	DiscoverTimeout time.Duration
	// Logger receives the client's logs. Nil passes the warnings and
	// errors to slog.Default() (standard error, unless the program changed
	// it); slog.New(slog.DiscardHandler) silences the client. Every message
	// from the server is logged at debug level, messages dropped at warn;
	// params never unless LogParams (docs/operations.md, "Logs").
	Logger *slog.Logger
	// LogParams adds to the debug lines the params of every request and
	// notification from the server, cut after 1 KiB, and to the lines
	// about unreadable messages a bounded excerpt. Off by default: params
	// may hold secrets. For development.
	LogParams bool
	// Middleware runs, outermost first, around every request and
	// notification the server sends the client (sampling, elicitation,
	// roots, logs, list changes…), in both eras.
	Middleware []rpc.Middleware
	// Outgoing runs, outermost first, around every request and
	// notification the client sends (rpc.WithOutgoing): it sees each call's
	// encoded params, which it may replace, and the server's raw result.
	Outgoing []rpc.Middleware
}

// NewClient returns a client that introduces itself as info. opts may be
// nil.
func NewClient(info *Implementation, opts *ClientOptions) *Client {
	c := &Client{eras: map[string]string{}}
	if info != nil {
		c.info = *info
	}
	if opts != nil {
		c.opts = *opts
	}
	c.log = c.opts.Logger
	if c.log == nil {
		c.log = logx.Fallback()
	}
	if c.opts.MaxInputRounds <= 0 {
		c.opts.MaxInputRounds = 8
	}
	if c.opts.DiscoverTimeout <= 0 {
		c.opts.DiscoverTimeout = 5 * time.Second
	}
	return c
}

// Connect opens a session to the server behind t: it dials, detects the
// server's era and completes the handshake (initialize and
// notifications/initialized) or the discovery (server/discover). ctx bounds
// the connecting only; the session lives until Close.
func (c *Client) Connect(ctx context.Context, t ClientTransport) (*ClientSession, error) {
	if t == nil {
		return nil, errors.New("mcp: Connect needs a transport")
	}
	s := newClientSession(c)
	log := c.log
	if name := clientTransportName(t); name != "" {
		log = logx.With(log, logx.Transport, name)
	}
	s.log = log
	env := &linkEnv{logger: log, logParams: c.opts.LogParams}
	link, err := t.dial(ctx, env)
	if err != nil {
		return nil, fmt.Errorf("mcp: connecting: %w", err)
	}
	s.link = link
	s.conn = rpc.NewConn(&sniffLink{clientLink: link, s: s}, rpc.WithHandler(rpc.HandlerFunc(s.handle)), rpc.WithAbandonHook(s.abandoned), rpc.WithLogger(log), rpc.WithLogParams(c.opts.LogParams), rpc.WithOutgoing(c.opts.Outgoing...))
	env.fail = func(id rpc.ID, err error) { s.conn.Fail(id, err) }
	go s.runNotes()
	go func() {
		<-s.conn.Done()
		s.notes.close()
	}()
	if err := s.establish(ctx); err != nil {
		s.conn.Close()
		return nil, err
	}
	return s, nil
}

// versions returns the versions the client speaks, split by era, each in
// the client's order of preference.
func (c *Client) versions() (stateless, handshake []string) {
	all := c.opts.ProtocolVersions
	if all == nil {
		all = append(StatelessVersions(), SupportedVersions()...)
	}
	for _, v := range all {
		switch {
		case slices.Contains(StatelessVersions(), v):
			stateless = append(stateless, v)
		case slices.Contains(SupportedVersions(), v):
			handshake = append(handshake, v)
		}
	}
	return stateless, handshake
}

// speaks reports whether the client speaks version v.
func (c *Client) speaks(v string) bool {
	stateless, handshake := c.versions()
	return slices.Contains(stateless, v) || slices.Contains(handshake, v)
}

// cachedEra returns the version last agreed with the server named key.
func (c *Client) cachedEra(key string) (string, bool) {
	if key == "" {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.eras[key]
	return v, ok
}

// rememberEra records the version agreed with the server named key.
func (c *Client) rememberEra(key, version string) {
	if key == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.eras[key] = version
}

// forgetEra drops what the client remembers of the server named key.
func (c *Client) forgetEra(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.eras, key)
}

// capabilities returns what the client declares.
func (c *Client) capabilities() ClientCapabilities {
	if c.opts.Capabilities != nil {
		return *c.opts.Capabilities
	}
	var caps ClientCapabilities
	if c.opts.CreateMessage != nil {
		caps.Sampling = &ClientCapabilitiesSampling{}
		if c.opts.SamplingTools {
			caps.Sampling.Tools = map[string]json.RawMessage{}
		}
	}
	if c.opts.Elicit != nil {
		caps.Elicitation = &ClientCapabilitiesElicitation{Form: map[string]json.RawMessage{}}
		if c.opts.ElicitURL {
			caps.Elicitation.URL = map[string]json.RawMessage{}
		}
	}
	if c.opts.ListRoots != nil {
		yes := true
		caps.Roots = &ClientCapabilitiesRoots{ListChanged: &yes}
	}
	return caps
}

// handshakeCapabilities returns what the client declares in an initialize
// offering version: what the client's options derive, fitted to the
// version (capabilities set in ClientOptions.Capabilities go as they are).
func (c *Client) handshakeCapabilities(version string) ClientCapabilities {
	if c.opts.Capabilities != nil {
		return *c.opts.Capabilities
	}
	return downgradeClientCapabilities(c.capabilities(), featuresOf(version))
}

// statelessCapabilities returns what the client declares in a 2026-07-28
// request, which has no roots.listChanged (the notification is gone).
func (c *Client) statelessCapabilities() ClientCapabilities {
	caps := c.capabilities()
	if caps.Roots != nil && c.opts.Capabilities == nil {
		caps.Roots = &ClientCapabilitiesRoots{}
	}
	return caps
}
