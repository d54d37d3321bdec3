package rpc

import (
	"io"
	"log/slog"
)

type loggerOption struct{ l *slog.Logger }

func (o loggerOption) get() *slog.Logger {
	if o.l == nil {
		return discardLogger
	}
	return o.l
}

var discardLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

// WithLogger sets where the runtime logs: handler failures and panics (with
// their details, which never reach the peer) at error level, dropped
// messages at warn, unparsable input at debug. The default discards logs.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger.l = l } }
