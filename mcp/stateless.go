package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sync"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/mcp/v20260728/tasksext"
	"github.com/schemarpc/schemarpc/rpc"
)

// The error codes the stateless protocol adds (2026-07-28).
const (
	// CodeHeaderMismatch: an HTTP header is missing, malformed or
	// disagrees with the body (MCP-Protocol-Version, Mcp-Method, Mcp-Name,
	// Mcp-Param-*).
	CodeHeaderMismatch = -32020
	// CodeMissingCapability: serving the request needs a client capability
	// the request did not declare; data.requiredCapabilities names it.
	CodeMissingCapability = -32021
	// CodeUnsupportedVersion: the request's protocol version is not served;
	// data.supported lists the versions that are, data.requested echoes it.
	CodeUnsupportedVersion = -32022
)

// The reserved _meta keys of the stateless protocol.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// statelessSink receives the notifications a stateless request sends before
// its response: on stdio the connection, on Streamable HTTP the request's
// own response stream. It must be safe for concurrent use.
type statelessSink interface {
	notify(ctx context.Context, method string, params any) error
}

// connSink sends a request's notifications on a connection (stdio).
type connSink struct{ conn *rpc.Conn }

func (s connSink) notify(ctx context.Context, method string, params any) error {
	return s.conn.Notify(ctx, method, params)
}

// metaError is a -32602 about a request's _meta. Streamable HTTP answers
// it with 400, where other -32602 errors (an unknown tool, say) are 200;
// every other status follows from the error code.
type metaError struct{ err *rpc.Error }

func (e *metaError) Error() string { return e.err.Error() }
func (e *metaError) Unwrap() error { return e.err }

// statelessStatus is the HTTP status of a stateless response: 200 for
// results and ordinary errors; 400 for an invalid _meta and the errors
// -32020, -32021 and -32022; 404 for -32601; 429 for a refusal with a
// retry hint (rpc.RateLimited), whose answer carries Retry-After.
func statelessStatus(err error) int {
	if err == nil {
		return http.StatusOK
	}
	if _, limited := rpc.RetryAfter(err); limited {
		return http.StatusTooManyRequests
	}
	var me *metaError
	if errors.As(err, &me) {
		return http.StatusBadRequest
	}
	var re *rpc.Error
	if errors.As(err, &re) {
		switch re.Code {
		case CodeHeaderMismatch, CodeMissingCapability, CodeUnsupportedVersion:
			return http.StatusBadRequest
		case rpc.CodeMethodNotFound:
			return http.StatusNotFound
		}
	}
	return http.StatusOK
}

// isStatelessRequest reports whether a request's params carry the stateless
// protocol's version key in _meta: such a request is served statelessly,
// whatever else the connection carries.
func isStatelessRequest(params json.RawMessage) bool {
	var p statelessParams
	return scanStatelessRequest(params, &p, nil)
}

// statelessOnly reports whether only the stateless protocol has the
// request method (server/discover, subscriptions/listen), as the schemas
// of 2026-07-28 and 2025-11-25 say; on a connection such a request is
// served statelessly even when its _meta is wrong, so the client learns
// why.
func statelessOnly(method string) bool {
	if _, handshake := v20251125.MCPMethodFacts(method); handshake {
		return false // most requests: one lookup
	}
	f, stateless := v20260728.MCPMethodFacts(method)
	return stateless && !f.Notification
}

// unsupportedVersion is the -32022 error for a version the server does not
// serve.
func (s *Server) unsupportedVersion(requested string) *rpc.Error {
	return rpc.NewError(CodeUnsupportedVersion, fmt.Sprintf("protocol version %q is not supported", requested)).
		WithData(map[string]any{"supported": s.servedVersions(), "requested": requested})
}

// statelessCall is a stateless request's context, its state and its params
// as the protocol reads them, in one allocation; on a session's connection
// also the detached parent of its context (handleStateless). It is kept
// within 512 bytes, the largest allocation the runtime makes without a
// header and on its fast path.
type statelessCall struct {
	rc requestContext
	callState
	params statelessParams
	parent detached
}

