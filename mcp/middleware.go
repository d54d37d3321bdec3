package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
)

// chain wraps h in middleware, outermost first.
func chain(h rpc.Handler, mws []rpc.Middleware) rpc.Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

// sessionHandler is what a session's connection runs for each message of
// the client: ServerOptions.Middleware around the session's own Handle,
// with the session already in the context (SessionFromContext works in
// middleware too).
func (s *Server) sessionHandler(ss *ServerSession) rpc.Handler {
	if len(s.opts.Middleware) == 0 {
		return ss
	}
	inner := chain(ss, s.opts.Middleware)
	return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		return inner.Handle(withSession(ctx, ss), req)
	})
}

// serveStatelessVia serves a 2026-07-28 request that arrived over HTTP through
// ServerOptions.Middleware, and its notifications through
// ServerOptions.Outgoing. Requests on a session's connection (stdio) get
// both from the connection instead.
func (s *Server) serveStatelessVia(ctx context.Context, req *rpc.Request, sink statelessSink) (any, error) {
	if len(s.opts.Outgoing) > 0 {
		inner := sink
		sink = outgoingSink{send: chain(rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			return nil, inner.notify(ctx, req.Method, req.Params)
		}), s.opts.Outgoing)}
	}
	if len(s.opts.Middleware) == 0 {
		return s.serveStateless(ctx, req, sink)
	}
	return chain(rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		return s.serveStateless(ctx, req, sink)
	}), s.opts.Middleware).Handle(ctx, req)
}

// outgoingSink runs the notifications of a 2026-07-28 HTTP request
// through ServerOptions.Outgoing.
type outgoingSink struct {
	send rpc.Handler // the middleware around the request's own sink
}

func (o outgoingSink) notify(ctx context.Context, method string, params any) error {
	raw, ok := params.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(params); err != nil {
			return err
		}
	}
	_, err := o.send.Handle(ctx, &rpc.Request{Method: method, Params: raw})
	return err
}

// Register adds a method of the application's own, outside MCP, served in
// both eras: to a handshake session once it is initialized, and as a
// 2026-07-28 request once its _meta is admitted. m.Params (a schema)
// validates the params as for any method; generated services register
// through the same call (see docs/mcp-server.md, "Custom methods"). It
// fails for an empty name, a nil handler, or a name MCP uses.
func (s *Server) Register(name string, m rpc.Method) error {
	if name == "" || m.Handler == nil {
		return fmt.Errorf("mcp: Register needs a method name and a handler")
	}
	if _, ok := v20251125.MCPMethodFacts(name); ok || isProtocolMethod(name) {
		return fmt.Errorf("mcp: %q is an MCP method", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.custom == nil {
		s.custom = map[string]bool{}
	}
	if s.custom[name] {
		return fmt.Errorf("mcp: method %q is already registered", name)
	}
	s.custom[name] = true
	s.router.Register(name, m)
	return nil
}

// isCustom reports whether name was registered with Register.
func (s *Server) isCustom(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.custom[name]
}

// isProtocolMethod reports whether a method belongs to MCP in any era:
// the stateless methods, and everything under the protocol's prefixes.
func isProtocolMethod(name string) bool {
	if _, ok := statelessMethod(name); ok {
		return true
	}
	for _, prefix := range []string{"notifications/", "tools/", "resources/", "prompts/", "completion/", "logging/", "tasks/", "sampling/", "elicitation/", "roots/", "server/", "subscriptions/"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// serveStatelessCustom serves a 2026-07-28 request for a method added with
// Register: its _meta is admitted as for any request, then the router
// validates the params and runs the handler. The result goes back as the
// handler made it.
func (s *Server) serveStatelessCustom(ctx context.Context, req *rpc.Request, sink statelessSink, sc *statelessCall) (any, error) {
	sc, err := s.admitStateless(req, sc)
	if err != nil {
		return nil, err
	}
	sc.sink = sink
	return s.router.Handle(sc.context(ctx, req), req)
}
