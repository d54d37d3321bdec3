package rpc_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

const testSchemaURL = "https://schemarpc.dev/test/service.json"

// testSchemas holds the params schemas of the test service.
var testSchemas = rpc.NewSchemaSet(map[string]string{testSchemaURL: `{
	"$defs": {
		"add": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
			"required": ["a", "b"], "additionalProperties": false},
		"wide": {"type": "object", "additionalProperties": {"type": "integer"}},
		"shape": {"type": "object", "properties": {"shape": {"anyOf": [
			{"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
			{"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
		]}}, "required": ["shape"]}
	}}`})

// testService is the service most behaviour tests run against.
func testService(t *testing.T) *rpc.Router {
	t.Helper()
	r := rpc.NewRouter()
	r.Register("echo", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return req.Params, nil
	}})
	r.Register("add", rpc.Method{
		Params:         testSchemas.Schema(testSchemaURL + "#/$defs/add"),
		ParamStructure: rpc.Either,
		ParamNames:     []string{"a", "b"},
		Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
			var p struct {
				A float64 `json:"a"`
				B float64 `json:"b"`
			}
			if err := req.DecodeParams(&p); err != nil {
				return nil, err
			}
			return p.A + p.B, nil
		},
	})
	r.Register("wide", rpc.Method{Params: testSchemas.Schema(testSchemaURL + "#/$defs/wide"),
		Handler: func(ctx context.Context, req *rpc.Request) (any, error) { return true, nil }})
	r.Register("shape", rpc.Method{Params: testSchemas.Schema(testSchemaURL + "#/$defs/shape"),
		Handler: func(ctx context.Context, req *rpc.Request) (any, error) { return true, nil }})
	r.Register("fail", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, rpc.NewError(42, "deliberate failure").WithData(map[string]int{"attempt": 1})
	}})
	r.Register("wrapped", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, fmt.Errorf("while doing it: %w", rpc.ServerError(-32050, "backend unavailable"))
	}})
	r.Register("secret", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, errors.New("password=hunter2 leaked into an error")
	}})
	r.Register("panic", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		panic("the handler panicked with a secret")
	}})
	r.Register("unencodable", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return func() {}, nil
	}})
	r.Register("tick", rpc.Method{Notification: true, Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return "ignored", nil
	}})
	return r
}

// deep returns n nested arrays around 0.
func deep(n int) string {
	return strings.Repeat("[", n) + "0" + strings.Repeat("]", n)
}
