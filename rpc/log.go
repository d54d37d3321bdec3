package rpc

import "log/slog"

// WithLogger sets where the runtime logs: handler failures and panics (with
// their details, which never reach the peer) at error level, dropped
// messages at warn, unparsable input at debug. The default discards logs.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.logger = l
		}
	}
}
