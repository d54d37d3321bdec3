package mcp

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/schemarpc/schemarpc/rpc"
)

// notDeclaredError is a handler's failure to ask the client for something
// it did not declare it can give (or its session's version does not have),
// in either era; nothing was asked. It wraps ErrNotDeclared. Whatever the
// handler, the client learns what is missing: a tool in a handshake
// session reports it as a tool error, everything else answers -32021 with
// the missing capabilities in data.requiredCapabilities (asRPC).
type notDeclaredError struct{ missing map[string]any }

// notDeclared is the error for the capability at path, such as
// ("sampling", "tools") for sampling.tools.
func notDeclared(path ...string) *notDeclaredError {
	var v any = map[string]any{}
	for i := len(path) - 1; i > 0; i-- {
		v = map[string]any{path[i]: v}
	}
	return &notDeclaredError{map[string]any{path[0]: v}}
}

func (e *notDeclaredError) Error() string {
	return ErrNotDeclared.Error() + ": " + strings.Join(capabilityPaths(e.missing), ", ")
}

func (e *notDeclaredError) Unwrap() error { return ErrNotDeclared }

// capabilityPaths names the leaves of a capabilities object, dotted and
// sorted: {"sampling": {"tools": {}}, "roots": {}} → roots, sampling.tools.
func capabilityPaths(caps map[string]any) []string {
	var out []string
	for k, v := range caps {
		sub, ok := v.(map[string]any)
		if !ok || len(sub) == 0 {
			out = append(out, k)
			continue
		}
		for _, p := range capabilityPaths(sub) {
			out = append(out, k+"."+p)
		}
	}
	sort.Strings(out)
	return out
}

// asRPC turns a notDeclaredError, wherever it is in err's chain, into the
// -32021 error naming what is missing; other errors pass.
func asRPC(err error) error {
	var nd *notDeclaredError
	if errors.As(err, &nd) {
		return missingCapability(nd.missing)
	}
	return err
}

// MissingCapability is the error (-32021) for a request that needs a
// client capability the client did not declare; required is a
// ClientCapabilities object naming what is needed, such as
// {"sampling": {}}. The server answers it for every request whose handler
// asked the client for something it does not offer.
func MissingCapability(required *ClientCapabilities) *rpc.Error {
	return missingCapability(required)
}

// missingCapability builds the -32021 error: the message names what is
// missing, data.requiredCapabilities holds it as a capabilities object.
func missingCapability(required any) *rpc.Error {
	msg := "the request needs a client capability it did not declare"
	var caps map[string]any
	if raw, err := json.Marshal(required); err == nil && json.Unmarshal(raw, &caps) == nil && len(caps) > 0 {
		msg += ": " + strings.Join(capabilityPaths(caps), ", ")
	}
	return rpc.NewError(CodeMissingCapability, msg).WithData(map[string]any{"requiredCapabilities": required})
}