// scanStatelessCall returns the state of req, its params scanned, when req
// is a stateless request by its _meta (scanStatelessRequest); nil
// otherwise, without allocating. It is kept out of line: inlined, its
// scratch params would stay in the frame of its caller while the call is
// served, deepening the stack every call runs on. (A worker's stack that
// a call grows past 8 KiB is shrunk back at the next collection and copied
// to a larger one again by the next deep call.)
//
//go:noinline
func (s *Server) scanStatelessCall(req *rpc.Request) *statelessCall {
	var p statelessParams
	if !scanStatelessRequestOf(req, &p, &s.metaMemo) {
		return nil
	}
	return &statelessCall{params: p}
}

// newStatelessCall returns the state of req, its params scanned.
func (s *Server) newStatelessCall(req *rpc.Request) *statelessCall {
	sc := new(statelessCall)
	scanStatelessParamsOf(req, &sc.params, &s.metaMemo)
	return sc
}

// context returns the context req is served in: sc.rc, within parent
// unless the session that tracks the request gave it its own already
// (handleStateless). A tracked request's id is left as the session set
// it: the session reads the ids of the requests it tracks under its lock,
// which this call does not hold.
func (sc *statelessCall) context(parent context.Context, req *rpc.Request) *requestContext {
	rc := &sc.rc
	if rc.Context == nil {
		rc.Context, rc.id = parent, req.ID
	}
	rc.call, rc.req = &sc.callState, req
	rc.progress.params = req.Params
	return rc
}

// admitStateless reads and checks a stateless request's _meta: the protocol
// version and the client capabilities are required (-32602), the version
// must be served (-32022) and a log level must be a level (-32602). sc
// holds the request's params already scanned (scanStatelessRequest,
// newStatelessCall), or is nil, and the params are scanned now; it is
// returned, holding the call's state.
func (s *Server) admitStateless(req *rpc.Request, sc *statelessCall) (*statelessCall, error) {
	bad := func(reason string) error {
		return &metaError{rpc.InvalidParams(reason)}
	}
	if _, isObject := jsonscan.NewObject(req.Params); !isObject {
		return nil, bad("params with _meta are required")
	}
	if sc == nil {
		sc = s.newStatelessCall(req)
	}
	p := &sc.params
	if p.seen != nil {
		return s.admitRemembered(req, sc, p.seen)
	}
	if meta := p.meta(); meta == nil || string(meta) == "null" {
		return nil, bad("params._meta is required")
	}
	if !p.metaObject {
		return nil, bad("params with _meta are required")
	}
	if p.version() == nil {
		return nil, bad("params._meta lacks " + metaProtocolVersion)
	}
	version, ok := statelessVersion(p.version())
	if !ok {
		return nil, bad(metaProtocolVersion + " must be a string")
	}
	caps := p.caps()
	if caps == nil {
		return nil, bad("params._meta lacks " + metaClientCapabilities)
	}
	if !slices.Contains(StatelessVersions(), version) || !s.serves(version) {
		return nil, s.unsupportedVersion(version)
	}
	c := &sc.callState
	c.callFacts = callFacts{stateless: true, version: version, logLevel: -1, method: req.Method, params: p}
	if _, isObject := jsonscan.NewObject(caps); !isObject {
		return nil, bad(metaClientCapabilities + " must be a ClientCapabilities object")
	}
	empty := emptyObject(caps)
	if !empty {
		if err := json.Unmarshal(caps, &c.caps); err != nil {
			return nil, bad(metaClientCapabilities + " must be a ClientCapabilities object")
		}
	}
	if raw := p.level(); raw != nil {
		var l LoggingLevel
		if json.Unmarshal(raw, &l) != nil || severity(l) < 0 {
			return nil, bad(fmt.Sprintf("unknown log level %s", raw))
		}
		c.logLevel = severity(l)
	}
	s.metaMemo.remember(p, version, empty, c.logLevel)
	return sc, nil
}

