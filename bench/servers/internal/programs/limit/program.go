// Package limit is the benchmark server built with no library, the floor of
// every figure.
package limit

import (
	"context"
	"io"
	"net/http"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
	"github.com/schemarpc/schemarpc/bench/surface/limit"
)

// Program serves the surface with no library: package surface/limit's byte
// scanning and prebuilt replies. The stateless flag changes nothing.
var Program = serve.Program{
	Name: "limit",
	Stdio: func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		errc := make(chan error, 1)
		go func() { errc <- limit.Serve(in, out) }()
		select {
		case err := <-errc:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	},
	HTTP: func(serve.Flags) (http.Handler, func()) {
		return &limit.Handler{}, nil
	},
}
