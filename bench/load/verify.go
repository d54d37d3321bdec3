package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// maxQuoted bounds how much of a bad message an error quotes.
const maxQuoted = 400

// ReplyError says why a server's message is not the reply the driver
// expected, and quotes the message.
type ReplyError struct {
	// Reason says what is wrong.
	Reason string
	// Message is the offending message, cut to a few hundred bytes.
	Message string
}

func (e *ReplyError) Error() string {
	return fmt.Sprintf("%s; message: %s", e.Reason, e.Message)
}

func replyErrorf(msg []byte, format string, args ...any) *ReplyError {
	return &ReplyError{Reason: fmt.Sprintf(format, args...), Message: quote(msg)}
}

func quote(msg []byte) string {
	msg = bytes.TrimSpace(msg)
	if len(msg) > maxQuoted {
		return string(msg[:maxQuoted]) + "…"
	}
	return string(msg)
}

// reply is the part of a server message the driver reads.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		ProtocolVersion   string          `json:"protocolVersion"`
	} `json:"result"`
	Error *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	raw []byte
}

// parseReply decodes one server message.
func parseReply(msg []byte) (*reply, error) {
	var r reply
	if err := json.Unmarshal(msg, &r); err != nil {
		return nil, replyErrorf(msg, "not a JSON-RPC message: %v", err)
	}
	r.raw = msg
	return &r, nil
}

// isNotification reports whether the message is a server notification,
// which the driver skips.
func (r *reply) isNotification() bool { return r.Method != "" && r.ID == nil }

// intID returns the reply's id as the integer the driver sent, or an error
// when the server sent an id of another shape.
func (r *reply) intID() (int64, error) {
	if r.Method != "" {
		return 0, replyErrorf(r.raw, "the server sent a request (%q) where a response was expected", r.Method)
	}
	if r.ID == nil {
		return 0, replyErrorf(r.raw, "response without an id")
	}
	id, err := strconv.ParseInt(string(r.ID), 10, 64)
	if err != nil {
		return 0, replyErrorf(r.raw, "response id %s is not the integer the driver sent", r.ID)
	}
	return id, nil
}

// checkEnvelope checks the parts every successful response shares: version
// tag, id, and a result rather than an error.
func (r *reply) checkEnvelope(id int64) error {
	got, err := r.intID()
	if err != nil {
		return err
	}
	if got != id {
		return replyErrorf(r.raw, "response id %d, want %d", got, id)
	}
	if r.JSONRPC != "2.0" {
		return replyErrorf(r.raw, "jsonrpc is %q, want \"2.0\"", r.JSONRPC)
	}
	if r.Error != nil {
		return replyErrorf(r.raw, "error reply %d %q", r.Error.Code, r.Error.Message)
	}
	if r.Result == nil {
		return replyErrorf(r.raw, "response has neither result nor error")
	}
	return nil
}

// checkCall checks that r is the successful reply to request id carrying c.
func (r *reply) checkCall(id int64, c Call) error {
	if err := r.checkEnvelope(id); err != nil {
		return err
	}
	res := r.Result
	if res.IsError {
		return replyErrorf(r.raw, "%s returned a tool error (isError)", c.Tool)
	}
	if len(res.Content) != 1 {
		return replyErrorf(r.raw, "%s returned %d content blocks, want 1", c.Tool, len(res.Content))
	}
	if res.Content[0].Type != "text" {
		return replyErrorf(r.raw, "%s returned content of type %q, want \"text\"", c.Tool, res.Content[0].Type)
	}
	if want := c.ExpectedText(); res.Content[0].Text != want {
		return replyErrorf(r.raw, "%s returned text %q, want %q", c.Tool, res.Content[0].Text, want)
	}
	if c.Tool == ToolAdd && len(res.StructuredContent) > 0 && !bytes.Equal(res.StructuredContent, []byte("null")) {
		var sc struct {
			Sum *float64 `json:"sum"`
		}
		if err := json.Unmarshal(res.StructuredContent, &sc); err != nil || sc.Sum == nil {
			return replyErrorf(r.raw, "add returned structuredContent without a numeric sum")
		}
		if *sc.Sum != c.Sum() {
			return replyErrorf(r.raw, "add returned structuredContent sum %v, want %v", *sc.Sum, c.Sum())
		}
	}
	return nil
}

// checkInitialize checks the reply to the handshake's initialize: the server
// must accept 2025-11-25, since the driver speaks nothing older.
func (r *reply) checkInitialize() error {
	if err := r.checkEnvelope(initializeID); err != nil {
		return err
	}
	if r.Result.ProtocolVersion != Protocol20251125 {
		return replyErrorf(r.raw, "initialize negotiated protocol %q, want %q", r.Result.ProtocolVersion, Protocol20251125)
	}
	return nil
}

// verifyCall decodes msg and checks that it is the successful reply to
// request id carrying c.
func verifyCall(msg []byte, id int64, c Call) error {
	r, err := parseReply(msg)
	if err != nil {
		return err
	}
	return r.checkCall(id, c)
}

// errNoReply reports a stream that ended before the response arrived.
var errNoReply = errors.New("the stream ended before the response")
