package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/yosida95/uritemplate/v3"
)

// ResourceHandler reads a resource. For a template, req.Params.URI is the
// concrete URI asked for; [TemplateVars] returns the values the template
// matched.
type ResourceHandler func(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error)

// CodeResourceNotFound is the error code of resources/read for a URI that
// no resource or template serves, in the handshake era.
const CodeResourceNotFound = -32002

type resourceEntry struct {
	resource Resource
	cache    *CacheHint
	handler  ResourceHandler
}

type templateEntry struct {
	template ResourceTemplate
	cache    *CacheHint
	parsed   *uritemplate.Template
	handler  ResourceHandler
}

// AddResource registers a resource under its URI, replacing one with the
// same URI. Sessions are told that the list changed.
func (s *Server) AddResource(r *Resource, h ResourceHandler, opts ...RegisterOption) error {
	if r.URI == "" || r.Name == "" || h == nil {
		return fmt.Errorf("mcp: resource %q: uri, name and handler are required", r.URI)
	}
	s.resources.put(r.URI, &resourceEntry{resource: *r, handler: h, cache: applyOptions(opts).cache})
	s.listChanged("notifications/resources/list_changed", capResources)
	return nil
}

// AddResourceTemplate registers a resource template: an RFC 6570 URI
// template whose matching URIs the handler reads.
func (s *Server) AddResourceTemplate(t *ResourceTemplate, h ResourceHandler, opts ...RegisterOption) error {
	if t.Name == "" || h == nil {
		return fmt.Errorf("mcp: resource template %q: name and handler are required", t.URITemplate)
	}
	parsed, err := uritemplate.New(t.URITemplate)
	if err != nil {
		return fmt.Errorf("mcp: resource template %q: %w", t.URITemplate, err)
	}
	s.templates.put(t.URITemplate, &templateEntry{template: *t, parsed: parsed, handler: h, cache: applyOptions(opts).cache})
	s.listChanged("notifications/resources/list_changed", capResources)
	return nil
}

// RemoveResources unregisters resources by URI and templates by their
// template text; sessions are told when any was registered.
func (s *Server) RemoveResources(uris ...string) {
	a := s.resources.remove(uris...)
	b := s.templates.remove(uris...)
	if a || b {
		s.listChanged("notifications/resources/list_changed", capResources)
	}
}

type templateVarsKey struct{}

// TemplateVars returns the variables of the resource template that matched
// the URI being read, or nil when a plain resource is being read.
func TemplateVars(ctx context.Context) map[string]string {
	m, _ := ctx.Value(templateVarsKey{}).(map[string]string)
	return m
}

func (s *Server) listResources(ctx context.Context, ss *ServerSession, p *PaginatedRequestParams) (*ListResourcesResult, error) {
	page, next, err := s.resources.page(string(p.Cursor), s.opts.PageSize)
	if err != nil {
		return nil, err
	}
	setCache(ctx, pageHint(s.opts.Cache, page, func(e *resourceEntry) *CacheHint { return e.cache }))
	f := ss.features()
	out := &ListResourcesResult{Resources: make([]Resource, 0, len(page)), NextCursor: Cursor(next)}
	for _, e := range page {
		out.Resources = append(out.Resources, downgradeResource(e.resource, f))
	}
	return out, nil
}

func (s *Server) listTemplates(ctx context.Context, ss *ServerSession, p *PaginatedRequestParams) (*ListResourceTemplatesResult, error) {
	page, next, err := s.templates.page(string(p.Cursor), s.opts.PageSize)
	if err != nil {
		return nil, err
	}
	setCache(ctx, pageHint(s.opts.Cache, page, func(e *templateEntry) *CacheHint { return e.cache }))
	f := ss.features()
	out := &ListResourceTemplatesResult{ResourceTemplates: make([]ResourceTemplate, 0, len(page)), NextCursor: Cursor(next)}
	for _, e := range page {
		out.ResourceTemplates = append(out.ResourceTemplates, downgradeTemplate(e.template, f))
	}
	return out, nil
}

// readResource answers resources/read: a registered resource first, then
// the templates in the order they were added; nothing → -32002 with the
// URI in data.
func (s *Server) readResource(ctx context.Context, ss *ServerSession, p *ReadResourceRequestParams) (*ReadResourceResult, error) {
	paramsDecoded(ctx, p.Meta, nil)
	c := callOf(ctx, ss)
	req := &ReadResourceRequest{Session: ss, Params: p, call: c}
	var h ResourceHandler
	hint := s.opts.Cache
	if e, ok := s.resources.get(p.URI); ok {
		h = e.handler
		if e.cache != nil {
			hint = *e.cache
		}
	} else if e, vars := s.matchTemplate(p.URI); e != nil {
		h = e.handler
		if e.cache != nil {
			hint = *e.cache
		}
		ctx = context.WithValue(ctx, templateVarsKey{}, vars)
	} else {
		return nil, resourceNotFound(c, p.URI)
	}
	res, err := runWithInput(ctx, ss, c, func(ctx context.Context) (*ReadResourceResult, error) { return h(ctx, req) })
	if err != nil {
		return nil, asRPC(err)
	}
	if res == nil {
		return nil, resourceNotFound(c, p.URI)
	}
	setCache(ctx, hint)
	if res.Contents == nil {
		res.Contents = []AnyResourceContents{}
	}
	return downgradeReadResult(res, ss.features()), nil
}

func (s *Server) matchTemplate(uri string) (*templateEntry, map[string]string) {
	for _, e := range s.templates.all() {
		if m := e.parsed.Match(uri); m != nil {
			vars := map[string]string{}
			for _, name := range e.parsed.Varnames() {
				if v := m.Get(name); v.Valid() {
					vars[name] = v.String()
				}
			}
			return e, vars
		}
	}
	return nil, nil
}

// resourceNotFound is the answer for an unknown URI: -32002 in the
// handshake era, -32602 in the stateless protocol (which forbids -32002),
// with the URI in data either way.
func resourceNotFound(c *callState, uri string) *rpc.Error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	code := CodeResourceNotFound
	if c.stateless {
		code = rpc.CodeInvalidParams
	}
	return &rpc.Error{Code: code, Message: "resource not found: " + uri, Data: data}
}

// subscribe records or drops the session's interest in a resource.
func (ss *ServerSession) subscribe(uri string, on bool) {
	ss.mu.Lock()
	switch {
	case on && ss.subscribed == nil:
		ss.subscribed = map[string]bool{uri: true} // made on first use: most sessions subscribe to nothing
	case on:
		ss.subscribed[uri] = true
	default:
		delete(ss.subscribed, uri)
	}
	ss.mu.Unlock()
	ss.stateChanged()
}

// ResourceUpdated tells every session subscribed to uri, and every
// stateless listen that named it, that the resource changed
// (notifications/resources/updated).
func (s *Server) ResourceUpdated(ctx context.Context, uri string) {
	s.localResourceUpdated(ctx, uri)
	s.relay(change{Kind: changeResource, URI: uri})
}

// localResourceUpdated is ResourceUpdated for the sessions and listens of
// this process only.
func (s *Server) localResourceUpdated(ctx context.Context, uri string) {
	s.tellResourceUpdated(uri)
	for _, ss := range s.Sessions() {
		ss.mu.Lock()
		want := ss.subscribed[uri]
		ss.mu.Unlock()
		if want && ss.hearsBroadcasts() {
			if err := ss.conn.Notify(ctx, "notifications/resources/updated", &ResourceUpdatedNotificationParams{URI: uri}); err != nil {
				ss.log.Debug("mcp: resource update not delivered", "uri", uri, logx.Error, err)
			}
		}
	}
}
