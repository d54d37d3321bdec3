package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// The request headers a 2026-07-28 Streamable HTTP client mirrors from the
// body (SEP-2243), so that proxies and gateways can route on them without
// reading it. The server checks every mirror against the body: a request
// whose headers say one thing while its body says another is refused.
const (
	// HeaderMethod mirrors the JSON-RPC method of the request.
	HeaderMethod = "Mcp-Method"
	// HeaderName mirrors params.name of tools/call and prompts/get, and
	// params.uri of resources/read.
	HeaderName = "Mcp-Name"
	// HeaderParamPrefix starts the header mirroring a tool argument whose
	// input-schema property carries x-mcp-header: Mcp-Param-<value>.
	HeaderParamPrefix = "Mcp-Param-"
)

// The wrapper of a header value that cannot travel as plain visible ASCII:
// =?base64?<standard base64 of its UTF-8 bytes>?= (markers case-sensitive).
const (
	b64Open  = "=?base64?"
	b64Close = "?="
)

// decodeHeaderValue returns the text a mirrored header value stands for. A
// value that is wholly the base64 wrapper is decoded, and fails when the
// payload is not padded standard base64 or not UTF-8; any other value is
// taken literally, without the spaces and tabs around it.
func decodeHeaderValue(v string) (string, error) {
	v = strings.Trim(v, " \t")
	if len(v) < len(b64Open)+len(b64Close) || !strings.HasPrefix(v, b64Open) || !strings.HasSuffix(v, b64Close) {
		return v, nil
	}
	payload := v[len(b64Open) : len(v)-len(b64Close)]
	b, err := base64.StdEncoding.Strict().DecodeString(payload)
	if err != nil {
		return "", fmt.Errorf("the base64 value is malformed: %w", err)
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("the base64 value is not UTF-8 text")
	}
	return string(b), nil
}

// encodeHeaderValue returns how a client sends text as a mirrored header
// value: as is when it is visible ASCII (inner spaces allowed), does not
// start or end with a space and cannot be mistaken for the wrapper;
// otherwise in the base64 wrapper. The empty string is wrapped too, since
// an empty header is easily lost on the way.
func encodeHeaderValue(v string) string {
	plain := v != "" && v[0] != ' ' && v[len(v)-1] != ' ' && !strings.HasPrefix(v, "=?")
	for i := 0; plain && i < len(v); i++ {
		plain = v[i] >= 0x20 && v[i] <= 0x7e
	}
	if plain {
		return v
	}
	return b64Open + base64.StdEncoding.EncodeToString([]byte(v)) + b64Close
}

// headerParam is one x-mcp-header annotation of a tool's input schema: the
// argument at Path (Property is the same path joined with dots, for
// messages) is mirrored in the header Mcp-Param-<Header>.
type headerParam struct {
	Header   string
	Property string
	Type     string // "string", "integer" or "boolean"
	Path     []string
}

