package mcp

// This file holds the parts of the server that the generated 2025-11-25
// bindings replace as they land; it keeps the package building meanwhile.

import (
	"context"
	"encoding/json"

	"github.com/schemarpc/schemarpc/rpc"
)

// Implementation names a server or client.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Title   string `json:"title,omitempty"`
}

type toolEntry struct{}
type resourceEntry struct{}
type templateEntry struct{}
type promptEntry struct{}
type taskStore struct{}

func newTaskStore() *taskStore { return &taskStore{} }

// CompletionHandler answers completion/complete.
type CompletionHandler func(ctx context.Context, params json.RawMessage) (any, error)

func (s *Server) registerMethods() {
	s.router.Register("initialize", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		var p struct {
			ProtocolVersion string          `json:"protocolVersion"`
			Capabilities    json.RawMessage `json:"capabilities"`
			ClientInfo      json.RawMessage `json:"clientInfo"`
		}
		if err := req.DecodeParams(&p); err != nil {
			return nil, rpc.InvalidParams(err.Error())
		}
		return SessionFromContext(ctx).initialize(ctx, p.ProtocolVersion, p.Capabilities, p.ClientInfo)
	}})
	s.router.Register("ping", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) {
		return json.RawMessage(`{}`), nil
	}})
}