// admitRemembered is admitStateless for a request whose _meta is the one
// the server remembers (metaMemo): the same bytes passed every check of
// them when they were admitted, so what was decided then stands; whether
// the server serves the version, which its options say, is asked again.
// The capabilities are decoded again unless they are {}, so that no
// request shares what another's handler may hold. The _meta is marked as
// recurring for the params check (rpc.Request.MarkRecurring), which then
// skips it as well once it has found it valid.
func (s *Server) admitRemembered(req *rpc.Request, sc *statelessCall, seen *admittedMeta) (*statelessCall, error) {
	if !s.serves(seen.version) {
		return nil, s.unsupportedVersion(seen.version)
	}
	req.MarkRecurring(int(sc.params.metaAt.start), int(sc.params.metaAt.end))
	c := &sc.callState
	c.callFacts = callFacts{stateless: true, version: seen.version, logLevel: seen.logLevel, method: req.Method, params: &sc.params}
	if !seen.emptyCaps {
		_ = json.Unmarshal(sc.params.caps(), &c.caps) // the same bytes decoded without error when admitted
	}
	return sc, nil
}

// statelessVersion decodes the version a request names: one of
// StatelessVersions without allocating, any other string decoded; ok is
// false when raw is not a string.
func statelessVersion(raw []byte) (string, bool) {
	for _, v := range StatelessVersions() {
		if jsonscan.StringIs(raw, v) {
			return v, true
		}
	}
	return jsonscan.String(raw)
}

// emptyObject reports whether raw is the JSON object {} (with any inner
// whitespace), which decodes to the zero value of any struct.
func emptyObject(raw []byte) bool {
	o, ok := jsonscan.NewObject(raw)
	if !ok {
		return false
	}
	_, _, more := o.Next()
	return !more && !o.Err()
}

// statelessMethod returns the facts of a request of the stateless
// protocol: those generated from the 2026-07-28 schema, or from the
// schema of the tasks extension; false for any other name.
func statelessMethod(name string) (rpc.MethodFacts, bool) {
	if f, ok := v20260728.MCPMethodFacts(name); ok && !f.Notification {
		return f, true
	}
	if f, ok := tasksext.TasksMethodFacts(name); ok && !f.Notification {
		return f, true
	}
	return rpc.MethodFacts{}, false
}

// serveStateless serves one request of the stateless protocol: it checks the
// method and the _meta, then the generated bindings check the params
// against the 2026-07-28 schema and statelessService runs the feature,
// whose result statelessResult decorates. subscriptions/listen blocks
// until the listen ends. Notifications about the request go to sink.
// Notifications from the client are never answered; cancellation is the
// transport's business.
func (s *Server) serveStateless(ctx context.Context, req *rpc.Request, sink statelessSink) (any, error) {
	res, err := s.serveStatelessUnbounded(ctx, req, sink, nil)
	return res, rpc.BoundError(err)
}

// serveStatelessUnbounded is serveStateless before rpc.BoundError; sc is
// as for admitStateless.
func (s *Server) serveStatelessUnbounded(ctx context.Context, req *rpc.Request, sink statelessSink, sc *statelessCall) (any, error) {
	if req.IsNotification() {
		return nil, nil
	}
	sc, custom, err := s.admitStatelessMethod(req, sc)
	switch {
	case custom:
		return s.serveStatelessCustom(ctx, req, sink, sc)
	case err != nil:
		return nil, err
	}
	sc.sink = sink
	sc.principal = PrincipalFromContext(ctx)
	return s.statelessRouter().Handle(sc.context(ctx, req), req)
}

// admitStatelessMethod admits a stateless request (admitStateless) to a
// method of the protocol that the server offers, or reports that the
// method is the application's own (custom), which serveStatelessCustom
// admits. It is serveStatelessUnbounded's first half, out of line so that
// what it needs is off the stack while the method runs (as for
// scanStatelessCall).
func (s *Server) admitStatelessMethod(req *rpc.Request, sc *statelessCall) (_ *statelessCall, custom bool, _ error) {
	if !s.servesStateless() {
		return nil, false, s.unsupportedVersion(Version20260728)
	}
	facts, known := statelessMethod(req.Method)
	if !known && s.isCustom(req.Method) {
		return sc, true, nil
	}
	if !known {
		// A method the version does not have (initialize, ping, …) is
		// -32601 whatever its _meta says.
		return nil, false, rpc.MethodNotFound(req.Method)
	}
	sc, err := s.admitStateless(req, sc)
	if err != nil {
		return nil, false, err
	}
	if need := capabilityOf(facts); need != 0 && !s.offers(Version20260728, need) {
		return nil, false, rpc.MethodNotFound(req.Method)
	}
	return sc, false, nil
}

