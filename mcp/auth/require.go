package auth

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// RequireOptions configures [Require].
type RequireOptions struct {
	// Verifier checks the bearer token. Required.
	Verifier Verifier
	// Resource is the server's canonical resource URI. When set, a token
	// is admitted only when its Audience lists it (RFC 8707), so that a
	// token issued for another service is refused.
	Resource string
	// Scopes every request needs.
	Scopes []string
	// ScopesFor, when set, returns further scopes a request needs (a tool
	// that needs more than the rest, say). [PeekCall] tells which MCP
	// method and name a request carries.
	ScopesFor func(r *http.Request) []string
	// ResourceMetadataURL is the URL of the server's protected resource
	// metadata, named in every challenge so that clients can discover the
	// authorization server.
	ResourceMetadataURL string
	// Sessions binds each handshake-era session to the identity of the
	// token that opened it: issuer, subject and client, or the token
	// itself when it names neither subject nor client (another identity's
	// token on it is refused with 403) and keeps the token of its latest request for the
	// session's handlers ([SessionTokens.For]). nil means a SessionTokens
	// of Require's own: sessions are bound in any case.
	Sessions *SessionTokens
	// Logger receives verifier failures; nil discards them.
	Logger *slog.Logger
	// Now is the clock for expiry checks; nil means time.Now.
	Now func() time.Time
}

// JSON-RPC error codes of the bodies [Require] answers with (outside the
// range JSON-RPC and MCP reserve).
const (
	// CodeUnauthorized: no token, or one that is invalid or expired (401).
	CodeUnauthorized = -31001
	// CodeForbidden: the token lacks a scope the request needs (403).
	CodeForbidden = -31003
	// CodeBadAuthorization: the Authorization header or the request is
	// malformed, or carries a token where tokens are not accepted (400).
	CodeBadAuthorization = -31000
)

// Require returns middleware that admits a request only with a valid
// bearer token in its Authorization header; a token in the query string
// is refused without being read. The token must be unexpired, issued for
// opts.Resource (when set) and grant the scopes the request needs.
// Refusals are 400 (malformed header), 401 (no, invalid or expired
// token) and 403 (insufficient scope), each with a WWW-Authenticate
// Bearer challenge naming the resource metadata and the scopes, and a
// JSON-RPC error body with id null. An admitted request reaches next
// without its Authorization header, and with the [TokenInfo] in its
// context ([TokenInfoFromContext]).
func Require(opts RequireOptions) func(http.Handler) http.Handler {
	if opts.Verifier == nil {
		panic("auth.Require: RequireOptions.Verifier is nil")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sessions == nil {
		opts.Sessions = NewSessionTokens(0)
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				next.ServeHTTP(w, r) // a CORS preflight carries no credentials
				return
			}
			need := opts.requiredScopes(r)
			token, problem := bearerToken(r)
			if problem != "" {
				opts.refuse(w, http.StatusBadRequest, "invalid_request", problem, need)
				return
			}
			if token == "" {
				opts.refuse(w, http.StatusUnauthorized, "", "an access token is required", need)
				return
			}
			info, err := opts.Verifier.Verify(r.Context(), token)
			switch {
			case errors.Is(err, ErrInvalidToken):
				opts.refuse(w, http.StatusUnauthorized, "invalid_token", "the access token is not valid", need)
				return
			case err != nil:
				if opts.Logger != nil {
					opts.Logger.Error("auth: the token verifier failed", "error", err)
				}
				writeError(w, http.StatusInternalServerError, nil, rpc.NewError(rpc.CodeInternalError, "the access token could not be verified"))
				return
			case info == nil:
				opts.refuse(w, http.StatusUnauthorized, "invalid_token", "the access token is not valid", need)
				return
			}
			if !info.Expiry.IsZero() && !opts.Now().Before(info.Expiry) {
				opts.refuse(w, http.StatusUnauthorized, "invalid_token", "the access token has expired", need)
				return
			}
			if opts.Resource != "" && !audienceHas(info.Audience, opts.Resource) {
				opts.refuse(w, http.StatusUnauthorized, "invalid_token", "the access token was not issued for this resource", need)
				return
			}
			if !info.HasScopes(need...) {
				opts.refuse(w, http.StatusForbidden, "insufficient_scope", "the access token lacks a scope this request needs", need)
				return
			}
			id := identityOf(info, token)
			r2 := r.Clone(mcp.WithPrincipal(WithTokenInfo(r.Context(), info), id))
			r2.Header.Del("Authorization")
			opts.serveSession(w, r2, info, id, next)
		})
	}
}

// requiredScopes is the union of the static and the per-request scopes.
func (o *RequireOptions) requiredScopes(r *http.Request) []string {
	need := append([]string(nil), o.Scopes...)
	if o.ScopesFor != nil {
		for _, s := range o.ScopesFor(r) {
			if !contains(need, s) {
				need = append(need, s)
			}
		}
	}
	return need
}

// bearerToken returns the token of the request's Authorization header,
// "" when there is none, or a problem when the request is malformed or
// puts a token where it is not accepted.
func bearerToken(r *http.Request) (token, problem string) {
	if r.URL.Query().Has("access_token") {
		return "", "access tokens are accepted only in the Authorization header"
	}
	values := r.Header.Values("Authorization")
	switch len(values) {
	case 0:
		return "", ""
	case 1:
	default:
		return "", "more than one Authorization header"
	}
	scheme, rest, _ := strings.Cut(strings.TrimSpace(values[0]), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", "" // another scheme carries no bearer token
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || !isToken68(rest) {
		return "", "the Authorization header does not hold a bearer token"
	}
	return rest, ""
}

// isToken68 reports whether s has RFC 6750's b64token syntax.
func isToken68(s string) bool {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~+/", c) >= 0 {
			i++
			continue
		}
		break
	}
	if i == 0 {
		return false
	}
	for i < len(s) && s[i] == '=' {
		i++
	}
	return i == len(s)
}

// audienceHas reports whether aud lists resource, comparing canonical
// forms (scheme and host without case, no trailing slash).
func audienceHas(aud []string, resource string) bool {
	want := canonicalResource(resource)
	for _, a := range aud {
		if canonicalResource(a) == want {
			return true
		}
	}
	return false
}

// refuse writes a refusal with its challenge and JSON-RPC body.
func (o *RequireOptions) refuse(w http.ResponseWriter, status int, code, description string, scopes []string) {
	c := Challenge{Scheme: "Bearer", Params: map[string]string{}}
	if o.ResourceMetadataURL != "" {
		c.Params["resource_metadata"] = o.ResourceMetadataURL
	}
	if len(scopes) > 0 {
		c.Params["scope"] = strings.Join(scopes, " ")
	}
	if code != "" {
		c.Params["error"] = code
		c.Params["error_description"] = description
	}
	rpcCode := CodeUnauthorized
	switch status {
	case http.StatusForbidden:
		rpcCode = CodeForbidden
	case http.StatusBadRequest:
		rpcCode = CodeBadAuthorization
	}
	rerr := rpc.NewError(rpcCode, description)
	if code != "" {
		rerr = rerr.WithData(map[string]string{"error": code})
	}
	writeError(w, status, []Challenge{c}, rerr)
}

// writeError answers with a JSON-RPC error response whose id is null.
func writeError(w http.ResponseWriter, status int, challenges []Challenge, rerr *rpc.Error) {
	for _, c := range challenges {
		w.Header().Add("WWW-Authenticate", c.String())
	}
	msg := rpc.EncodeError(rpc.NullID(), rerr)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(msg)
}
