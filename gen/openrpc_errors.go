package gen

import (
	"fmt"
	"strconv"
	"strings"
)

// predefinedCodes are the error codes JSON-RPC 2.0 gives a meaning.
var predefinedCodes = map[int64]bool{-32700: true, -32600: true, -32601: true, -32602: true, -32603: true}

// checkErrorCode applies the JSON-RPC 2.0 reservation of -32768…-32000 to
// a code an OpenRPC document declares. Documents list the errors a method
// may answer with, so three kinds pass:
//   - application codes, outside the reserved range;
//   - -32099…-32000, which JSON-RPC leaves to implementations as server
//     errors, and which real APIs use for their own errors;
//   - the five predefined codes (-32700, -32600…-32603), which a document
//     may list to say when a method answers with them.
//
// The rest of the range is reserved with no meaning yet, so a declared
// error there would clash with a future revision of JSON-RPC: refused.
func checkErrorCode(code int64) error {
	switch {
	case code < -32768 || code > -32000, code >= -32099, predefinedCodes[code]:
		return nil
	}
	return fmt.Errorf("code %d is reserved by JSON-RPC 2.0 (-32768…-32100 other than -32700 and -32600…-32603): use an application code outside -32768…-32000, or a server error in -32099…-32000", code)
}

// declaredError reads the Error Object at `at`, once. Errors that agree on
// code and message are one error wherever they are declared. Its Go name
// comes from the components/errors key it is declared under, or else from
// its message; a trailing "Error" is dropped (NotFoundError → NotFound,
// giving CodeNotFound and NewNotFoundError).
func (r *openrpcReader) declaredError(n *node, at loc) *rpcError {
	key := at.String()
	if e, seen := r.errorsAt[key]; seen {
		return e
	}
	r.errorsAt[key] = nil
	if n.kind != kindObject {
		r.p.add(at, "an error must be an object, not %s", n.kind)
		return nil
	}
	before := len(r.p.list)
	checkKeys(r.c.l, n, at, openrpcErrorKeys, "an error")
	var v errorValue
	switch code := n.get("code"); {
	case code == nil:
		r.p.add(at, "an error needs a code")
	default:
		c, isInt := code.int64()
		if !isInt {
			r.p.add(at.at("code"), "code must be an integer, not %s", describe(code))
		} else if err := checkErrorCode(c); err != nil {
			r.p.add(at.at("code"), "%v", err)
		}
		v.code = c
	}
	switch msg := n.get("message"); {
	case msg == nil:
		r.p.add(at, "an error needs a message")
	case msg.kind != kindString:
		r.p.add(at.at("message"), "message must be a string, not %s", msg.kind)
	default:
		v.message = msg.str
	}
	if len(r.p.list) > before {
		return nil
	}
	if e, same := r.errorsByValue[v]; same {
		r.errorsAt[key] = e
		return e
	}
	e := &rpcError{code: v.code, message: v.message, origin: at}
	from := v.message
	if container, entry, ok := splitDefPointer(at.ptr); ok && container == "/components/errors" {
		from = entry
	}
	e.name = r.errorName(from, at)
	if e.name == "" {
		r.p.add(at, "the error's message %q gives no Go name: declare it under components/errors, whose key names it, or name it in the config's renames", v.message)
		return nil
	}
	if r.errorNameTaken(e.name) {
		// Another error's message gives the same name (messages that
		// differ in case, one message with several codes): the code
		// tells them apart, deterministically.
		e.name += codeSuffix(v.code)
	}
	if !r.c.claim("Code"+e.name, at) || !r.c.claim("New"+e.name+"Error", at) {
		return nil
	}
	r.errorsAt[key] = e
	r.errorsByValue[v] = e
	r.errors = append(r.errors, e)
	return e
}

// errorNameTaken reports whether an error declared before has the Go stem.
func (r *openrpcReader) errorNameTaken(name string) bool {
	for _, e := range r.errors {
		if e.name == name {
			return true
		}
	}
	return false
}

// codeSuffix writes an error code as a Go name part: 32001 for 32001 and
// for -32001 alike (Go names have no minus sign).
func codeSuffix(code int64) string {
	if code < 0 {
		code = -code
	}
	return strconv.FormatInt(code, 10)
}

// errorName is the Go stem of an error: the name made from s without a
// trailing "Error", or the config's rename of it (by the error's location
// or by that name).
func (r *openrpcReader) errorName(s string, at loc) string {
	name := r.c.exportedName(s)
	if trimmed := strings.TrimSuffix(name, "Error"); trimmed != "" && trimmed != "X" {
		name = trimmed
	}
	return r.c.rename(name, at)
}

// methodErrors reads a method's errors: Error Objects or references to
// them. OpenRPC requires distinct codes within one method, which is also
// what lets a client tell the errors apart.
func (r *openrpcReader) methodErrors(m *method, list *node, at loc) {
	if list.kind != kindArray {
		r.p.add(at, "errors must be a list, not %s", list.kind)
		return
	}
	byCode := map[int64]loc{}
	for i, item := range list.items {
		eat := at.at(fmt.Sprint(i))
		n, target, ok := r.deref(item, eat)
		if !ok {
			continue
		}
		e := r.declaredError(n, target)
		if e == nil {
			continue
		}
		if prev, dup := byCode[e.code]; dup {
			if !containsError(m.errors, e) {
				r.p.add(eat, "code %d is already declared for this method at %s: the errors of a method need distinct codes", e.code, prev)
			}
			continue
		}
		byCode[e.code] = eat
		m.errors = append(m.errors, e)
	}
}

func containsError(list []*rpcError, e *rpcError) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}
