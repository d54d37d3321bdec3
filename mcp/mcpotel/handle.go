package mcpotel

import (
	"context"
	"time"

	"github.com/schemarpc/schemarpc/internal/otelcore"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// role is the peer the middleware is installed on.
type role int

const (
	roleServer role = iota
	roleClient
)

// The indexes of Instrumentation.notes by direction.
const (
	received = 0
	sent     = 1
)

// direction is where a middleware sits: on which peer, and whether it
// handles what arrives or wraps what is sent.
type direction struct {
	role     role
	outgoing bool
}

var (
	serverIn  = direction{role: roleServer}
	serverOut = direction{role: roleServer, outgoing: true}
	clientIn  = direction{role: roleClient}
	clientOut = direction{role: roleClient, outgoing: true}
)

// middleware returns the middleware of direction d.
func (i *Instrumentation) middleware(d direction) rpc.Middleware {
	return func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			return i.handle(ctx, req, next, d)
		})
	}
}

// handle runs one message through next inside its span and records its
// metrics.
func (i *Instrumentation) handle(ctx context.Context, req *rpc.Request, next rpc.Handler, d direction) (any, error) {
	msg := scan(req.Method, req.Params)
	ss := mcp.SessionFromContext(ctx)
	version := msg.version
	if ss != nil {
		if v := ss.ProtocolVersion(); v != "" {
			version = v
		}
	}
	notification := req.IsNotification()

	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = append(attrs, otelcore.KeyMCPMethod.String(req.Method))
	switch {
	case msg.tool != "":
		attrs = append(attrs, otelcore.KeyToolName.String(msg.tool), otelcore.KeyOperationName.String("execute_tool"))
	case msg.prompt != "":
		attrs = append(attrs, otelcore.KeyPromptName.String(msg.prompt))
	case req.Method == "tools/call":
		attrs = append(attrs, otelcore.KeyOperationName.String("execute_tool"))
	}
	if msg.uri != "" {
		attrs = append(attrs, otelcore.KeyMCPResourceURI.String(msg.uri))
	}
	if id := otelcore.RequestID(req.ID); id != "" {
		attrs = append(attrs, otelcore.KeyRequestID.String(id))
	}
	if ss != nil && ss.ID() != "" {
		attrs = append(attrs, otelcore.KeyMCPSession.String(ss.ID()))
	}
	if version != "" {
		attrs = append(attrs, otelcore.KeyMCPProtocolVersion.String(version))
	}
	// The server knows the transport a message came on (or, sending, the
	// one the request it serves came on); a client's middleware does not.
	netFrom := len(attrs)
	if d.role == roleServer {
		attrs = otelcore.TransportAttrs(ctx, attrs)
	}
	netAttrs := attrs[netFrom:]

	name := req.Method
	if t := msg.target(i.cfg.ResourceURIInSpanName); t != "" {
		name += " " + t
	}
	kind := trace.SpanKindServer
	var links []trace.Link
	if d.outgoing {
		kind = trace.SpanKindClient
	} else {
		ctx, links = i.cfg.ServerParent(ctx, msg.meta)
	}
	ctx, span := i.tracer.Start(ctx, name, trace.WithSpanKind(kind), trace.WithAttributes(attrs...), trace.WithLinks(links...))
	if d.outgoing {
		var f otelcore.Fields
		i.cfg.Propagator.Inject(ctx, &f)
		if p, ok := otelcore.InjectMeta(req.Params, &f); ok {
			req.Params = p
		}
	}

	var active metric.Int64UpDownCounter
	switch {
	case notification:
	case d == serverIn:
		active = i.serverActive
	case d == clientOut:
		active = i.clientActive
	}
	if active != nil {
		active.Add(ctx, 1)
	}
	listen := d == serverIn && req.Method == "subscriptions/listen"
	if listen {
		i.activeListens.Add(ctx, 1)
	}
	start := time.Now()
	res, err := next.Handle(ctx, req)
	elapsed := time.Since(start).Seconds()
	if listen {
		i.activeListens.Add(ctx, -1)
	}
	if active != nil {
		active.Add(ctx, -1)
	}

	out := otelcore.ErrorOutcome(err, !d.outgoing)
	if err == nil && req.Method == "tools/call" && mcp.ToolFailed(res) {
		out = otelcore.Outcome{ErrorType: "tool_error", Message: "the tool reported an error (isError)"}
	}
	otelcore.EndSpan(span, out)

	// Metrics: nothing of high cardinality (ids, URIs), and nothing a peer
	// can make up at will (unknown methods, versions, tool names of
	// refused calls).
	method := req.Method
	if !d.outgoing && (out.Code == "-32601" || notification && !knownMethods[method]) {
		method = otelcore.OtherValue
	}
	mattrs := make([]attribute.KeyValue, 0, 10)
	mattrs = append(mattrs, otelcore.KeyMCPMethod.String(method))
	if d.outgoing || out.Code == "" {
		switch {
		case msg.tool != "":
			mattrs = append(mattrs, otelcore.KeyToolName.String(msg.tool))
		case msg.prompt != "":
			mattrs = append(mattrs, otelcore.KeyPromptName.String(msg.prompt))
		}
	}
	if req.Method == "tools/call" {
		mattrs = append(mattrs, otelcore.KeyOperationName.String("execute_tool"))
	}
	if version == "" && ss != nil {
		version = ss.ProtocolVersion() // negotiated by the initialize just handled
	}
	if version != "" && knownVersion(version) {
		mattrs = append(mattrs, otelcore.KeyMCPProtocolVersion.String(version))
	}
	mattrs = append(mattrs, netAttrs...)
	mattrs = otelcore.OutcomeAttrs(out, mattrs)
	set := metric.WithAttributes(mattrs...)
	if d.outgoing {
		i.clientDuration.Record(ctx, elapsed, set)
	} else {
		i.serverDuration.Record(ctx, elapsed, set)
	}
	if notification {
		dir := received
		if d.outgoing {
			dir = sent
		}
		i.notes[d.role][dir].Add(ctx, 1, metric.WithAttributes(otelcore.KeyMCPMethod.String(method)))
	}
	if d == serverIn && req.Method == "initialize" && ss != nil && !out.Failed() {
		i.sessionStarted(ss, ss.ProtocolVersion(), netAttrs)
	}
	return res, err
}