// statelessRouter returns the router of the stateless methods, built on
// first use: the generated 2026-07-28 bindings, served by
// statelessService, and the generated bindings of the tasks extension,
// served by tasksService.
func (s *Server) statelessRouter() *rpc.Router {
	s.statelessOnce.Do(func() {
		r := rpc.NewRouter()
		v20260728.RegisterMCPServer(r, statelessService{s: s})
		tasksext.RegisterTasksServer(r, tasksService{s: s})
		s.statelessRoutes = r
	})
	return s.statelessRoutes
}

// statelessResult serves the stateless request ctx carries with serve and
// makes its outcome, compact JSON, what the protocol sends, as the
// method's schema says:
// a method whose result may be an InputRequiredResult first reads a
// retry's inputResponses and requestState, and a handler's InputRequired
// becomes that result; any other result is decorated, with the caching
// hints when the result has them (cacheScope, which names nothing but a
// caching hint, where ttlMs may be a task's) and was not made from a
// client's answers.
//
// Its two halves, before and after serve, are out of line so that their
// locals are off the stack while serve runs (as for scanStatelessCall).
func (s *Server) statelessResult(ctx context.Context, serve func() (any, error)) (json.RawMessage, error) {
	c := callFromContext(ctx)
	input, cacheable, err := s.beginStatelessResult(ctx, c)
	if err != nil {
		return nil, err
	}
	res, err := serve()
	return s.endStatelessResult(c, input, cacheable, res, err)
}

// beginStatelessResult is statelessResult before the call is served: it
// reports whether the method's result may be an InputRequiredResult, then
// with its round opened (openRound), and whether its complete result
// carries caching hints.
//
//go:noinline
func (s *Server) beginStatelessResult(ctx context.Context, c *callState) (input, cacheable bool, err error) {
	facts, _ := statelessMethod(c.method)
	input = facts.HasResult(resultInputRequired)
	if input {
		if err := s.openRound(c, requestOf(ctx)); err != nil {
			return false, false, err
		}
		c.mayAsk = true
	}
	return input, cacheableResult(facts), nil
}

// endStatelessResult is statelessResult once serve has returned res and
// err.
//
//go:noinline
func (s *Server) endStatelessResult(c *callState, input, cacheable bool, res any, err error) (json.RawMessage, error) {
	if ir := c.inputRequired(err); input && ir != nil {
		return s.statelessInputRequired(c, ir)
	}
	if err != nil {
		return nil, err
	}
	return s.decorate(res, c, cacheable && len(c.inputs) == 0 && c.state == nil)
}

// cacheableResult reports whether a method's complete result carries
// caching hints, as its schema says: the result has cacheScope, which
// names nothing but a caching hint (ttlMs may be a task's lifetime).
func cacheableResult(f rpc.MethodFacts) bool { return f.HasResultMember("cacheScope") }

// resultInputRequired is the generated name of the result that asks the
// client for input.
const resultInputRequired = "InputRequiredResult"

// decorate adds what every stateless result carries: resultType "complete"
// unless the result names another, the server's identity in _meta, and for
// the cacheable results ttlMs and cacheScope.
func (s *Server) decorate(res any, c *callState, cacheable bool) (json.RawMessage, error) {
	if r, ok := res.(CallToolResult); ok && !cacheable && plainToolResult(&r) {
		return s.decorateToolResult(&r) // a tool's result, as callTool gives it
	}
	return s.decorateScanned(res, c, cacheable)
}

// plainToolResult reports whether a tool's result has none of the members
// decorate adds or replaces (_meta, resultType), so that they can be
// written after its own without reading those back.
func plainToolResult(r *CallToolResult) bool {
	if r.Meta != nil {
		return false
	}
	_, typed := r.Extra["resultType"]
	return !typed
}

