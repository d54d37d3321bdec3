package rpc

import (
	"bytes"

	"github.com/schemarpc/schemarpc/internal/fastschema"
	"github.com/schemarpc/schemarpc/internal/jsondecode"
	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// The fast path of reading a message: the scanner checks the syntax, the
// compiled validators (internal/fastschema) check the envelope and the
// params straight from the bytes, and no tree is built. Whenever a fast
// validator cannot say "valid" — the message is wrong, or the schema uses
// a keyword the fast path does not model — the message takes the tree
// path, where the jsonschema library decides and explains. So the fast
// path changes what a message costs, never what it gets.

// fastPath switches the fast path on; the differential tests turn it off
// to get the slow path's answers.
var fastPath = true

// validFast reports whether the fast validator of s accepts the JSON text
// data. false means "not known to be valid": the caller validates the slow
// way, which also explains any failure. A nil schema accepts anything.
func validFast(s *Schema, data []byte) bool {
	return checkFast(s, data, (*fastschema.Validator).Check)
}

// validScanned is validFast for a text the strict scanner has accepted
// (fastschema.Validator.CheckWellFormed): a message the parser read, or
// the params of one.
func validScanned(s *Schema, data []byte) bool {
	return checkFast(s, data, (*fastschema.Validator).CheckWellFormed)
}

// validScannedKnowing is validScanned for a message whose member value
// known (a slice of data; nil: none) the reader has found already, so that
// the check steps over it without scanning it again
// (fastschema.Validator.CheckWellFormedKnowing).
func validScannedKnowing(s *Schema, data, known []byte) bool {
	if known == nil {
		return validScanned(s, data)
	}
	start := cap(data) - cap(known) // known's capacity runs to the end of data's
	return checkFast(s, data, func(v *fastschema.Validator, data []byte) fastschema.Verdict {
		return v.CheckWellFormedKnowing(data, start, start+len(known))
	})
}

// validScannedRecurring is validScanned for params in which the value at
// data[start:end] recurs from request to request (Request.MarkRecurring,
// fastschema.Validator.CheckWellFormedRecurring).
func validScannedRecurring(s *Schema, data []byte, start, end int) bool {
	return checkFast(s, data, func(v *fastschema.Validator, data []byte) fastschema.Verdict {
		return v.CheckWellFormedRecurring(data, start, end)
	})
}

// checkFast is validFast with check as the fast validator's check.
func checkFast(s *Schema, data []byte, check func(*fastschema.Validator, []byte) fastschema.Verdict) bool {
	if !fastPath {
		return false
	}
	if s == nil {
		return true
	}
	v := s.fast()
	return v != nil && check(v, data) == fastschema.Valid
}

// classifyScanned classifies one message that the strict scanner accepted, using
// only the fast envelope validators. ok is false when they cannot vouch
// for the message; the caller then classifies it the slow way. A request
// is kept in into when it is not nil, else in one of its own.
func classifyScanned(msg []byte, into *Request) (it inbound, ok bool) {
	e, isObject := envelopeOf(msg)
	if !isObject {
		return inbound{}, false
	}
	return classifyEnvelope(msg, e, into)
}

// classifyEnvelope is classifyScanned for a message whose envelope e has
// been read (its members are slices of msg).
func classifyEnvelope(msg []byte, e Envelope, into *Request) (it inbound, ok bool) {
	env := envelopeSchemas()
	switch kind := e.Kind(); {
	case kind == KindRequest || kind == KindNotification:
		sch := env.notification
		if kind == KindRequest {
			sch = env.request
		}
		if !validScannedKnowing(sch, msg, e.Params) {
			return inbound{}, false
		}
		name, isString := methodName(e.Method)
		if !isString {
			return inbound{}, false
		}
		req := into
		if req == nil {
			req = new(Request)
		}
		*req = Request{Method: name, Params: e.Params, scanned: e.Params}
		if kind == KindRequest {
			req.ID = ID{raw: string(e.ID)}
		}
		return inbound{req: req}, true
	case kind == KindResponse && e.Error == nil:
		if !validScannedKnowing(env.response, msg, e.Result) {
			return inbound{}, false
		}
		return inbound{resp: &Response{ID: ID{raw: string(e.ID)}, Result: e.Result}}, true
	}
	return inbound{}, false
}

// methodName decodes the method member of a scanned message, a name from
// the table of repeated strings (jsondecode.Intern) when it has no escapes, as
// almost every method name is; ok is false when it is not a string.
func methodName(value []byte) (string, bool) {
	if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' && bytes.IndexByte(value, '\\') < 0 {
		return jsondecode.Intern(value[1 : len(value)-1]), true
	}
	return jsonscan.String(value)
}
