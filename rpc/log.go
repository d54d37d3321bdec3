package rpc

import (
	"context"
	"errors"
	"log/slog"

	"github.com/schemarpc/schemarpc/internal/logx"
)

// WithLogger sets where the runtime logs. Without it, warnings and errors
// go to [slog.Default] (standard error, unless the program changed it), so
// that the cause of a -32603 is never lost; slog.New(slog.DiscardHandler)
// silences the runtime. The package doc ("Logs") lists what is logged at
// which level under which keys. Params, results and the bytes of messages are never logged unless
// [WithLogParams] asks for them.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.logger = l
		}
	}
}

// WithLogParams adds, at debug level, the params of every request and
// notification received (and the excerpt of a message that cannot be
// read, and the reason of each error answer), cut after 1 KiB with a note
// of the whole length. Off by default: params may hold secrets. For
// development.
func WithLogParams(on bool) Option { return func(o *options) { o.logParams = on } }

// withTransportName names the transport in every log line ("transport"),
// unless an earlier option named it.
func withTransportName(name string) Option {
	return func(o *options) {
		if o.transport == "" {
			o.transport = name
		}
	}
}

// transportName names the transports of this package for the logs; ""
// leaves the key out.
func transportName(t Transport) string {
	switch t.(type) {
	case *StreamTransport:
		return "stream"
	case *WebSocketTransport:
		return "websocket"
	case *pipeEnd:
		return "pipe"
	}
	return ""
}

// debugOn reports whether debug lines are wanted: every per-message line
// checks it before it builds a single attribute.
func (e *engine) debugOn(ctx context.Context) bool {
	return e.log.Enabled(ctx, slog.LevelDebug)
}

// received logs a request or notification that arrived, at debug level.
func (e *engine) received(ctx context.Context, req *Request) {
	if !e.debugOn(ctx) {
		return
	}
	switch {
	case req.IsNotification() && e.logParams:
		e.log.LogAttrs(ctx, slog.LevelDebug, "jsonrpc: notification received",
			slog.String(logx.Method, req.Method), slog.String(logx.Params, logx.Cut(req.Params)))
	case req.IsNotification():
		e.log.LogAttrs(ctx, slog.LevelDebug, "jsonrpc: notification received", slog.String(logx.Method, req.Method))
	case e.logParams:
		e.log.LogAttrs(ctx, slog.LevelDebug, "jsonrpc: request received",
			slog.String(logx.Method, req.Method), slog.String(logx.ID, req.ID.String()), slog.String(logx.Params, logx.Cut(req.Params)))
	default:
		e.log.LogAttrs(ctx, slog.LevelDebug, "jsonrpc: request received",
			slog.String(logx.Method, req.Method), slog.String(logx.ID, req.ID.String()))
	}
}

// receivedResponse logs a response from the peer, at debug level.
func (e *engine) receivedResponse(ctx context.Context, r *Response) {
	if !e.debugOn(ctx) {
		return
	}
	if r.Error != nil {
		e.log.LogAttrs(ctx, slog.LevelDebug, "jsonrpc: response received",
			slog.String(logx.ID, r.ID.String()), slog.Int(logx.Code, r.Error.Code))
		return
	}
	e.log.LogAttrs(ctx, slog.LevelDebug, "jsonrpc: response received", slog.String(logx.ID, r.ID.String()))
}

// answeredError logs, at debug level, a request answered with an error
// its handler chose (an *Error): the peer's mistake or a refusal, not a
// failure. The message, which may quote the params, only under
// WithLogParams.
func (e *engine) answeredError(ctx context.Context, req *Request, werr *Error) {
	if e.debugOn(ctx) {
		logx.Answered(ctx, e.log, "jsonrpc: request answered with an error", e.logParams, req.Method, req.ID.String(), werr.Code, werr.Message)
	}
}

// refused logs at warn a request refused before its handler ran (busy,
// shutting down).
func (e *engine) refused(ctx context.Context, req *Request, werr *Error) {
	logx.Refused(ctx, e.log, "jsonrpc: request refused", req.Method, req.ID.String(), werr.Code, werr.Message)
}

// unreadable logs, at debug level, a message that is not JSON or not
// JSON-RPC: its length and the code answered; the reason and an excerpt
// only under WithLogParams, since both quote the message.
func (e *engine) unreadable(ctx context.Context, msg []byte, perr *Error) {
	if e.debugOn(ctx) {
		logx.Unreadable(ctx, e.log, "jsonrpc: unreadable message", e.logParams, perr.Code, msg, perr.Message)
	}
}

// invalidRequest logs at warn a message that is JSON but no valid
// JSON-RPC request: the peer broke the protocol. The reason, which may
// quote the message, only under WithLogParams.
func (e *engine) invalidRequest(ctx context.Context, id ID, werr *Error) {
	e.peerViolation(ctx, "jsonrpc: invalid request answered with an error", id, werr)
}

// malformedResponse logs at warn a response of the peer that is not
// valid JSON-RPC; it is dropped.
func (e *engine) malformedResponse(ctx context.Context, id ID, werr *Error) {
	e.peerViolation(ctx, "jsonrpc: malformed response dropped", id, werr)
}

func (e *engine) peerViolation(ctx context.Context, msg string, id ID, werr *Error) {
	if !e.log.Enabled(ctx, slog.LevelWarn) {
		return
	}
	if e.logParams {
		e.log.LogAttrs(ctx, slog.LevelWarn, msg,
			slog.String(logx.ID, id.String()), slog.Int(logx.Code, werr.Code), slog.String(logx.Error, werr.Message))
		return
	}
	e.log.LogAttrs(ctx, slog.LevelWarn, msg, slog.String(logx.ID, id.String()), slog.Int(logx.Code, werr.Code))
}

// noteFailed logs a notification whose handler returned an error: at
// debug an *Error (an unknown method, invalid params: the peer's
// mistake), at error any other failure.
func (e *engine) noteFailed(ctx context.Context, req *Request, err error) {
	if errors.Is(err, ErrNoResponse) {
		return
	}
	var werr *Error
	if !errors.As(err, &werr) {
		logx.NoteFailed(ctx, e.log, "jsonrpc: notification handler failed", req.Method, err)
		return
	}
	if e.debugOn(ctx) {
		logx.NoteRefused(ctx, e.log, "jsonrpc: notification refused", e.logParams, req.Method, werr.Code, werr.Message)
	}
}
