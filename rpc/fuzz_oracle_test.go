package rpc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/schemarpc/schemarpc/rpc"
)

// This file holds the oracles the fuzz targets compare the runtime with.
// They are written independently of the runtime's parser: encoding/json
// and unicode/utf8 decide what JSON is, and the few rules the project adds
// on top (RFC 7493, I-JSON) are checked here by separate, simple code.

// acceptable reports whether b is one JSON text under the project's strict
// policy, with maxDepth the nesting limit: encoding/json must find it valid,
// and besides, the bytes must be valid UTF-8 (encoding/json replaces bad
// bytes with U+FFFD instead), no escape may leave a lone surrogate
// (encoding/json replaces it too), no object may repeat a member name
// (encoding/json keeps the last), and arrays and objects may nest at most
// maxDepth deep (encoding/json allows 10,000).
func acceptable(b []byte, maxDepth int) bool {
	if !json.Valid(b) || !utf8.Valid(b) || hasLoneSurrogate(b) {
		return false
	}
	depth, dup := shape(b)
	return !dup && depth <= maxDepth
}

// hasLoneSurrogate reports whether a \u escape of the valid JSON text b is a
// surrogate that is not one half of a high-low pair. In valid JSON a
// backslash appears only inside strings, so no string tracking is needed.
func hasLoneSurrogate(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if b[i+1] != 'u' {
			i++ // a two-byte escape such as \\ or \"
			continue
		}
		r := hex4(b[i+2 : i+6])
		i += 5
		switch {
		case utf16.IsSurrogate(r) && r < 0xDC00: // a high half: a low half must follow
			if i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
				if lo := hex4(b[i+3 : i+7]); lo >= 0xDC00 && lo <= 0xDFFF {
					i += 6
					continue
				}
			}
			return true
		case utf16.IsSurrogate(r): // a low half on its own
			return true
		}
	}
	return false
}

func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b), 16, 16)
	return rune(n)
}

// shape walks the valid JSON text b with encoding/json's tokenizer and
// returns its nesting depth and whether any object repeats a member name
// (names compared after unescaping, as RFC 8259 compares them).
func shape(b []byte) (depth int, dup bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	type level struct {
		object bool
		names  map[string]bool
		key    bool // the next token of an object is a member name
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return depth, dup
		}
		if err != nil {
			return depth, dup // cannot happen for valid JSON
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			name := tok.(string)
			if top.names[name] {
				dup = true
			}
			top.names[name] = true
			top.key = false
			continue
		}
		if top != nil && top.object {
			top.key = true // a value: the next token is a name or '}'
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &level{object: true, names: map[string]bool{}, key: true})
		case json.Delim('['):
			stack = append(stack, &level{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			continue
		default:
			continue
		}
		depth = max(depth, len(stack))
	}
}

// jsonType names the JSON type of a raw value by its first byte.
func jsonType(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "absent"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	}
	return "number"
}

// expectation is what the oracle says one message of a frame is.
type expectation struct {
	kind rpc.MessageKind
	// responseLike is set for an invalid message that has "result" or
	// "error" and no "method": nobody answers it.
	responseLike bool
	// maybeResponse is set when the oracle cannot tell a response from
	// a malformed one (the error code is an integer JSON Schema accepts
	// but a Go int may not hold, such as 1.0 or 1e400).
	maybeResponse bool
	// id is the raw id an answer carries: the message's own when it is a
	// string, number or null, else null.
	id string
	// method and params are a call's.
	method string
	params json.RawMessage
}

// classifyMessage is the oracle's classification of one acceptable message,
// from the envelope rules of JSON-RPC 2.0 as the project's schemas state
// them (schema/jsonrpc): no member beyond the envelope's, "jsonrpc" exactly
// "2.0", a string method, params an object or array, an id a string, number
// or null, and an error object of an integer code, a string message and
// optional data.
func classifyMessage(raw json.RawMessage) expectation {
	if jsonType(raw) != "object" {
		return expectation{kind: rpc.KindInvalid, id: "null"}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		panic(err) // the caller passes acceptable JSON only
	}
	exp := expectation{kind: rpc.KindInvalid, id: "null"}
	id, hasID := m["id"]
	if t := jsonType(id); t == "string" || t == "number" || t == "null" {
		exp.id = string(id)
	}
	only := func(names ...string) bool {
		for k := range m {
			if !slices.Contains(names, k) {
				return false
			}
		}
		return true
	}
	var version string
	versionOK := json.Unmarshal(m["jsonrpc"], &version) == nil && version == "2.0" && jsonType(m["jsonrpc"]) == "string"
	idOK := !hasID || exp.id == string(id)
	_, hasMethod := m["method"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	switch {
	case hasMethod:
		pt := jsonType(m["params"])
		if only("jsonrpc", "method", "params", "id") && versionOK && jsonType(m["method"]) == "string" &&
			(pt == "absent" || pt == "object" || pt == "array") && idOK {
			exp.kind = rpc.KindNotification
			if hasID {
				exp.kind = rpc.KindRequest
			}
			json.Unmarshal(m["method"], &exp.method)
			exp.params = m["params"]
		}
	case hasError:
		exp.responseLike = true
		if only("jsonrpc", "error", "id") && versionOK && hasID && idOK {
			switch errorObject(m["error"]) {
			case "valid":
				exp.kind = rpc.KindResponse
			case "maybe":
				exp.maybeResponse = true
			}
		}
	case hasResult:
		exp.responseLike = true
		if only("jsonrpc", "result", "id") && versionOK && hasID && idOK {
			exp.kind = rpc.KindResponse
		}
	}
	return exp
}

// errorObject checks a JSON-RPC error object: "valid", "invalid", or
// "maybe" when the code is an integer by JSON Schema's rule (a number with
// no fraction, such as 2.0 or 1e3) that is not a plain decimal a Go int
// holds.
func errorObject(raw json.RawMessage) string {
	if jsonType(raw) != "object" {
		return "invalid"
	}
	var m map[string]json.RawMessage
	json.Unmarshal(raw, &m)
	for k := range m {
		if k != "code" && k != "message" && k != "data" {
			return "invalid"
		}
	}
	if jsonType(m["message"]) != "string" || jsonType(m["code"]) != "number" {
		return "invalid"
	}
	if _, err := strconv.Atoi(string(m["code"])); err == nil {
		return "valid"
	}
	return "maybe"
}

// frameItems splits an acceptable frame into its messages: the elements of
// a batch, or the one message. batch reports which it was.
func frameItems(b []byte) (items []json.RawMessage, batch bool) {
	b = bytes.Trim(b, " \t\r\n")
	if len(b) > 0 && b[0] == '[' {
		if err := json.Unmarshal(b, &items); err != nil {
			panic(err)
		}
		return items, true
	}
	return []json.RawMessage{b}, false
}
