package app

import (
	"log/slog"

	"github.com/schemarpc/schemarpc/mcp"
)

// instructions tell a client what this server is for.
const instructions = "A test server: every tool, resource and prompt exists to exercise one MCP feature. " +
	"The official conformance suite and the interop tests drive it by name."

// newServer builds the everything server with its whole surface registered. w holds the
// state of the watched resource; adjust may change the server's options before it is made.
func newServer(logger *slog.Logger, pageSize int, w *watched, adjust ...func(*mcp.ServerOptions)) (*mcp.Server, error) {
	opts := &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       logger,
		PageSize:     pageSize,
		Tasks:        true,
	}
	for _, a := range adjust {
		a(opts)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "everything", Version: "1.0.0"}, opts)
	for _, add := range []func(*mcp.Server) error{
		addTools,
		addTaskTools,
		func(s *mcp.Server) error { return addResources(s, w) },
		addPrompts,
	} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	s.SetCompletionHandler(complete)
	return s, nil
}