// decorateToolResult is decorate for a plain tool result (plainToolResult):
// the members decorate adds come after the result's own, as
// decorateScanned writes them, without a second pass over the result. The
// result is written to a pooled buffer first, so that the one allocation
// is the size of what is sent.
func (s *Server) decorateToolResult(r *CallToolResult) (json.RawMessage, error) {
	info := s.infoJSON()
	scratch := resultScratch.Get().(*[]byte)
	defer resultScratch.Put(scratch)
	own, err := r.AppendJSON((*scratch)[:0])
	if err != nil {
		return nil, err
	}
	if cap(own) <= maxResultScratch {
		*scratch = own
	}
	own = own[:len(own)-1] // own ends with the object's '}'
	out := make([]byte, 0, len(own)+len(statelessResultTail)+len(info)+2)
	out = append(out, own...)
	out = append(out, statelessResultTail...)
	out = append(out, info...)
	return append(out, "}}"...), nil
}

// resultScratch holds the buffers decorateToolResult writes a result to
// before it knows its size; one that grew past maxResultScratch is let go.
var resultScratch = sync.Pool{New: func() any { b := make([]byte, 0, resultBufferSize); return &b }}

// maxResultScratch is the largest buffer resultScratch keeps.
const maxResultScratch = 64 << 10

// statelessResultTail is what decorate writes after a plain result's
// members, up to the server's identity.
const statelessResultTail = `,"resultType":"complete","_meta":{"` + metaServerInfo + `":`

// decorateScanned is decorate for any result: it reads the encoded result's
// members back to keep, replace or drop them.
func (s *Server) decorateScanned(res any, c *callState, cacheable bool) (json.RawMessage, error) {
	b, err := marshalResult(res)
	if err != nil {
		return nil, err
	}
	o, ok := jsonscan.NewObject(b)
	if !ok {
		return nil, fmt.Errorf("mcp: a %s result is not an object", c.method)
	}
	out := make([]byte, 0, len(b)+len(s.infoJSON())+96)
	out = append(out, '{')
	hasType := false
	var meta []byte
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		switch {
		case jsonscan.NameIs(k, "_meta"):
			meta = v
			continue
		case cacheable && (jsonscan.NameIs(k, "ttlMs") || jsonscan.NameIs(k, "cacheScope")):
			continue
		case jsonscan.NameIs(k, "resultType"):
			hasType = true
		}
		out = appendMember(out, k, v)
	}
	if o.Err() {
		return nil, fmt.Errorf("mcp: a %s result is not an object", c.method)
	}
	if !hasType {
		out = appendMember(out, []byte("resultType"), []byte(`"complete"`))
	}
	out, err = s.appendMetaWithServerInfo(out, meta)
	if err != nil {
		return nil, fmt.Errorf("mcp: a %s result's _meta is not an object", c.method)
	}
	if cacheable {
		h := s.opts.Cache
		if c.cache != nil {
			h = *c.cache
		}
		out = appendMember(out, []byte("ttlMs"), rawJSON(h.ttlMs()))
		out = appendMember(out, []byte("cacheScope"), rawJSON(h.scope()))
	}
	return append(out, '}'), nil
}

// appendMember appends one member, given its raw name and value, to an
// object being written whose opening brace is already in out.
func appendMember(out, name, value []byte) []byte {
	if len(out) > 1 {
		out = append(out, ',')
	}
	out = append(out, '"')
	out = append(out, name...)
	out = append(out, '"', ':')
	return append(out, value...)
}

// appendMetaWithServerInfo appends to out, a result object being built, the
// member "_meta": the result's own _meta (absent or null: empty) with the
// server's identity added unless it already names one.
func (s *Server) appendMetaWithServerInfo(out, meta []byte) ([]byte, error) {
	if len(meta) == 0 || string(meta) == "null" {
		meta = []byte("{}")
	}
	o, ok := jsonscan.NewObject(meta)
	if !ok {
		return nil, errors.New("not an object")
	}
	start := len(out)
	out = appendMember(out, []byte("_meta"), []byte("{"))
	inner := len(out) - 1 // where the _meta object starts
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		if jsonscan.NameIs(k, metaServerInfo) {
			return appendMember(out[:start], []byte("_meta"), meta), nil
		}
		if len(out) > inner+1 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, k...)
		out = append(out, '"', ':')
		out = append(out, v...)
	}
	if o.Err() {
		return nil, errors.New("not an object")
	}
	if len(out) > inner+1 {
		out = append(out, ',')
	}
	out = append(out, `"`+metaServerInfo+`":`...)
	out = append(out, s.infoJSON()...)
	return append(out, '}'), nil
}

