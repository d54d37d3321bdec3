package otelcore

import (
	"context"

	"github.com/schemarpc/schemarpc/rpc"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// ServerParent returns the context a server span starts in, and the links
// it gets, for a message whose params._meta is meta (nil when absent):
//
//   - trace context in _meta is the parent; the span context of the HTTP
//     request's headers and the ambient span of ctx, when valid, become
//     links (the transport's context, independent of the message's);
//   - otherwise a local span already in ctx (one an HTTP middleware
//     started for the request, say) stays the parent;
//   - otherwise the trace context of the HTTP request's headers is;
//   - otherwise ctx is used as it is.
//
// Baggage extracted along with a parent is put into the context too.
func (c *Config) ServerParent(ctx context.Context, meta []byte) (context.Context, []trace.Link) {
	ambient := trace.SpanContextFromContext(ctx)
	var header trace.SpanContext
	var hctx context.Context
	if r := rpc.HTTPRequestFromContext(ctx); r != nil && len(r.Header) > 0 {
		hctx = c.Propagator.Extract(ctx, propagation.HeaderCarrier(r.Header))
		header = trace.SpanContextFromContext(hctx)
		if header.Equal(ambient) {
			header = trace.SpanContext{}
		}
	}
	if len(meta) > 0 {
		mctx := c.Propagator.Extract(ctx, MetaCarrier(meta))
		if sc := trace.SpanContextFromContext(mctx); sc.IsValid() && !sc.Equal(ambient) {
			var links []trace.Link
			if header.IsValid() {
				links = append(links, trace.Link{SpanContext: header})
			}
			if ambient.IsValid() {
				links = append(links, trace.Link{SpanContext: ambient})
			}
			return mctx, links
		}
	}
	if ambient.IsValid() && !ambient.IsRemote() {
		return ctx, nil
	}
	if header.IsValid() {
		return hctx, nil
	}
	return ctx, nil
}
