package otelcore

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/schemarpc/schemarpc/rpc"
	"go.opentelemetry.io/otel/attribute"
)

// TransportAttrs appends the network attributes of the message being
// handled in ctx: "tcp" with "http" (and its version) or "websocket" when
// it arrived over HTTP, "pipe" otherwise (stdio and in-process pipes).
func TransportAttrs(ctx context.Context, attrs []attribute.KeyValue) []attribute.KeyValue {
	r := rpc.HTTPRequestFromContext(ctx)
	if r == nil {
		return append(attrs, KeyNetworkTransport.String("pipe"))
	}
	attrs = append(attrs, KeyNetworkTransport.String("tcp"))
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return append(attrs, KeyNetworkProtocol.String("websocket"))
	}
	return append(attrs, KeyNetworkProtocol.String("http"), KeyNetworkVersion.String(httpVersion(r)))
}

// httpVersion is the request's HTTP version as the conventions write it:
// "1.1", "2".
func httpVersion(r *http.Request) string {
	switch {
	case r.ProtoMajor == 1 && r.ProtoMinor == 1:
		return "1.1"
	case r.ProtoMinor == 0:
		return strconv.Itoa(r.ProtoMajor)
	}
	return strconv.Itoa(r.ProtoMajor) + "." + strconv.Itoa(r.ProtoMinor)
}