// marshalResult encodes a result as compact JSON, which decorate's output
// then is too, so that it is sent as it is (the Compact mark of the
// Unknown… variants). A value that writes its own JSON (every generated
// result type is an rpc.JSONAppender) appends it to one buffer sized for
// a typical result. Any other value with its own MarshalJSON is asked
// directly and its output compacted, as json.Marshal would, unless it
// already is; output that is not JSON is left for decorate to refuse. A
// nil pointer is null either way.
func marshalResult(res any) ([]byte, error) {
	if _, ok := res.(rpc.JSONAppender); ok {
		return rpc.AppendJSONValue(make([]byte, 0, resultBufferSize), res)
	}
	if m, ok := res.(json.Marshaler); ok {
		if v := reflect.ValueOf(res); v.Kind() != reflect.Pointer || !v.IsNil() {
			b, err := m.MarshalJSON()
			if err != nil {
				return nil, err
			}
			if c, err := rpc.AppendRawJSON(make([]byte, 0, len(b)), b); err == nil {
				return c, nil
			}
			return b, nil
		}
	}
	return json.Marshal(res)
}

// resultBufferSize is the room marshalResult starts with: a small result,
// such as a tool's short text, fits without the slice growing.
const resultBufferSize = 256

// infoJSON is the server's Implementation, encoded once.
func (s *Server) infoJSON() json.RawMessage {
	s.infoOnce.Do(func() { s.infoRaw = rawJSON(s.info) })
	return s.infoRaw
}

// openRound reads the multi-round-trip members of a retry: the answers
// (inputResponses) and the sealed state (requestState), which must open
// with the server's key and belong to this very request (-32602
// otherwise).
func (s *Server) openRound(c *callState, req *rpc.Request) error {
	p := c.params
	if p == nil {
		p = new(statelessParams)
		scanStatelessParamsOf(req, p, &s.metaMemo)
	}
	if !p.object {
		return rpc.InvalidParams("params must be an object")
	}
	var target string
	for i, at := range p.targets[:p.ntargets] {
		t, ok := jsonscan.String(p.value(at))
		if !ok {
			return rpc.InvalidParams(fmt.Sprintf("params.%s must be a string", p.targetName(i)))
		}
		if target == "" {
			target = t // the one target of nearly every request, without a concatenation
		} else {
			target += t
		}
	}
	args, inputs, state := p.args(), p.inputs(), p.state()
	c.bindTarget, c.bindArgs = target, args
	if len(inputs) > 0 && string(inputs) != "null" {
		if err := json.Unmarshal(inputs, &c.inputs); err != nil {
			return rpc.InvalidParams("params.inputResponses: " + rpc.DecodeReason(err))
		}
	}
	if len(state) > 0 && string(state) != "null" {
		token, ok := jsonscan.String(state)
		if !ok {
			return rpc.InvalidParams("params.requestState must be a string")
		}
		opened, err := s.sealer.Open(token, c.binding())
		if err != nil {
			return rpc.InvalidParams("requestState was not issued for this request or has expired")
		}
		c.state = opened
	}
	return nil
}

// bindingOf names a request for requestState: its method, its target and a
// canonical form of its arguments, so state issued for one call is refused
// by any other.
func bindingOf(method, target string, args json.RawMessage) string {
	canon := "{}"
	if len(args) > 0 {
		dec := json.NewDecoder(bytes.NewReader(args))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			if b, err := json.Marshal(v); err == nil {
				canon = string(b)
			}
		}
	}
	return method + "\x00" + target + "\x00" + canon
}

// discover answers server/discover.
func (s *Server) discover(ctx context.Context) *discoverResult {
	setCache(ctx, s.opts.Cache)
	return &discoverResult{
		SupportedVersions: s.servedVersions(),
		Capabilities:      s.offer(Version20260728).capabilities(featuresOf(Version20260728)),
		Instructions:      s.opts.Instructions,
	}
}

// discoverResult is what server/discover answers: the versions the server
// serves, its capabilities and its instructions; decorate adds resultType,
// the server's identity and the caching hint.
type discoverResult struct {
	SupportedVersions []string           `json:"supportedVersions"`
	Capabilities      ServerCapabilities `json:"capabilities"`
	Instructions      string             `json:"instructions,omitempty"`
}
