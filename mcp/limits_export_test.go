package mcp

import (
	"context"
	"io"
)

// ServeStreamForTest serves one stdio-style session on r and w, as
// ServeStdio does on the process's stdin and stdout.
func ServeStreamForTest(ctx context.Context, s *Server, r io.Reader, w io.Writer) error {
	return s.serveStream(ctx, r, w)
}
