package otelcore

import (
	"net/http"

	"go.opentelemetry.io/otel/propagation"
)

// HeaderTransport is an http.RoundTripper that writes the trace context of
// each request's context (the span of the call being sent) into its
// headers (traceparent, tracestate, baggage) before handing it to Base.
type HeaderTransport struct {
	// Base sends the request; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Config gives the propagator.
	Config *Config
}

// RoundTrip sends a copy of req carrying the trace context and baggage of
// its context; a request whose context has neither goes as it is.
func (t *HeaderTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	ctx := req.Context()
	var f Fields
	t.Config.Propagator.Inject(ctx, &f)
	if f.Len() == 0 {
		return base.RoundTrip(req)
	}
	r := req.Clone(ctx)
	h := propagation.HeaderCarrier(r.Header)
	for i, k := range f.names {
		h.Set(k, f.values[i])
	}
	return base.RoundTrip(r)
}
