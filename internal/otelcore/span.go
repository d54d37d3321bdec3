package otelcore

import (
	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// EndSpan records the outcome on span (the status code and error type
// attributes, status ERROR with the message on failure) and ends it.
func EndSpan(span trace.Span, o Outcome) {
	if o.Code != "" {
		span.SetAttributes(KeyStatusCode.String(o.Code))
	}
	if o.Failed() {
		span.SetAttributes(KeyErrorType.String(o.ErrorType))
		span.SetStatus(codes.Error, o.Message)
	}
	span.End()
}

// OutcomeAttrs appends the outcome's attributes for a metric.
func OutcomeAttrs(o Outcome, attrs []attribute.KeyValue) []attribute.KeyValue {
	if o.Code != "" {
		attrs = append(attrs, KeyStatusCode.String(o.Code))
	}
	if o.Failed() {
		attrs = append(attrs, KeyErrorType.String(o.ErrorType))
	}
	return attrs
}

// RequestID is the jsonrpc.request.id of id: a string id without its
// quotes, a number as written; "" for a notification or a null id, which
// the conventions leave unrecorded.
func RequestID(id rpc.ID) string {
	if id.IsZero() || id.IsNull() {
		return ""
	}
	raw := id.String()
	if s, ok := jsonscan.String([]byte(raw)); ok {
		return s
	}
	return raw
}
