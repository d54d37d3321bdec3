package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

// ClientSession is one connection of a [Client] to a server, in either era:
// a handshake session (2024-11-05 … 2025-11-25) or a run of stateless
// 2026-07-28 requests, each carrying the version, the client's capabilities
// and identity in params._meta. Its methods are safe for concurrent use.
type ClientSession struct {
	client *Client
	link   clientLink
	conn   *rpc.Conn
	log    *slog.Logger // the client's, with the transport added

	// calls sends the client→server methods; its Caller is the session,
	// which adds what the era needs.
	calls   *v20251125.MCPClient
	modCall *v20260728.MCPClient

	established atomic.Bool // the handshake or discovery is done

	mu           sync.Mutex
	version      string // "" while connecting
	stateless    bool
	schema       *versionSchema
	caps         *ServerCapabilities
	info         *Implementation
	instructions string
	logLevel     LoggingLevel // 2026-07-28: sent with every request when set
	progress     map[string]func(*ProgressNotificationParams)
	listens      map[string]*listenState // subscriptionId → listen
	handling     map[string]context.CancelFunc
	nextToken    int64
	notes        *noteQueue
}

func newClientSession(c *Client) *ClientSession {
	s := &ClientSession{
		client:   c,
		log:      c.log,
		progress: map[string]func(*ProgressNotificationParams){},
		listens:  map[string]*listenState{},
		handling: map[string]context.CancelFunc{},
		notes:    newNoteQueue(),
	}
	s.calls = v20251125.NewMCPClient(sessionCaller{s})
	s.modCall = v20260728.NewMCPClient(sessionCaller{s})
	return s
}

// ProtocolVersion returns the version agreed with the server.
func (s *ClientSession) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Stateless reports whether the session speaks the stateless protocol
// (2026-07-28): no initialize, every request on its own.
func (s *ClientSession) Stateless() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stateless
}

// ServerCapabilities returns what the server offers, from its initialize
// result or its server/discover result.
func (s *ClientSession) ServerCapabilities() *ServerCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// ServerInfo returns the server's self-description (for display and logs
// only); nil when a stateless server did not name itself.
func (s *ClientSession) ServerInfo() *Implementation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.info
}

// Instructions returns the server's advice on how to use it, if any.
func (s *ClientSession) Instructions() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.instructions
}

// Close ends the session: calls in flight fail, and the transport closes
// (a spawned server is stopped, an HTTP session deleted).
func (s *ClientSession) Close() error {
	err := s.conn.Close()
	<-s.conn.Done()
	return err
}

// Wait blocks until the session ends and returns why: nil after Close or
// when the server ended the connection cleanly.
func (s *ClientSession) Wait() error {
	return s.conn.Wait()
}

// state returns the session's version and era.
func (s *ClientSession) state() (*versionSchema, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.schema, s.stateless
}

// sessionCaller sends the generated client's calls through the session.
type sessionCaller struct{ s *ClientSession }

func (c sessionCaller) Call(ctx context.Context, method string, params, result any) error {
	vs, stateless := c.s.state()
	if vs == nil {
		return fmt.Errorf("mcp: %s before the session is established", method)
	}
	return c.s.call(ctx, vs, stateless, method, params, result)
}

func (c sessionCaller) Notify(ctx context.Context, method string, params any) error {
	vs, _ := c.s.state()
	if vs == nil {
		return fmt.Errorf("mcp: %s before the session is established", method)
	}
	if _, err := vs.clientMethod(method); err != nil {
		return err
	}
	if params == nil {
		params = struct{}{}
	}
	return c.s.conn.Notify(ctx, method, params)
}

// call sends one request in the given version and era and decodes its
// result: the method must exist in the version; a stateless request gets
// its _meta; input_required answers are served and the request retried; the
// result must validate against the version's schema.
func (s *ClientSession) call(ctx context.Context, vs *versionSchema, stateless bool, method string, params, result any) error {
	if _, err := vs.clientMethod(method); err != nil {
		return err
	}
	raw, err := s.roundTrips(ctx, vs, stateless, method, params)
	if err != nil {
		return err
	}
	if result == nil {
		return nil
	}
	if err := rpc.DecodeJSON(raw, result); err != nil {
		return &InvalidResultError{Method: method, Version: vs.version, Err: err}
	}
	return nil
}

// roundTrips sends a request until it has its final result: once, or in
// 2026-07-28 once per round of input the server asks for (each round a new
// request with a new id, carrying the answers and the echoed state), up to
// ClientOptions.MaxInputRounds rounds.
func (s *ClientSession) roundTrips(ctx context.Context, vs *versionSchema, stateless bool, method string, params any) (json.RawMessage, error) {
	members, err := s.paramsOf(ctx, vs, stateless, params)
	if err != nil {
		return nil, fmt.Errorf("mcp: %s: %w", method, err)
	}
	if token, ok := members.progressToken(); ok {
		defer s.dropProgress(token)
	}
	var round map[string]json.RawMessage // inputResponses and requestState of the retry
	for rounds := 0; ; rounds++ {
		var raw json.RawMessage
		if err := s.conn.Call(ctx, method, members.with(round), &raw); err != nil {
			return nil, err
		}
		asks := false
		if stateless {
			raw, asks = completeStatelessResult(method, raw)
		}
		if err := vs.checkResult(method, raw); err != nil {
			return nil, &InvalidResultError{Method: method, Version: vs.version, Err: err}
		}
		if !asks {
			return raw, nil
		}
		if rounds >= s.client.opts.MaxInputRounds {
			return nil, fmt.Errorf("mcp: %s: the server still asked for input after %d rounds (ClientOptions.MaxInputRounds)", method, rounds)
		}
		if round, err = s.answerInputs(ctx, method, raw); err != nil {
			return nil, err
		}
	}
}

