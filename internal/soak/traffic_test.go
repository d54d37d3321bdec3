package soak

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"strings"
)

// A case is one request and what it deserves. body gets the request id to
// use (as JSON text).
type httpCase struct {
	name string
	body func(id string) io.Reader
	hdr  []string
	host string // replaces the request's Host when not empty
	want expect
}

// fixed is a body that ignores the id.
func fixed(s string) func(string) io.Reader {
	return func(string) io.Reader { return strings.NewReader(s) }
}

// call is a request body with the given method and params.
func call(method, params string) func(string) io.Reader {
	return func(id string) io.Reader {
		return strings.NewReader(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`)
	}
}

// chunked hides a body's length, so that the size limit is met while
// reading rather than from Content-Length.
func chunked(f func(string) io.Reader) func(string) io.Reader {
	return func(id string) io.Reader { return io.MultiReader(f(id)) }
}

// oversized is a request whose body is over the server's limit.
func oversized(id string) io.Reader {
	return strings.NewReader(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping","params":{"pad":"` + strings.Repeat("x", maxBody) + `"}}`)
}

// sessionCases are the requests sent inside a handshake-era session, valid
// and not; the session headers are added by the caller.
var sessionCases = []httpCase{
	{name: "session/echo", body: call("tools/call", `{"name":"echo","arguments":{"text":"soak"}}`), want: expect{status: 200, check: echoResult("soak")}},
	{name: "session/ping", body: call("ping", `{}`), want: expect{status: 200}},
	{name: "session/resource", body: call("resources/read", `{"uri":"soak://static"}`), want: expect{status: 200, check: containsText("static text")}},
	{name: "session/prompt", body: call("prompts/get", `{"name":"greet","arguments":{"who":"soak"}}`), want: expect{status: 200, check: containsText("hello soak")}},
	{name: "session/tool-error", body: call("tools/call", `{"name":"fail","arguments":{}}`), want: expect{status: 200, check: toolError("the tool failed on purpose")}},
	{name: "session/bad-arguments", body: call("tools/call", `{"name":"echo","arguments":{"text":5}}`), want: expect{status: 200, check: toolError("invalid arguments")}},
	{name: "session/unknown-tool", body: call("tools/call", `{"name":"nope","arguments":{}}`), want: expect{status: 200, code: -32602}},
	{name: "session/wrong-params", body: call("tools/call", `{"name":5}`), want: expect{status: 200, code: -32602}},
	{name: "session/unknown-resource", body: call("resources/read", `{"uri":"soak://nope"}`), want: expect{status: 200, code: -32002}},
	{name: "session/missing-prompt-argument", body: call("prompts/get", `{"name":"greet","arguments":{}}`), want: expect{status: 200, code: -32602}},
	{name: "session/unknown-method", body: call("nope/nope", `{}`), want: expect{status: 200, code: -32601}},
	{name: "session/malformed", body: fixed(`{"jsonrpc":"2.0","id":1,"method":`), want: expect{status: 400, code: -32700, id: "null"}},
	{name: "session/empty-batch", body: fixed(`[]`), want: expect{status: 400, code: -32600, id: "null"}},
	{name: "session/oversized", body: oversized, want: expect{status: 413, code: -32600, id: "null"}},
	{name: "session/oversized-chunked", body: chunked(oversized), want: expect{status: 413, code: -32600, id: "null"}},
	{name: "session/content-type", body: call("ping", `{}`), hdr: []string{"Content-Type", "text/plain"}, want: expect{status: 415, code: -32600, id: "null"}},
	{name: "session/accept", body: call("ping", `{}`), hdr: []string{"Accept", "application/json"}, want: expect{status: 406, code: -32600, id: "null"}},
	{name: "session/foreign-origin", body: call("ping", `{}`), hdr: []string{"Origin", "http://evil.example"}, want: expect{status: 403, code: -32600, id: "null"}},
	{name: "session/rebinding-host", body: call("ping", `{}`), host: "rebind.example:80", want: expect{status: 403, code: -32600, id: "null"}},
}

// statelessHeaders are the mirrored headers of a stateless tools/call.
func statelessHeaders(method, name string) []string {
	h := []string{"Mcp-Protocol-Version", versionStateless, "Mcp-Method", method}
	if name != "" {
		h = append(h, "Mcp-Name", name)
	}
	return h
}

// statelessCall is a stateless request body.
func statelessCall(method, params string) func(string) io.Reader {
	if params == "" {
		return call(method, `{`+statelessMeta+`}`)
	}
	return call(method, `{`+params+`,`+statelessMeta+`}`)
}

// statelessCases are stateless 2026-07-28 requests, valid and not.
var statelessCases = []httpCase{
	{name: "stateless/echo", body: statelessCall("tools/call", `"name":"echo","arguments":{"text":"now"}`), hdr: statelessHeaders("tools/call", "echo"), want: expect{status: 200, check: echoResult("now")}},
	{name: "stateless/discover", body: statelessCall("server/discover", ""), hdr: statelessHeaders("server/discover", ""), want: expect{status: 200, check: containsText(`"supportedVersions"`)}},
	{name: "stateless/resource", body: statelessCall("resources/read", `"uri":"soak://static"`), hdr: statelessHeaders("resources/read", "soak://static"), want: expect{status: 200, check: containsText("static text")}},
	{name: "stateless/tool-error", body: statelessCall("tools/call", `"name":"fail","arguments":{}`), hdr: statelessHeaders("tools/call", "fail"), want: expect{status: 200, check: toolError("the tool failed on purpose")}},
	{name: "stateless/bad-arguments", body: statelessCall("tools/call", `"name":"echo","arguments":{"text":1}`), hdr: statelessHeaders("tools/call", "echo"), want: expect{status: 200, check: toolError("invalid arguments")}},
	{name: "stateless/unknown-tool", body: statelessCall("tools/call", `"name":"nope","arguments":{}`), hdr: statelessHeaders("tools/call", "nope"), want: expect{status: 200, code: -32602}},
	{name: "stateless/unknown-method", body: statelessCall("nope/nope", ""), hdr: statelessHeaders("nope/nope", ""), want: expect{status: 404, code: -32601}},
	{name: "stateless/header-mismatch", body: statelessCall("tools/call", `"name":"echo","arguments":{"text":"x"}`), hdr: statelessHeaders("tools/call", "other"), want: expect{status: 400, code: -32020}},
	{name: "stateless/missing-method-header", body: statelessCall("tools/call", `"name":"echo","arguments":{"text":"x"}`), hdr: []string{"Mcp-Protocol-Version", versionStateless, "Mcp-Name", "echo"}, want: expect{status: 400, code: -32020}},
	{name: "stateless/no-meta", body: call("tools/call", `{"name":"echo","arguments":{"text":"x"}}`), hdr: statelessHeaders("tools/call", "echo"), want: expect{status: 400, code: -32602}},
	{name: "stateless/unsupported-version", body: call("tools/call", `{"name":"echo","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}`),
		hdr: []string{"Mcp-Protocol-Version", "2099-01-01", "Mcp-Method", "tools/call", "Mcp-Name", "echo"}, want: expect{status: 400, code: -32022}},
	{name: "stateless/malformed", body: fixed(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`), hdr: statelessHeaders("tools/call", ""), want: expect{status: 400, code: -32700, id: "null"}},
	{name: "stateless/oversized", body: oversized, hdr: statelessHeaders("ping", ""), want: expect{status: 413, code: -32600, id: "null"}},
	{name: "stateless/foreign-origin", body: statelessCall("tools/call", `"name":"echo","arguments":{"text":"x"}`), hdr: append(statelessHeaders("tools/call", "echo"), "Origin", "https://evil.example"), want: expect{status: 403, code: -32600, id: "null"}},
}

// randomSessionID is a well-formed session id the server never issued.
func randomSessionID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// pick returns a random element of cases.
func pick[T any](r *mrand.Rand, cases []T) T { return cases[r.IntN(len(cases))] }

// send runs one case with the given id and extra headers.
func (w *worker) send(ctx context.Context, c httpCase, id string, hdr ...string) (reply, error) {
	req := request(ctx, http.MethodPost, w.env.url, c.body(id), append(hdr, c.hdr...)...)
	if c.host != "" {
		req.Host = c.host
	}
	return exchange(w.env.hc, req)
}

// runCase sends one case and records whether it got what it deserved.
func (w *worker) runCase(ctx context.Context, c httpCase, id string, hdr ...string) {
	r, err := w.send(ctx, c, id, hdr...)
	if err == nil {
		err = c.want.verify(r)
	}
	w.record(c.name, err)
}

// sessionHeaders are the headers of a request in session sid.
func sessionHeaders(sid string) []string {
	return []string{"Mcp-Session-Id", sid, "Mcp-Protocol-Version", versionHandshake}
}

// rawSession opens a session by hand, sends a few of sessionCases in it,
// and ends it with DELETE; a request after that must find no session.
func (w *worker) rawSession(ctx context.Context) {
	sid, ok := w.openSession(ctx)
	if !ok {
		return
	}
	for i := range 2 + w.rnd.IntN(6) {
		w.runCase(ctx, pick(w.rnd, sessionCases), fmt.Sprint(10+i), sessionHeaders(sid)...)
	}
	w.deleteSession(ctx, sid)
	w.runCase(ctx, httpCase{name: "session/after-delete", body: call("ping", `{}`), want: expect{status: 404, code: -32600, id: "99"}}, "99", sessionHeaders(sid)...)
}

// openSession initializes a session by hand and reports its id.
func (w *worker) openSession(ctx context.Context) (string, bool) {
	r, err := exchange(w.env.hc, request(ctx, http.MethodPost, w.env.url, strings.NewReader(initBody)))
	if err == nil {
		err = expect{status: 200, id: "1", check: containsText(`"protocolVersion":"` + versionHandshake + `"`)}.verify(r)
	}
	if err == nil && r.sid == "" {
		err = fmt.Errorf("initialize answered without a session id")
	}
	w.record("session/initialize", err)
	if err != nil {
		return "", false
	}
	sid := r.sid
	r, err = exchange(w.env.hc, request(ctx, http.MethodPost, w.env.url, strings.NewReader(initializedBody), sessionHeaders(sid)...))
	if err == nil {
		err = expect{status: 202, empty: true}.verify(r)
	}
	w.record("session/initialized", err)
	return sid, err == nil
}

// deleteSession ends a session.
func (w *worker) deleteSession(ctx context.Context, sid string) {
	r, err := exchange(w.env.hc, request(ctx, http.MethodDelete, w.env.url, nil, sessionHeaders(sid)...))
	if err == nil {
		err = expect{status: 204, empty: true}.verify(r)
	}
	w.record("session/delete", err)
}

// rawStateless sends one stateless request.
func (w *worker) rawStateless(ctx context.Context) {
	w.runCase(ctx, pick(w.rnd, statelessCases), fmt.Sprint(1+w.rnd.IntN(1000)))
}

// unknownSession uses a session id the server never issued, with each
// method.
func (w *worker) unknownSession(ctx context.Context) {
	sid := randomSessionID()
	w.runCase(ctx, httpCase{name: "unknown-session/post", body: call("ping", `{}`), want: expect{status: 404, code: -32600, id: "1"}}, "1", sessionHeaders(sid)...)
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		req := request(ctx, method, w.env.url, nil, append(sessionHeaders(sid), "Accept", "text/event-stream")...)
		r, err := exchange(w.env.hc, req)
		if err == nil {
			err = expect{status: 404, code: -32600, id: "null"}.verify(r)
		}
		w.record("unknown-session/"+strings.ToLower(method), err)
	}
}
