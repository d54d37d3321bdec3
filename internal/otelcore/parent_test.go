package otelcore

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

func TestServerParentPrefersMetaThenALocalSpanThenHeaders(t *testing.T) {
	cfg := &Config{Propagator: propagation.TraceContext{}}
	local := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{9}, SpanID: trace.SpanID{9}})
	const metaTP = `{"traceparent":"00-01000000000000000000000000000000-0100000000000000-01"}`
	const headerTP = "00-02000000000000000000000000000000-0200000000000000-01"
	withHeader := func(ctx context.Context) context.Context {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Set("traceparent", headerTP)
		return rpc.WithHTTPRequest(ctx, r)
	}
	tests := []struct {
		name   string
		ctx    context.Context
		meta   string
		parent byte // first byte of the parent's trace id, 0 for none
		links  int
	}{
		{"nothing", context.Background(), "", 0, 0},
		{"headers", withHeader(context.Background()), "", 2, 0},
		{"a local span beats the headers it was made from", withHeader(trace.ContextWithSpanContext(context.Background(), local)), "", 9, 0},
		{"_meta beats both, which become links", withHeader(trace.ContextWithSpanContext(context.Background(), local)), metaTP, 1, 2},
		{"a _meta without trace context is ignored", withHeader(context.Background()), `{"x":"y"}`, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, links := cfg.ServerParent(tt.ctx, []byte(tt.meta))
			sc := trace.SpanContextFromContext(ctx)
			if tt.parent == 0 {
				assert.False(t, sc.IsValid())
			} else {
				assert.Equal(t, tt.parent, sc.TraceID()[0])
			}
			assert.Len(t, links, tt.links)
		})
	}
}
