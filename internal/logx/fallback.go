package logx

import (
	"context"
	"log/slog"
)

// FallbackLevel is the least severe level Fallback passes on: warnings
// (refused or dropped messages) and errors (a handler that failed or
// panicked, with the cause the peer never sees).
const FallbackLevel = slog.LevelWarn

// Fallback is the logger of rpc and mcp when the program names none. It
// passes the records at FallbackLevel and above to the handler of
// slog.Default() as it is when each record is logged, which writes to
// standard error unless the program changed it (never to stdout, which
// carries the protocol on stdio), so that the cause of an internal error
// is never lost; a program's slog.SetDefault takes effect at once.
func Fallback() *slog.Logger { return fallback }

var fallback = slog.New(fallbackHandler{})

// fallbackHandler is Fallback's handler: the attributes and groups added
// to it are kept as steps to replay on the default handler of the moment.
type fallbackHandler struct {
	steps []func(slog.Handler) slog.Handler
}

func (fallbackHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= FallbackLevel && slog.Default().Handler().Enabled(ctx, l)
}

func (h fallbackHandler) Handle(ctx context.Context, r slog.Record) error {
	to := slog.Default().Handler()
	for _, step := range h.steps {
		to = step(to)
	}
	return to.Handle(ctx, r)
}

func (h fallbackHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.with(func(to slog.Handler) slog.Handler { return to.WithAttrs(attrs) })
}

func (h fallbackHandler) WithGroup(name string) slog.Handler {
	return h.with(func(to slog.Handler) slog.Handler { return to.WithGroup(name) })
}

func (h fallbackHandler) with(step func(slog.Handler) slog.Handler) slog.Handler {
	steps := make([]func(slog.Handler) slog.Handler, len(h.steps), len(h.steps)+1)
	copy(steps, h.steps)
	return fallbackHandler{steps: append(steps, step)}
}
