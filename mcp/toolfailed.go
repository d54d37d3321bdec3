package mcp

import (
	"encoding/json"
	"reflect"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
)

// ToolFailed reports whether the result of a tools/call is a tool error
// (isError true), as middleware sees it: the raw JSON a client receives,
// or the values a server's handlers return (a [CallToolResult], the
// [CallToolOutcome] that wraps it, or an era's own result type). Telemetry
// and circuit breakers use it to tell a failed tool from a failed call.
func ToolFailed(res any) bool {
	switch r := res.(type) {
	case nil:
		return false
	case json.RawMessage:
		v, ok := jsonscan.Member(r, "isError")
		return ok && string(v) == "true"
	case *CallToolResult:
		return r != nil && r.IsError != nil && *r.IsError
	case CallToolResult:
		return r.IsError != nil && *r.IsError
	case *CallToolOutcome:
		return r != nil && ToolFailed(r.Value)
	case *v20260728.CallToolOutcome:
		// What the stateless era's generated binding returns; its result
		// travels as raw JSON (see statelessService).
		return r != nil && ToolFailed(r.Value)
	case *v20260728.UnknownCallToolOutcome:
		return r != nil && ToolFailed(r.Raw)
	case v20260728.UnknownCallToolOutcome:
		return ToolFailed(r.Raw)
	}
	return reflectFailed(reflect.ValueOf(res), 3)
}

// reflectFailed looks for an IsError field (bool or *bool) in a result of
// another type (an era's own result), or in the Value or Result it wraps.
func reflectFailed(v reflect.Value, depth int) bool {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct || depth == 0 {
		return false
	}
	if f := v.FieldByName("IsError"); f.IsValid() {
		switch {
		case f.Kind() == reflect.Bool:
			return f.Bool()
		case f.Kind() == reflect.Pointer && !f.IsNil() && f.Elem().Kind() == reflect.Bool:
			return f.Elem().Bool()
		}
	}
	for _, name := range []string{"Value", "Result"} {
		if f := v.FieldByName(name); f.IsValid() && f.CanInterface() && reflectFailed(f, depth-1) {
			return true
		}
	}
	return false
}
