package rpc

import (
	"encoding/json"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// Envelope holds the members of one JSON-RPC message that say what it is,
// as raw JSON (nil when absent).
//
// Envelope.Kind is the project's only message classifier: the connection
// (both its scanned fast path and its parsed slow path, so ParseFrame,
// rpcgen validate and rpcgen proxy too) and package mcp (its transports,
// its HTTP handler and its client links) all decide a message's kind
// with it. What the kind is worth is then each reader's affair: a
// connection also checks the envelope schemas, a link only routes.
type Envelope struct {
	// ID is the id member.
	ID json.RawMessage
	// Method is the method member.
	Method json.RawMessage
	// Params is the params member.
	Params json.RawMessage
	// Result is the result member.
	Result json.RawMessage
	// Error is the error member.
	Error json.RawMessage
}

// Kind classifies the message by the members it has, before any schema
// checks them: with a method it is a call (a request with an id, a
// notification without), else with a result or an error it is a
// response, else it is invalid.
func (e *Envelope) Kind() MessageKind {
	switch {
	case e.Method != nil && e.ID != nil:
		return KindRequest
	case e.Method != nil:
		return KindNotification
	case e.Result != nil || e.Error != nil:
		return KindResponse
	}
	return KindInvalid
}

// IsBatch reports whether the frame msg is a batch: a JSON array, '[' its
// first byte after whitespace. It is the one test of it, for the
// connection and for mcp's batch rule alike.
func IsBatch(msg []byte) bool {
	i := jsonscan.SkipSpace(msg, 0)
	return i < len(msg) && msg[i] == '['
}

// ReadEnvelope reads the envelope of msg, one message (not a batch). ok is
// false when msg is not one JSON object that the strict scanner
// (jsonscan.Strict, with the default nesting limit) accepts.
func ReadEnvelope(msg []byte) (e Envelope, ok bool) {
	return scanEnvelope(msg, DefaultMaxDepth, nil)
}

// scanEnvelope reads the envelope of msg while checking it as
// jsonscan.Strict does with maxDepth, in one pass over the text; ok is
// false when msg is not one JSON object the strict scanner accepts. When
// index is not nil, the same pass lists the params' members into it
// (Request.IndexedParams).
func scanEnvelope(msg []byte, maxDepth int, index *jsonscan.Index) (e Envelope, ok bool) {
	m, isObject := jsonscan.NewMembers(msg, maxDepth)
	if !isObject {
		return Envelope{}, false
	}
	if index != nil {
		m.Indexing("params", index)
	}
	if r := lastRecalled.Load(); r != nil {
		m.Knowing(r.raw, r.depth) // checked when it was remembered
	}
	for {
		k, _, v, more := m.Next()
		if !more {
			if m.Err() {
				return Envelope{}, false
			}
			return e, true
		}
		e.member(k, v)
	}
}

// envelopeOf reads the envelope of msg, a value the strict scanner has
// accepted; ok is false when it is not an object.
func envelopeOf(msg []byte) (e Envelope, ok bool) {
	o, isObject := jsonscan.NewObject(msg)
	if !isObject {
		return Envelope{}, false
	}
	for {
		k, v, more := o.Next()
		if !more {
			return e, !o.Err()
		}
		e.member(k, v)
	}
}

// member notes one member of a message, given its raw name and its value.
func (e *Envelope) member(name, value []byte) {
	switch {
	case jsonscan.NameIs(name, "id"):
		e.ID = value
	case jsonscan.NameIs(name, "method"):
		e.Method = value
	case jsonscan.NameIs(name, "params"):
		e.Params = value
	case jsonscan.NameIs(name, "result"):
		e.Result = value
	case jsonscan.NameIs(name, "error"):
		e.Error = value
	}
}
