package mcp

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/internal/logx"
)

// A session's logger writes what the server's logger with the session's
// attributes added up front (slog.Logger.With) would, in its records and
// in the loggers made from it, though it adds them only as it logs.
func TestASessionLoggerWritesAsWithWould(t *testing.T) {
	untimed := &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 {
			return slog.Attr{}
		}
		return a
	}}
	for _, tc := range []struct {
		name          string
		transport, id string
		log           func(*slog.Logger)
	}{
		{"record", "http", "abc", func(l *slog.Logger) { l.Warn("m", "k", 1) }},
		{"transport only", "stdio", "", func(l *slog.Logger) { l.Info("m") }},
		{"id only", "", "abc", func(l *slog.Logger) { l.Info("m") }},
		{"with attributes", "http", "abc", func(l *slog.Logger) { l.With("a", "b").Info("m", "k", 2) }},
		{"in a group", "http", "abc", func(l *slog.Logger) { l.WithGroup("g").With("a", "b").Info("m", "k", 3) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want, got bytes.Buffer
			base := slog.New(slog.NewJSONHandler(&want, untimed))
			var args []any
			if tc.transport != "" {
				args = append(args, logx.Transport, tc.transport)
			}
			if tc.id != "" {
				args = append(args, logx.Session, tc.id)
			}
			tc.log(base.With(args...))
			l := sessionLogger(slog.New(slog.NewJSONHandler(&got, untimed)), tc.transport, tc.id)
			assert.IsType(t, sessionLogHandler{}, l.Handler(), "the attributes were added up front")
			tc.log(l)
			assert.Equal(t, want.String(), got.String())
		})
	}
}
