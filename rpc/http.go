package rpc

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"

	"github.com/schemarpc/schemarpc/internal/httpguard"
	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/internal/stackroom"
)

// HTTPHandler serves JSON-RPC over HTTP POST: the body is one message or a
// batch; the reply is 200 with the JSON response, or 204 with no body when
// there is nothing to answer (notifications, responses). JSON-RPC errors,
// -32700 included, travel in a 200 body. HTTP itself answers:
//
//   - 403 when the Host or Origin header names a site this server does not
//     answer for (the DNS-rebinding defence: [WithAllowedHosts],
//     [WithAllowedOrigins], [WithoutHostCheck]);
//   - 405 with "Allow: POST" for any other method;
//   - 415 unless Content-Type is application/json (parameters allowed),
//     and for any Content-Encoding but identity: bodies are not
//     decompressed;
//   - 413 when the body exceeds the size limit (4 MiB by default);
//   - 429 with Retry-After (whole seconds, rounded up) and the JSON-RPC
//     error in the body when a lone request is refused with a retry hint
//     ([RateLimited]); in a batch such an error is one item of a 200.
//
// Calls run with the request's context, cancelled if the client goes away.
// The in-flight bound applies across all requests to the handler.
type HTTPHandler struct {
	eng   *engine
	limit int
	gate  admission
	hosts httpguard.HostPolicy
}

// NewHTTPHandler returns an http.Handler serving h. Options: the limits,
// [WithLogger], and the Host and Origin checks ([WithAllowedHosts],
// [WithAllowedOrigins], [WithoutHostCheck]).
func NewHTTPHandler(h Handler, opts ...Option) *HTTPHandler {
	o := buildOptions(append(opts, WithHandler(h)))
	withTransportName("http")(&o)
	return &HTTPHandler{eng: newEngine(o), limit: o.maxMessageSize, gate: newAdmission(), hosts: o.hostPolicy()}
}

// refuse answers r with an HTTP error and logs it at warn: the client
// broke the transport's rules.
func (h *HTTPHandler) refuse(w http.ResponseWriter, r *http.Request, status int, reason string) {
	h.eng.log.LogAttrs(r.Context(), slog.LevelWarn, "jsonrpc: HTTP request refused", slog.Int(logx.Status, status), slog.String(logx.Error, reason))
	http.Error(w, reason, status)
}

// ServeHTTP implements http.Handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	stackroom.Reserve()
	if reason := h.hosts.Check(r); reason != "" {
		h.refuse(w, r, http.StatusForbidden, reason)
		return
	}
	ctx, leave, ok := h.gate.enter(r.Context())
	if !ok {
		refuseShuttingDown(w)
		return
	}
	defer leave()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, r, http.StatusMethodNotAllowed, "JSON-RPC requests must use POST")
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		h.refuse(w, r, http.StatusUnsupportedMediaType, "Content-Type must be application/json")
		return
	}
	if httpguard.Encoded(r) {
		httpguard.RefuseEncoded(w.Header())
		h.refuse(w, r, http.StatusUnsupportedMediaType, httpguard.EncodedReason)
		return
	}
	if r.ContentLength > int64(h.limit) {
		h.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", h.limit))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(h.limit)))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", h.limit))
			return
		}
		h.refuse(w, r, http.StatusBadRequest, "cannot read the request body")
		return
	}
	var out []byte
	h.eng.frame(WithHTTPRequest(ctx, r), body, true,
		func(resp *Response) {
			h.eng.log.LogAttrs(r.Context(), slog.LevelWarn, "jsonrpc: response posted to the server dropped", slog.String(logx.ID, resp.ID.String()))
		},
		func(b []byte) { out = b })
	if out == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if wait, limited := ResponseRetryAfter(out); limited {
		SetRetryAfter(w.Header(), wait)
		w.WriteHeader(http.StatusTooManyRequests)
	}
	w.Write(out)
}
