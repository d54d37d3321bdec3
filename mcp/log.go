package mcp

import (
	"context"
	"log/slog"
	"net/url"

	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/rpc"
)

// The server's and the client's own logs (ServerOptions.Logger,
// ClientOptions.Logger) use the keys of the rpc package's log lines:
// method, id, code, error, transport, session, version, params (only with
// LogParams), and tool for a tool's name. See docs/operations.md, "Logs".

// serverTransportName names the transport a session runs on, for the logs;
// "" leaves the key out.
func serverTransportName(t rpc.Transport) string {
	switch t.(type) {
	case *httpSession:
		return "http"
	case *rpc.StreamTransport:
		return "stdio"
	case *rpc.WebSocketTransport:
		return "websocket"
	}
	return ""
}

// clientTransportName names the transport a client dials, for the logs.
func clientTransportName(t ClientTransport) string {
	switch t := t.(type) {
	case *CommandTransport:
		return "stdio"
	case *StreamableHTTPTransport:
		return "http"
	case *SSETransport:
		return "sse"
	case *StreamTransport:
		if _, ok := t.Transport.(*rpc.StreamTransport); ok {
			return "stdio"
		}
	}
	return ""
}

// sessionLogger is the server's logger with the session's transport and
// id added (each only when known). The attributes are added to each record
// as it is logged (sessionLogHandler), not up front as slog.Logger.With
// would: a server holding many idle sessions, which log nothing, holds no
// handler with their attributes formatted for each.
func sessionLogger(l *slog.Logger, transport, id string) *slog.Logger {
	if (transport == "" && id == "") || logx.Discards(l) {
		return l
	}
	return slog.New(sessionLogHandler{base: l.Handler(), transport: transport, id: id})
}

// sessionLogHandler passes records to base with a session's transport and
// id, as base.WithAttrs would, made when a record is handled.
type sessionLogHandler struct {
	base          slog.Handler
	transport, id string
}

func (h sessionLogHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.base.Enabled(ctx, l)
}

func (h sessionLogHandler) Handle(ctx context.Context, r slog.Record) error {
	return h.attributed().Handle(ctx, r)
}

func (h sessionLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.attributed().WithAttrs(attrs)
}

func (h sessionLogHandler) WithGroup(name string) slog.Handler {
	return h.attributed().WithGroup(name)
}

// attributed returns base with the session's attributes.
func (h sessionLogHandler) attributed() slog.Handler {
	attrs := make([]slog.Attr, 0, 2)
	if h.transport != "" {
		attrs = append(attrs, slog.String(logx.Transport, h.transport))
	}
	if h.id != "" {
		attrs = append(attrs, slog.String(logx.Session, h.id))
	}
	return h.base.WithAttrs(attrs)
}

// statelessUnreadable logs, at debug level, a 2026-07-28 POST body that is no
// request: its length and the code answered, the reason and an excerpt
// only under LogParams.
func (h *StreamableHTTPHandler) statelessUnreadable(ctx context.Context, body []byte, perr *rpc.Error) {
	if h.log.Enabled(ctx, slog.LevelDebug) {
		logx.Unreadable(ctx, h.log, "mcp: unreadable message", h.server.opts.LogParams, perr.Code, body, perr.Message)
	}
}

// requestAttrs names the request a handler serves (tools/call, say) for a
// line about it: its method and, when known, its id.
func requestAttrs(ctx context.Context, method string) []slog.Attr {
	if id, ok := requestIDFromContext(ctx); ok {
		return []slog.Attr{slog.String(logx.Method, method), slog.String(logx.ID, id.String())}
	}
	return []slog.Attr{slog.String(logx.Method, method)}
}

// logFor is the logger of a line about ss's work: the session's, or the
// server's for a stateless request (nil ss).
func (s *Server) logFor(ss *ServerSession) *slog.Logger {
	if ss != nil && ss.log != nil {
		return ss.log
	}
	return s.log
}

// statelessRefused logs at warn a 2026-07-28 request refused before its
// handler ran (busy, shutting down).
func (h *StreamableHTTPHandler) statelessRefused(ctx context.Context, req *rpc.Request, werr *rpc.Error) {
	logx.Refused(ctx, h.log, "mcp: request refused", req.Method, req.ID.String(), werr.Code, werr.Message)
}

// droppedMessage logs at warn a message from the server that the link
// drops: its length, and a bounded excerpt only under
// ClientOptions.LogParams, since it may hold anything.
func (b *httpBase) droppedMessage(msg string, data []byte) {
	if b.env.logParams {
		b.log.LogAttrs(context.Background(), slog.LevelWarn, msg, slog.Int(logx.Size, len(data)), slog.String(logx.Excerpt, logx.Cut(data)))
		return
	}
	b.log.LogAttrs(context.Background(), slog.LevelWarn, msg, slog.Int(logx.Size, len(data)))
}

// noteReceived logs, at debug level, a notification from the server,
// which the client takes off the connection before the rpc package sees
// it.
func (s *ClientSession) noteReceived(method string, params []byte) {
	ctx := context.Background()
	if !s.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	if s.client.opts.LogParams {
		s.log.LogAttrs(ctx, slog.LevelDebug, "mcp: notification received", slog.String(logx.Method, method), slog.String(logx.Params, logx.Cut(params)))
		return
	}
	s.log.LogAttrs(ctx, slog.LevelDebug, "mcp: notification received", slog.String(logx.Method, method))
}

// logURL renders u for a log line without what may be a credential: no
// user information, no query (an HTTP+SSE endpoint carries its session
// there), no fragment.
func logURL(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}).String()
}
