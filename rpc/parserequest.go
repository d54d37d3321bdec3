package rpc

// ParseRequest reads b as exactly one JSON-RPC request or notification, with
// the strict parser and envelope schemas a connection uses, for transports
// that take one message per exchange (an HTTP POST, say). It returns the
// request — its params already parsed for validation — or the error to
// answer with and the id to answer it under (a response's own id; null
// when unreadable): -32700
// when b is not one JSON text, -32600 for a batch, a response, or an object
// the request envelope rejects.
func ParseRequest(b []byte) (*Request, ID, *Error) {
	f, perr := ParseFrame(b)
	switch {
	case perr != nil:
		return nil, NullID(), perr
	case f.Batch:
		return nil, NullID(), InvalidRequest("a batch where one message was expected")
	}
	m := f.Messages[0]
	switch {
	case m.Request != nil:
		return m.Request, m.ID, nil
	case m.Response != nil:
		return nil, m.ID, InvalidRequest("a response where a request or notification was expected")
	case m.LooksLikeResponse:
		return nil, NullID(), InvalidRequest("a malformed response where a request or notification was expected")
	}
	return nil, m.ID, m.Invalid
}