// Keywords of JSON Schema 2020-12 (and draft-07, for schemas written to
// it) whose values are schemas, by shape. An x-mcp-header found under any
// of them but properties is not reachable through properties alone.
var (
	schemaMapKeywords = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	schemaOneKeywords = []string{"items", "additionalItems", "additionalProperties", "unevaluatedProperties",
		"unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else", "contentSchema"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// headerParams collects the x-mcp-header annotations of a tool's input
// schema and checks the protocol's rules for them: the value is a
// non-empty HTTP token (RFC 9110), unique within the tool regardless of
// case, on a property of type string, integer or boolean, reached from the
// root through properties alone (not through items, a combinator, a
// condition or a $ref). The error names the offending property.
func headerParams(inputSchema json.RawMessage) ([]headerParam, error) {
	if len(inputSchema) == 0 {
		return nil, nil
	}
	var root any
	dec := json.NewDecoder(bytes.NewReader(inputSchema))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("inputSchema is not JSON: %w", err)
	}
	return headerParamsOf(root)
}

// mayCarryHeaders reports whether the text of an input schema can hold an
// x-mcp-header member: the name is spelled out in it, or the text has an
// escape (a member name may be written with escapes). Most schemas carry
// none, and a server does not walk those (headerParamsOf).
func mayCarryHeaders(inputSchema []byte) bool {
	return bytes.Contains(inputSchema, []byte("x-mcp-header")) || bytes.IndexByte(inputSchema, '\\') >= 0
}

// headerParamsOf is headerParams of an input schema already decoded (with
// json.Number for numbers), as a server has it once it compiled the schema.
func headerParamsOf(root any) ([]headerParam, error) {
	w := headerWalk{seen: map[string]string{}}
	w.schema(root, nil, "", true)
	return w.params, w.err
}

// headerWalk is the state of one headerParams walk.
type headerWalk struct {
	params []headerParam
	seen   map[string]string // lower-case header → property
	err    error
}

// schema visits one subschema: path is its property path when it is
// reached through properties alone (onPath), loc its location in the
// schema document as a JSON pointer.
func (w *headerWalk) schema(node any, path []string, loc string, onPath bool) {
	obj, ok := node.(map[string]any)
	if !ok || w.err != nil {
		return
	}
	if v, ok := obj["x-mcp-header"]; ok {
		w.annotation(obj, v, path, loc, onPath)
	}
	for _, kw := range schemaMapKeywords {
		m, ok := obj[kw].(map[string]any)
		if !ok {
			continue
		}
		for _, name := range schemaKeysSorted(m) {
			sub := slices.Concat(path, []string{name})
			w.schema(m[name], sub, loc+"/"+schemaPointerToken(kw)+"/"+schemaPointerToken(name), onPath && kw == "properties")
		}
	}
	for _, kw := range schemaOneKeywords {
		if _, isList := obj[kw].([]any); !isList {
			w.schema(obj[kw], path, loc+"/"+schemaPointerToken(kw), false)
		}
	}
	for _, kw := range schemaListKeywords {
		list, _ := obj[kw].([]any)
		for i, sub := range list {
			w.schema(sub, path, fmt.Sprintf("%s/%s/%d", loc, schemaPointerToken(kw), i), false)
		}
	}
}

// annotation checks one x-mcp-header and records it.
func (w *headerWalk) annotation(obj map[string]any, v any, path []string, loc string, onPath bool) {
	where := fmt.Sprintf("x-mcp-header at %q", loc)
	if onPath && len(path) > 0 {
		where = fmt.Sprintf("x-mcp-header of property %q", strings.Join(path, "."))
	}
	name, ok := v.(string)
	switch {
	case !ok:
		w.err = fmt.Errorf("%s: the value must be a string", where)
		return
	case !isHTTPToken(name):
		w.err = fmt.Errorf("%s: %q is not an HTTP token (RFC 9110: letters, digits and !#$%%&'*+-.^_`|~)", where, name)
		return
	case !onPath || len(path) == 0:
		w.err = fmt.Errorf("%s: only a property reached from the root through \"properties\" alone may carry it", where)
		return
	}
	typ, ok := headerType(obj["type"])
	if !ok {
		w.err = fmt.Errorf("%s: the property must have type string, integer or boolean", where)
		return
	}
	prop := strings.Join(path, ".")
	if other, dup := w.seen[strings.ToLower(name)]; dup {
		w.err = fmt.Errorf("%s: header %q is already used by property %q (names are compared without case)", where, name, other)
		return
	}
	w.seen[strings.ToLower(name)] = prop
	w.params = append(w.params, headerParam{Header: name, Property: prop, Type: typ, Path: path})
}

// headerType reads a property's type for a header: one of string, integer
// and boolean, alone or together with "null" (a null argument is not
// mirrored).
func headerType(t any) (string, bool) {
	var types []string
	switch t := t.(type) {
	case string:
		types = []string{t}
	case []any:
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return "", false
			}
			if s != "null" {
				types = append(types, s)
			}
		}
	}
	if len(types) != 1 || (types[0] != "string" && types[0] != "integer" && types[0] != "boolean") {
		return "", false
	}
	return types[0], true
}

// isHTTPToken reports whether s is an RFC 9110 token: one or more tchar.
func isHTTPToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}

