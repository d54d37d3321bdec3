package mcp

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/schemarpc/schemarpc/rpc"
)

// maxErrorBody bounds the part of an HTTP error body kept in an
// HTTPStatusError.
const maxErrorBody = 64 << 10

// HTTPStatusError is a non-2xx answer of an MCP server to a POST or GET of
// the client's HTTP transports. The call the request belonged to fails with
// it. When the body is a JSON-RPC error response, RPCError holds its error
// and errors.As(err, &rpcErr) with an *rpc.Error finds it.
type HTTPStatusError struct {
	// StatusCode is the HTTP status, 400 for example.
	StatusCode int
	// Header is the response's header (WWW-Authenticate on a 401, say).
	Header http.Header
	// Body is the start of the response body, at most 64 KiB.
	Body []byte
	// RPCError is the error of the body when it is a JSON-RPC error
	// response, else nil.
	RPCError *rpc.Error
}

// Error names the status and, when there is one, the JSON-RPC error or the
// start of the body.
func (e *HTTPStatusError) Error() string {
	s := fmt.Sprintf("mcp: HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	switch {
	case e.RPCError != nil:
		return s + ": " + e.RPCError.Error()
	case len(e.Body) > 0:
		return s + ": " + bodySnippet(e.Body)
	}
	return s
}

// Unwrap returns RPCError when it is set.
func (e *HTTPStatusError) Unwrap() error {
	if e.RPCError == nil {
		return nil
	}
	return e.RPCError
}

// bodySnippet renders the start of a body for an error message: one line,
// at most 200 bytes of valid UTF-8.
func bodySnippet(b []byte) string {
	const max = 200
	cut := len(b) > max
	if cut {
		b = b[:max]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "?")), " ")
	if cut {
		s += "…"
	}
	return s
}

// ErrSessionExpired matches the error of calls whose Streamable HTTP
// session the server no longer knows (it answered 404 to a request carrying
// the session id). The client must initialize a new session.
var ErrSessionExpired = errors.New("mcp: the server ended the session")

// SessionExpiredError is the error of every call waiting in a Streamable
// HTTP session the server answered 404 for. It matches ErrSessionExpired.
type SessionExpiredError struct {
	// SessionID is the id the server no longer knows.
	SessionID string
}

// Error names the session.
func (e *SessionExpiredError) Error() string {
	return fmt.Sprintf("mcp: the server ended session %q (HTTP 404)", e.SessionID)
}

// Is makes the error match ErrSessionExpired.
func (e *SessionExpiredError) Is(target error) bool { return target == ErrSessionExpired }
