package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
)

// clientMethod returns the index entry of a method the client may send in
// this version, or an *UnsupportedMethodError.
func (vs *versionSchema) clientMethod(method string) (versionMethod, error) {
	m, ok := vs.methods[method]
	if !ok || !m.sentByClient() {
		return versionMethod{}, &UnsupportedMethodError{Method: method, Version: vs.version}
	}
	return m, nil
}

// checkResult validates a result of method against the version's schema.
func (vs *versionSchema) checkResult(method string, raw json.RawMessage) error {
	m, ok := vs.methods[method]
	if !ok || m.result == "" {
		return nil
	}
	return vs.set.Schema(m.result).ValidateJSON(raw)
}

// UnsupportedMethodError is returned, before anything is sent, for a method
// the session's protocol version does not have (ping or logging/setLevel in
// 2026-07-28, subscriptions/listen before it, and so on).
type UnsupportedMethodError struct {
	Method  string // the method called
	Version string // the session's protocol version
}

// Error names the method and the version.
func (e *UnsupportedMethodError) Error() string {
	return fmt.Sprintf("mcp: protocol version %s has no method %s (nothing was sent)", e.Version, e.Method)
}

// ErrUnsupportedMethod matches every *UnsupportedMethodError with errors.Is.
var ErrUnsupportedMethod = errors.New("mcp: the session's protocol version lacks the method")

// Is reports whether target is ErrUnsupportedMethod.
func (e *UnsupportedMethodError) Is(target error) bool { return target == ErrUnsupportedMethod }

// InvalidResultError is returned when a server's result does not validate
// against the schema of the session's protocol version.
type InvalidResultError struct {
	Method  string // the method called
	Version string // the session's protocol version
	Err     error  // what the validation found
}

// Error names the method and what is wrong.
func (e *InvalidResultError) Error() string {
	return fmt.Sprintf("mcp: the server's %s result breaks the %s schema: %v", e.Method, e.Version, e.Err)
}

// Unwrap returns the validation error.
func (e *InvalidResultError) Unwrap() error { return e.Err }