// schemaPointerToken escapes a JSON pointer token (RFC 6901).
func schemaPointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// schemaKeysSorted returns a map's keys in order, so that the first error found
// is always the same one.
func schemaKeysSorted(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// toolHeaders returns the x-mcp-header params of the registered tool name,
// computed when it was registered (nil when there is no such tool or it
// declares none).
func (s *Server) toolHeaders(name string) []headerParam {
	e, ok := s.tools.get(name)
	if !ok || e == nil {
		return nil
	}
	return e.headers
}

// checkMirroredHeaders checks the mirrored headers of a 2026-07-28 request
// against its body: MCP-Protocol-Version against version (the _meta
// version; not compared when the body has none, which the dispatcher
// refuses on its own), Mcp-Method against method, Mcp-Name against the
// params member the method's schema names (nameMember: the name of
// tools/call and prompts/get, the uri of resources/read, the taskId of the
// tasks extension's requests), and for
// tools/call each Mcp-Param-* header the tool declares (tool returns them)
// against its argument. An argument that is null or absent needs no
// header. Header names are matched without case, values exactly, after the
// spaces and tabs around them. A violation is -32020 naming the header.
func checkMirroredHeaders(h http.Header, method string, params json.RawMessage, version string, tool func(string) []headerParam) *rpc.Error {
	if version != "" {
		got, err := requiredHeader(h, HeaderProtocolVersion)
		if err != nil {
			return err
		}
		if got != version {
			return headerMismatch(HeaderProtocolVersion, "%q differs from the request's protocol version %q", got, version)
		}
	}
	got, err := requiredHeader(h, HeaderMethod)
	if err != nil {
		return err
	}
	if got != method {
		return headerMismatch(HeaderMethod, "%q differs from the request's method %q", got, method)
	}
	member, ok := nameMember(method)
	if !ok {
		return nil
	}
	// Malformed params are the dispatcher's to refuse: here they only
	// leave nothing to compare.
	target, _ := jsonscan.Member(params, member)
	want, isString := jsonscan.String(target)
	args, _ := jsonscan.Member(params, "arguments")
	raw, err := requiredHeader(h, HeaderName)
	if err != nil {
		return err
	}
	name, derr := decodeHeaderValue(raw)
	if derr != nil {
		return headerMismatch(HeaderName, "%v", derr)
	}
	if isString && name != want {
		return headerMismatch(HeaderName, "%q differs from the request's %s %q", name, member, want)
	}
	if method != "tools/call" || !isString || tool == nil {
		return nil
	}
	for _, p := range tool(want) {
		if err := checkParamHeader(h, p, args); err != nil {
			return err
		}
	}
	return nil
}

// nameMember returns the params member whose value a stateless request
// mirrors in Mcp-Name, as the method's schema declares it
// (x-mcp-name-member), and whether the method has one.
func nameMember(method string) (string, bool) {
	f, ok := statelessMethod(method)
	if !ok {
		return "", false
	}
	raw, ok := f.Extension("x-mcp-name-member")
	if !ok {
		return "", false
	}
	return jsonscan.String([]byte(raw))
}

// checkParamHeader checks the Mcp-Param header of one tool argument.
func checkParamHeader(h http.Header, p headerParam, args json.RawMessage) *rpc.Error {
	hdr := HeaderParamPrefix + p.Header
	arg := argumentAt(args, p.Path)
	if arg == nil {
		return nil
	}
	raw, err := requiredHeader(h, hdr)
	if err != nil {
		return err
	}
	got, derr := decodeHeaderValue(raw)
	if derr != nil {
		return headerMismatch(hdr, "%v", derr)
	}
	if !headerMatches(got, arg) {
		return headerMismatch(hdr, "%q differs from the argument %s (%s)", got, p.Property, headerJSONText(arg))
	}
	return nil
}

// argumentAt returns the JSON value at path inside the arguments object,
// or nil when it is absent or null.
func argumentAt(args json.RawMessage, path []string) json.RawMessage {
	cur := args
	for _, name := range path {
		next, ok := jsonscan.Member(cur, name)
		if !ok {
			return nil
		}
		cur = next
	}
	if v, ok := jsonscan.Value(cur); !ok || string(v) == "null" {
		return nil
	}
	return cur
}

// headerMatches compares a decoded header value with the argument it
// mirrors: a string exactly, a number numerically (so 42, 42.0 and 4.2e1
// agree), a boolean as true or false; any other value as its compact JSON.
func headerMatches(got string, arg json.RawMessage) bool {
	var v any
	dec := json.NewDecoder(bytes.NewReader(arg))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return false
	}
	switch v := v.(type) {
	case string:
		return got == v
	case json.Number:
		a, ok1 := new(big.Rat).SetString(got)
		b, ok2 := new(big.Rat).SetString(v.String())
		return ok1 && ok2 && a.Cmp(b) == 0
	case bool:
		return got == fmt.Sprint(v)
	default:
		return got == headerJSONText(arg)
	}
}

// headerJSONText renders a JSON value on one line.
func headerJSONText(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

// requiredHeader returns the single value of a required header, trimmed.
func requiredHeader(h http.Header, name string) (string, *rpc.Error) {
	vs := h.Values(name)
	switch len(vs) {
	case 0:
		return "", headerMismatch(name, "the header is required")
	case 1:
		return strings.Trim(vs[0], " \t"), nil
	default:
		return "", headerMismatch(name, "the header appears %d times", len(vs))
	}
}

// headerMismatch is the -32020 error for one header.
func headerMismatch(header, format string, args ...any) *rpc.Error {
	return rpc.NewError(CodeHeaderMismatch, header+": "+fmt.Sprintf(format, args...))
}
