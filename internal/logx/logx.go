// Package logx holds what the rpc and mcp packages share to log: the one
// vocabulary of attribute keys, the bounded excerpt of message bytes an
// operator may ask for, and a way to add attributes to a logger that
// costs nothing when the logger discards everything.
package logx

import (
	"log/slog"
	"strconv"
	"unicode/utf8"
)

// The attribute keys of every log line of rpc and mcp. A line about a
// message names it with Method and ID; a line about a failure carries Code
// (the JSON-RPC code the peer got or sent) and Error (the Go error, which
// may hold details the peer never sees).
const (
	Method    = "method"    // the JSON-RPC method
	ID        = "id"        // the request id, as JSON text ("7", "\"a\"")
	Code      = "code"      // the JSON-RPC error code
	Error     = "error"     // the error's text
	Params    = "params"    // the bounded params excerpt, only when asked for
	Transport = "transport" // stdio, stream, http, websocket, pipe
	Session   = "session"   // the MCP session id (Streamable HTTP)
	Version   = "version"   // the MCP protocol version
	Size      = "bytes"     // the length of a message that is not logged
	Excerpt   = "excerpt"   // the bounded excerpt of a message, only when asked for
	Status    = "status"    // an HTTP status
	Tool      = "tool"      // the MCP tool name
)

// MaxExcerpt bounds the bytes of a message Cut keeps: 1 KiB.
const MaxExcerpt = 1 << 10

// Cut returns b as text, cut after MaxExcerpt bytes (at a UTF-8
// boundary) with a note of the whole length when it is longer.
func Cut(b []byte) string {
	if len(b) <= MaxExcerpt {
		return string(b)
	}
	cut := MaxExcerpt
	for cut > MaxExcerpt-utf8.UTFMax && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…(truncated; " + strconv.Itoa(len(b)) + " bytes in all)"
}

// With returns l with the attributes args added, or l itself when it
// discards every record, so that a logger nobody configured costs no
// allocation.
func With(l *slog.Logger, args ...any) *slog.Logger {
	if Discards(l) {
		return l
	}
	return l.With(args...)
}

// Discards reports whether l drops every record without looking at it.
func Discards(l *slog.Logger) bool {
	return l == nil || l.Handler() == slog.DiscardHandler
}
