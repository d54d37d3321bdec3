package gen

import "github.com/dave/jennifer/jen"

// How a generated UnmarshalJSON decodes the value of one member: the
// simple kinds (strings, enums, booleans, numbers, raw JSON, maps of raw
// JSON), the
// generated types whose own UnmarshalJSON checks its input, and pointers
// to and slices of those go through the rpc.Decode* helpers, which read
// them without building a decoder; every other type goes through
// rpc.DecodeJSON. Both give the same value and the same error. A member's
// value has been checked by the walk that hands it out, so raw JSON is
// copied without a second check (rpc.DecodeCheckedRaw) and a generated
// struct decodes it unchecked (rpc.DecodeUnmarshaler).

// memberDecode is the expression that decodes the member's bytes, value,
// into target, a field of type t, and yields the error.
func memberDecode(t typeRef, target jen.Code) jen.Code {
	value := jen.Id("value")
	if t.ptr {
		elem := t
		elem.ptr = false
		if fn := elemDecodeFunc(elem); fn != nil {
			return jen.Qual(rpcPath, "DecodePointer").Call(value, target, fn)
		}
	} else if t.kind == refSlice && !t.elem.ptr {
		if fn := elemDecodeFunc(*t.elem); fn != nil {
			return jen.Qual(rpcPath, "DecodeSlice").Call(value, target, fn)
		}
	} else if fn := decodeFunc(t, false); fn != nil {
		return jen.Add(fn).Call(value, target)
	}
	return jen.Qual(rpcPath, "DecodeJSON").Call(value, target)
}

// elemDecodeFunc is decodeFunc for the element of a pointer or a slice,
// where a union, which has no helper, is read by rpc.DecodeValue: the
// union's own UnmarshalJSON after DecodeJSON's check, without the decoder
// DecodeJSON would otherwise set up for the pointer or the whole slice.
func elemDecodeFunc(t typeRef) jen.Code {
	if fn := decodeFunc(t, true); fn != nil {
		return fn
	}
	if t.kind == refNamed && seeAlias(t).kind == refNamed && seeAlias(t).named.kind == namedUnion {
		return jen.Qual(rpcPath, "DecodeValue").Index(typeCode(t))
	}
	return nil
}

// decodeFunc names the rpc helper that decodes one value of t (not a
// pointer), or nil when t has none. typed writes the type argument out,
// for a helper passed as a function value rather than called.
func decodeFunc(t typeRef, typed bool) jen.Code {
	helper := decodeHelper(t)
	switch {
	case helper == "":
		return nil
	case helper == "DecodeCheckedRaw" || !typed:
		return jen.Qual(rpcPath, helper)
	}
	return jen.Qual(rpcPath, helper).Index(typeCode(t))
}

// decodeHelper is the name of the rpc helper that decodes one value of t
// (not a pointer), or "" when t has none.
func decodeHelper(t typeRef) string {
	switch t.kind {
	case refRaw:
		return "DecodeCheckedRaw"
	case refQual:
		if seeAlias(t).kind == refRaw { // json.RawMessage, named in the config
			return "DecodeCheckedRaw"
		}
	case refBasic:
		return basicDecoder(t.basic)
	case refMap:
		if isRawMap(t) {
			return "DecodeRawMap"
		}
	case refNamed:
		return namedDecoder(t.named)
	}
	return ""
}

// basicDecoder is the helper for a basic Go type.
func basicDecoder(basic string) string {
	switch basic {
	case "string":
		return "DecodeString"
	case "bool":
		return "DecodeBool"
	case "int64":
		return "DecodeInt"
	case "float64":
		return "DecodeFloat"
	}
	return ""
}

// namedDecoder is the helper for a generated type: the basic one for enums
// and types defined on a basic type or on a map of raw JSON (which have no
// methods of their own),
// DecodeUnmarshaler for the types whose UnmarshalJSON checks its whole
// input (structs that keep unknown members, tuples). Unions read their
// input without checking it, so they keep DecodeJSON, which checks it
// first; so do structs without an UnmarshalJSON and types defined on
// composite types.
func namedDecoder(nt *namedType) string {
	switch nt.kind {
	case namedEnum:
		return "DecodeString"
	case namedDefined:
		if nt.underlying.kind == refBasic && !nt.underlying.ptr {
			return basicDecoder(nt.underlying.basic)
		}
		if isRawMap(nt.underlying) {
			return "DecodeRawMap"
		}
	case namedAlias:
		u := nt.underlying
		switch {
		case u.ptr:
			return ""
		case u.kind == refBasic:
			return basicDecoder(u.basic)
		case isRawMap(u):
			return "DecodeRawMap"
		case u.kind == refNamed:
			return namedDecoder(u.named)
		}
	case namedStruct:
		if nt.extra != nil {
			return "DecodeUnmarshaler"
		}
	case namedTuple:
		return "DecodeUnmarshaler"
	}
	return ""
}

// isRawMap reports whether t is map[string]json.RawMessage.
func isRawMap(t typeRef) bool {
	return t.kind == refMap && !t.ptr && t.elem.kind == refRaw && !t.elem.ptr
}
