package mcp

import (
	"encoding/json"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// envelope holds the members of a message that say what it is.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method json.RawMessage `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// envelopeOf reads a message's envelope members in place; a message that
// is not strict JSON is decoded instead, for the decoder's error.
func envelopeOf(el []byte) (envelope, error) {
	if !jsonscan.Strict(el, rpc.DefaultMaxDepth) {
		var e envelope
		err := rpc.DecodeJSON(el, &e)
		return e, err
	}
	return envelopeOfStrict(el), nil
}

// envelopeOfStrict reads the envelope members of a message already known
// to be strict JSON.
func envelopeOfStrict(el []byte) envelope {
	var e envelope
	o, _ := jsonscan.NewObject(el)
	for {
		k, v, ok := o.Next()
		if !ok {
			return e
		}
		switch {
		case jsonscan.NameIs(k, "id"):
			e.ID = v
		case jsonscan.NameIs(k, "method"):
			e.Method = v
		case jsonscan.NameIs(k, "result"):
			e.Result = v
		case jsonscan.NameIs(k, "error"):
			e.Error = v
		}
	}
}
