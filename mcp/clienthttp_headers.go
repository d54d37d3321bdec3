package mcp

import (
	"bytes"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// statelessVersionIn returns the protocol version a request's params._meta
// names (2026-07-28 and later), or "" for a handshake-era message.
func statelessVersionIn(params json.RawMessage) string {
	if !bytes.Contains(params, []byte(metaProtocolVersion)) {
		return ""
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	var v string
	if json.Unmarshal(p.Meta[metaProtocolVersion], &v) != nil {
		return ""
	}
	return v
}

// setStatelessHeaders puts on h the headers a 2026-07-28 request mirrors
// from its body: MCP-Protocol-Version, Mcp-Method, Mcp-Name for the methods
// whose schema names the member it mirrors (x-mcp-name-member: tools/call,
// prompts/get, resources/read, tasks/*), and for tools/call an Mcp-Param-* header
// for each argument the tool's x-mcp-header annotations name (tool returns
// them; an argument that is absent or null gets none).
func setStatelessHeaders(h http.Header, method string, params json.RawMessage, version string, tool func(string) []headerParam) {
	h.Set(HeaderProtocolVersion, version)
	h.Set(HeaderMethod, method)
	member, ok := nameMember(method)
	if !ok {
		return
	}
	target, ok := jsonscan.Member(params, member)
	if !ok {
		return
	}
	name, ok := jsonscan.String(target)
	if !ok {
		return
	}
	h.Set(HeaderName, encodeHeaderValue(name))
	if method != "tools/call" || tool == nil {
		return
	}
	args, _ := jsonscan.Member(params, "arguments")
	for _, p := range tool(name) {
		if arg := argumentAt(args, p.Path); arg != nil {
			h.Set(HeaderParamPrefix+p.Header, headerValueOf(arg))
		}
	}
}

// headerValueOf renders a tool argument as its header value: a string
// as is (wrapped in base64 when it must be), an integral number in
// decimal, a boolean as true or false, anything else as compact JSON.
func headerValueOf(arg json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(arg))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return encodeHeaderValue(strings.TrimSpace(string(arg)))
	}
	switch v := v.(type) {
	case string:
		return encodeHeaderValue(v)
	case json.Number:
		if r, ok := new(big.Rat).SetString(v.String()); ok && r.IsInt() {
			return r.Num().String()
		}
		return v.String()
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	return encodeHeaderValue(headerJSONText(arg))
}

// learnToolHeaders reads a tools/list result and records the x-mcp-header
// annotations of each tool in known (a tool whose annotations break the
// rules records none: the client drops it from the list).
func learnToolHeaders(result json.RawMessage, known map[string][]headerParam) {
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &res) != nil {
		return
	}
	for _, t := range res.Tools {
		ps, err := headerParams(t.InputSchema)
		if err != nil || len(ps) == 0 {
			delete(known, t.Name)
			continue
		}
		known[t.Name] = ps
	}
}
