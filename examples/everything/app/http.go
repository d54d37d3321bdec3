package app

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/schemarpc/schemarpc/mcp"
)

// mcpPath is where the Streamable HTTP endpoint is mounted.
const mcpPath = "/mcp"

// serveHTTP serves Streamable HTTP at http://addr/mcp until ctx ends. Unless adjust
// says otherwise, sessions keep their state between requests in this process
// (server-to-client requests travel on the stream of the call being served), and SSE
// events are kept in memory for clients that resume.
func serveHTTP(ctx context.Context, s *mcp.Server, addr string, logger *slog.Logger, adjust []func(*mcp.HTTPOptions)) error {
	opts := &mcp.HTTPOptions{}
	for _, a := range adjust {
		a(opts)
	}
	h := mcp.NewStreamableHTTPHandler(s, opts)
	mux := http.NewServeMux()
	mux.Handle(mcpPath, h)
	logger.Info("serving Streamable HTTP", "url", "http://"+addr+mcpPath)
	return mcp.ListenAndServe(ctx, addr, shutdownHandler{Handler: mux, Shutdowner: h})
}

// shutdownHandler is a mux whose Shutdown is the MCP handler's: calls in flight finish,
// new ones are refused, then sessions and streams end, so that a shutdown does not wait
// for open SSE streams.
type shutdownHandler struct {
	http.Handler
	mcp.Shutdowner
}
