package mcp

import (
	"context"

	"github.com/schemarpc/schemarpc/rpc"
)

// FakeHTTPTransport is a StreamTransport whose link says it is HTTP, so
// that black-box tests reach the client's HTTP-only behaviour without a
// server.
func FakeHTTPTransport(t rpc.Transport) ClientTransport { return fakeHTTP{t} }

type fakeHTTP struct{ t rpc.Transport }

func (f fakeHTTP) dial(context.Context, *linkEnv) (clientLink, error) {
	return &fakeHTTPLink{streamLink{Transport: f.t}}, nil
}

type fakeHTTPLink struct{ streamLink }

func (l *fakeHTTPLink) isHTTP() bool { return true }