// paramMembers are a request's params as JSON members.
type paramMembers map[string]json.RawMessage

// with returns the params with the members of more added, as JSON. Raw
// members keep their text (no HTML escaping), so an echoed requestState
// goes back as it came.
func (p paramMembers) with(more map[string]json.RawMessage) json.RawMessage {
	out := make(map[string]json.RawMessage, len(p)+len(more))
	for k, v := range p {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		panic("mcp: cannot encode params: " + err.Error()) // every member is valid JSON
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// progressToken returns the token the params carry in _meta, as a key.
func (p paramMembers) progressToken() (string, bool) {
	var meta map[string]json.RawMessage
	if json.Unmarshal(p["_meta"], &meta) != nil {
		return "", false
	}
	tok, ok := meta["progressToken"]
	return string(tok), ok
}

// paramsOf encodes a request's params and adds what the request needs in
// _meta: in 2026-07-28 the version, the client's capabilities and identity
// and the session's log level; in both eras a progress token when ctx
// carries a progress handler.
func (s *ClientSession) paramsOf(ctx context.Context, vs *versionSchema, stateless bool, params any) (paramMembers, error) {
	members := paramMembers{}
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return nil, err
		}
		if string(b) != "null" {
			if err := json.Unmarshal(b, &members); err != nil {
				return nil, fmt.Errorf("params must be a JSON object: %w", err)
			}
		}
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := members["_meta"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, fmt.Errorf("params._meta must be a JSON object: %w", err)
		}
	}
	if stateless {
		meta[metaProtocolVersion] = rawJSON(vs.version)
		meta[metaClientCapabilities] = rawJSON(s.client.statelessCapabilities())
		meta[metaClientInfo] = rawJSON(s.client.info)
		s.mu.Lock()
		if level := s.logLevel; level != "" {
			meta[metaLogLevel] = rawJSON(level)
		}
		s.mu.Unlock()
	}
	if f := progressHandlerFrom(ctx); f != nil {
		if _, set := meta["progressToken"]; !set {
			meta["progressToken"] = s.addProgress(f)
		}
	}
	if len(meta) > 0 {
		members["_meta"] = rawJSON(meta)
	} else {
		delete(members, "_meta")
	}
	return members, nil
}

// completeStatelessResult reads a 2026-07-28 result the way the protocol
// tells clients to: a result without resultType (an older server) is
// complete, and a cacheable result without caching hints may not be
// reused (ttlMs 0, private). asks reports whether the result asks for
// input (resultType input_required).
func completeStatelessResult(method string, raw json.RawMessage) (_ json.RawMessage, asks bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil || members == nil {
		return raw, false
	}
	changed := false
	if _, ok := members["resultType"]; !ok {
		members["resultType"] = json.RawMessage(`"complete"`)
		changed = true
	}
	var resultType string
	_ = json.Unmarshal(members["resultType"], &resultType)
	if f, ok := statelessMethod(method); ok && cacheableResult(f) && resultType == "complete" {
		if _, ok := members["ttlMs"]; !ok {
			members["ttlMs"] = json.RawMessage(`0`)
			changed = true
		}
		if _, ok := members["cacheScope"]; !ok {
			members["cacheScope"] = json.RawMessage(`"private"`)
			changed = true
		}
	}
	asks = resultType == "input_required"
	if !changed {
		return raw, asks
	}
	return rawJSON(members), asks
}

// sniffLink is the session's view of its link. Writing, it passes the id
// of each request to the callback the request's context carries, so that
// the session learns the id of a call it makes (a listen, whose
// notifications name it). Reading, it takes the server's notifications for
// the session (see takeNote); the connection sees requests and responses.
type sniffLink struct {
	clientLink
	s *ClientSession
}

func (l *sniffLink) Read(ctx context.Context) ([]byte, error) {
	for {
		msg, err := l.clientLink.Read(ctx)
		if err != nil || !l.s.takeNote(msg) {
			return msg, err
		}
	}
}

type idSinkKey struct{}

// withIDSink returns a context whose requests report their ids to f.
func withIDSink(ctx context.Context, f func(rpc.ID)) context.Context {
	return context.WithValue(ctx, idSinkKey{}, f)
}

func (l *sniffLink) Write(ctx context.Context, msg []byte) error {
	if f, ok := ctx.Value(idSinkKey{}).(func(rpc.ID)); ok {
		var env struct {
			ID *rpc.ID `json:"id"`
		}
		if json.Unmarshal(msg, &env) == nil && env.ID != nil {
			f(*env.ID)
		}
	}
	return l.clientLink.Write(ctx, msg)
}
