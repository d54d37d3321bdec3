package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"

	"github.com/schemarpc/schemarpc/rpc"
)

// logLevels are the protocol's levels in increasing severity (RFC 5424
// order; the schema lists them alphabetically).
var logLevels = []LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// severity returns a level's rank, or -1 when it is not a level.
func severity(l LoggingLevel) int { return slices.Index(logLevels, l) }

// setLogLevel answers logging/setLevel: from now on messages at level and
// above are sent.
func (ss *ServerSession) setLogLevel(l LoggingLevel) error {
	n := severity(l)
	if n < 0 {
		return rpc.InvalidParams(fmt.Sprintf("unknown log level %q", l))
	}
	ss.mu.Lock()
	ss.logLevel = n
	ss.mu.Unlock()
	ss.stateChanged()
	return nil
}

// Log sends a log message (notifications/message) to the client when the
// client asked for that level with logging/setLevel; until it asks, nothing
// is sent. data is any JSON-encodable value. Within a request handler, use
// the handler's ctx so the message travels with the request.
func (ss *ServerSession) Log(ctx context.Context, level LoggingLevel, logger string, data any) error {
	n := severity(level)
	if n < 0 {
		return fmt.Errorf("mcp: unknown log level %q", level)
	}
	ss.mu.Lock()
	min := ss.logLevel
	ss.mu.Unlock()
	if min < 0 || n < min {
		return nil
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("mcp: log data: %w", err)
	}
	return ss.conn.Notify(ctx, "notifications/message", &LoggingMessageNotificationParams{Level: level, Logger: logger, Data: raw})
}

// LogHandler is an slog.Handler that sends each record to an MCP client as
// notifications/message: the message and attributes as a JSON object, the
// level mapped to the protocol's (Debug → debug, Info → info, Warn →
// warning, Error → error, above Error → critical). The client's
// logging/setLevel decides what is sent (for a stateless request, the level
// its _meta names; see [Request.Logger]).
type LogHandler struct {
	to     logTarget
	logger string
	attrs  []groupedAttr // from WithAttrs, each under the groups open then
	groups []string
}

// groupedAttr is an attribute and the groups it belongs under.
type groupedAttr struct {
	groups []string
	attr   slog.Attr
}

// logTarget is where a LogHandler's records go: the lowest level wanted
// (an index in logLevels, -1 for none) and how a message is sent.
type logTarget interface {
	minLevel() int
	Log(ctx context.Context, level LoggingLevel, logger string, data any) error
}

// minLevel is the lowest level the session's client asked for.
func (ss *ServerSession) minLevel() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.logLevel
}

// NewLogHandler returns a handler that logs to the session's client under
// the logger name (may be "").
func NewLogHandler(ss *ServerSession, logger string) *LogHandler {
	return &LogHandler{to: ss, logger: logger}
}

// Logger returns an slog.Logger that sends its records to the session's
// client; see [LogHandler].
func (ss *ServerSession) Logger(name string) *slog.Logger { return slog.New(NewLogHandler(ss, name)) }

func mcpLevel(l slog.Level) LoggingLevel {
	switch {
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelWarn:
		return "info"
	case l < slog.LevelError:
		return "warning"
	case l == slog.LevelError:
		return "error"
	default:
		return "critical"
	}
}

// Enabled reports whether the client wants records of this level.
func (h *LogHandler) Enabled(_ context.Context, l slog.Level) bool {
	min := h.to.minLevel()
	return min >= 0 && severity(mcpLevel(l)) >= min
}

// Handle sends one record.
func (h *LogHandler) Handle(ctx context.Context, r slog.Record) error {
	obj := map[string]any{"message": r.Message}
	for _, ga := range h.attrs {
		putAttr(obj, ga.groups, ga.attr)
	}
	r.Attrs(func(a slog.Attr) bool {
		putAttr(obj, h.groups, a)
		return true
	})
	return h.to.Log(ctx, mcpLevel(r.Level), h.logger, obj)
}

// putAttr sets an attribute in obj, nested under groups.
func putAttr(obj map[string]any, groups []string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return
	}
	for _, g := range groups {
		m, ok := obj[g].(map[string]any)
		if !ok {
			m = map[string]any{}
			obj[g] = m
		}
		obj = m
	}
	obj[a.Key] = attrValue(a.Value)
}

func attrValue(v slog.Value) any {
	if v.Kind() == slog.KindGroup {
		m := map[string]any{}
		for _, a := range v.Group() {
			m[a.Key] = attrValue(a.Value.Resolve())
		}
		return m
	}
	if err, ok := v.Any().(error); ok {
		return err.Error()
	}
	return v.Any()
}

// WithAttrs returns a handler that adds attrs to every record.
func (h *LogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = slices.Clip(h.attrs)
	for _, a := range attrs {
		c.attrs = append(c.attrs, groupedAttr{groups: h.groups, attr: a})
	}
	return &c
}

// WithGroup returns a handler that nests later attributes under name.
func (h *LogHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.groups = append(slices.Clip(h.groups), name)
	return &c
}
