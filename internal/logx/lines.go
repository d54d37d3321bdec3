package logx

import (
	"context"
	"log/slog"
)

// The lines the rpc runtime and the MCP HTTP handler both write, each
// under its own message. Callers check Logger.Enabled for debug lines
// before they build the arguments (an id's text, say), so that a request
// costs nothing when debug is off.

// Answered writes, at debug level, a request answered with an error its
// handler chose: a refusal, not a failure. text (the error's message,
// which may quote the params) only when withText.
func Answered(ctx context.Context, l *slog.Logger, msg string, withText bool, method, id string, code int, text string) {
	if withText {
		l.LogAttrs(ctx, slog.LevelDebug, msg, slog.String(Method, method), slog.String(ID, id), slog.Int(Code, code), slog.String(Error, text))
		return
	}
	l.LogAttrs(ctx, slog.LevelDebug, msg, slog.String(Method, method), slog.String(ID, id), slog.Int(Code, code))
}

// Unreadable writes, at debug level, a message that could not be read:
// its length and the code answered; the reason and an excerpt, which both
// quote the message, only when withText.
func Unreadable(ctx context.Context, l *slog.Logger, msg string, withText bool, code int, data []byte, reason string) {
	if withText {
		l.LogAttrs(ctx, slog.LevelDebug, msg, slog.Int(Code, code), slog.Int(Size, len(data)), slog.String(Error, reason), slog.String(Excerpt, Cut(data)))
		return
	}
	l.LogAttrs(ctx, slog.LevelDebug, msg, slog.Int(Code, code), slog.Int(Size, len(data)))
}

// Refused writes, at warn level, a request refused before its handler ran
// (busy, shutting down).
func Refused(ctx context.Context, l *slog.Logger, msg, method, id string, code int, text string) {
	l.LogAttrs(ctx, slog.LevelWarn, msg, slog.String(Method, method), slog.String(ID, id), slog.Int(Code, code), slog.String(Error, text))
}

// NoteRefused writes, at debug level, a notification answered inside with
// an error its handler chose (an unknown method, invalid params); text
// only when withText.
func NoteRefused(ctx context.Context, l *slog.Logger, msg string, withText bool, method string, code int, text string) {
	if withText {
		l.LogAttrs(ctx, slog.LevelDebug, msg, slog.String(Method, method), slog.Int(Code, code), slog.String(Error, text))
		return
	}
	l.LogAttrs(ctx, slog.LevelDebug, msg, slog.String(Method, method), slog.Int(Code, code))
}

// NoteFailed writes, at error level, a notification whose handler failed.
func NoteFailed(ctx context.Context, l *slog.Logger, msg, method string, err error) {
	l.LogAttrs(ctx, slog.LevelError, msg, slog.String(Method, method), slog.String(Error, err.Error()))
}
