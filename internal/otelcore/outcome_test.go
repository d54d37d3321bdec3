package otelcore

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

func TestErrorOutcomeClassifiesErrors(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		server bool
		want   Outcome
	}{
		{"success", nil, true, Outcome{}},
		{"a JSON-RPC error is its code", fmt.Errorf("wrapped: %w", rpc.InvalidParams("bad")), false, Outcome{Code: "-32602", ErrorType: "-32602", Message: "invalid params: bad"}},
		{"no response is cancelled", rpc.ErrNoResponse, true, Outcome{ErrorType: "cancelled", Message: rpc.ErrNoResponse.Error()}},
		{"a cancelled context", context.Canceled, false, Outcome{ErrorType: "cancelled", Message: context.Canceled.Error()}},
		{"a deadline is timeout", context.DeadlineExceeded, false, Outcome{ErrorType: "timeout", Message: context.DeadlineExceeded.Error()}},
		{"another error is -32603 on a server", errors.New("disk full"), true, Outcome{Code: "-32603", ErrorType: "-32603", Message: "disk full"}},
		{"and _OTHER on the sending side", errors.New("broken pipe"), false, Outcome{ErrorType: "_OTHER", Message: "broken pipe"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ErrorOutcome(tt.err, tt.server)
			if tt.want.Code == "-32602" {
				got.Message = tt.want.Message // the message is rpc's to word
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.err != nil, got.Failed())
		})
	}
}

func TestRequestIDDropsTheQuotesOfAStringID(t *testing.T) {
	assert.Equal(t, "7", RequestID(rpc.Int64ID(7)))
	assert.Equal(t, "abc", RequestID(rpc.StringID("abc")))
	assert.Equal(t, "", RequestID(rpc.ID{}))
	assert.Equal(t, "", RequestID(rpc.NullID()))
}

func TestTransportAttrsTellPipeHTTPAndWebSocket(t *testing.T) {
	assert.Equal(t, "network.transport:pipe", render(TransportAttrs(context.Background(), nil)))
	r := httptest.NewRequest(http.MethodPost, "/", nil)
	assert.Equal(t, "network.transport:tcp network.protocol.name:http network.protocol.version:1.1", render(TransportAttrs(rpc.WithHTTPRequest(context.Background(), r), nil)))
	r.ProtoMajor, r.ProtoMinor = 2, 0
	assert.Contains(t, render(TransportAttrs(rpc.WithHTTPRequest(context.Background(), r), nil)), "network.protocol.version:2")
	r.Header.Set("Upgrade", "websocket")
	assert.Equal(t, "network.transport:tcp network.protocol.name:websocket", render(TransportAttrs(rpc.WithHTTPRequest(context.Background(), r), nil)))
}

func TestHeaderTransportWritesTheTraceContextOfTheRequest(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Header.Clone() }))
	defer srv.Close()
	cfg := &Config{Propagator: propagation.TraceContext{}}
	hc := &http.Client{Transport: &HeaderTransport{Config: cfg}}
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled})
	for _, withSpan := range []bool{false, true} {
		ctx := context.Background()
		if withSpan {
			ctx = trace.ContextWithSpanContext(ctx, sc)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		require.NoError(t, err)
		resp, err := hc.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		if withSpan {
			assert.Equal(t, "00-01000000000000000000000000000000-0200000000000000-01", got.Get("traceparent"))
			assert.Empty(t, req.Header.Get("traceparent"), "the caller's request is not modified")
		} else {
			assert.Empty(t, got.Get("traceparent"))
		}
	}
}

func render(kvs []attribute.KeyValue) string {
	out := ""
	for i, kv := range kvs {
		if i > 0 {
			out += " "
		}
		out += string(kv.Key) + ":" + kv.Value.Emit()
	}
	return out
}
