// Package limit is the floor of the benchmark: a server that does the least
// work an MCP server can do for the benchmark surface. It walks each message
// once to find the id, the method, the tool and its arguments, validates
// nothing, and answers from prebuilt byte templates: echo splices the text
// argument's bytes as they came, add parses the two numbers and formats the
// sum. Both eras are served: a request whose params._meta names a protocol
// version gets a 2026-07-28 result (resultType "complete", serverInfo in
// _meta); the others get handshake-era results.
package limit

import (
	"math"
	"strconv"

	"github.com/schemarpc/schemarpc/bench/surface"
)

// Kind says what Handle answered.
type Kind int

const (
	// Notification means nothing was written: the message had no id.
	Notification Kind = iota
	// Initialize means the message was an initialize request.
	Initialize
	// Answer means any other reply was written (a result or an error).
	Answer
	// NotFound means a -32601 error answered a 2026-07-28 request, which
	// Streamable HTTP sends with status 404 (a handshake-era one is an
	// Answer).
	NotFound
)

// The versions initialize echoes; any other gets Latest.
var handshakeVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Latest is the handshake version initialize answers to a version it does
// not know.
const Latest = "2025-11-25"

// Prebuilt pieces of the replies.
const (
	head           = `{"jsonrpc":"2.0","id":`
	resultOpen     = `,"result":`
	serverInfo     = `{"name":"` + surface.Name + `","version":"` + surface.Version + `"}`
	metaMember     = `"_meta":{"io.modelcontextprotocol/serverInfo":` + serverInfo + `}`
	statelessMeta  = metaMember + `,`
	statelessClose = `,"resultType":"complete"}}`
	handshakeClose = `}}`
	textOpen       = `"content":[{"type":"text","text":`
	toolsPayload   = `"tools":[` +
		`{"name":"` + surface.EchoTool + `","description":"` + surface.EchoDescription + `","inputSchema":` + surface.EchoInputSchema + `},` +
		`{"name":"` + surface.AddTool + `","description":"` + surface.AddDescription + `","inputSchema":` + surface.AddInputSchema + `,"outputSchema":` + surface.AddOutputSchema + `}]`
	cacheHint = `"ttlMs":0,"cacheScope":"private",`
)

// Whole results, after the id.
const (
	pingResult           = resultOpen + `{}}`
	pingResultStateless  = resultOpen + `{` + metaMember + statelessClose
	toolsResult          = resultOpen + `{` + toolsPayload + handshakeClose
	toolsResultStateless = resultOpen + `{` + statelessMeta + cacheHint + toolsPayload + statelessClose
	discoverResult       = resultOpen + `{` + statelessMeta + cacheHint + `"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"capabilities":{"tools":{}}` + statelessClose
	initializeOpen       = resultOpen + `{"protocolVersion":"`
	initializeClose      = `","capabilities":{"tools":{}},"serverInfo":` + serverInfo + handshakeClose
	errMethodNotFound    = `,"error":{"code":-32601,"message":"method not found"}}`
	errUnknownTool       = `,"error":{"code":-32602,"message":"unknown tool"}}`
	errInvalidArgs       = `,"error":{"code":-32602,"message":"invalid arguments"}}`
	errParse             = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`
	structuredOpen       = `}],"structuredContent":{"sum":`
	methodInitialize     = "initialize"
	methodPing           = "ping"
	methodToolsList      = "tools/list"
	methodToolsCall      = "tools/call"
	methodDiscover       = "server/discover"
)

// Handle appends the reply to one JSON-RPC message to dst (nothing for a
// notification) and says what it was. The reply has no trailing newline.
func Handle(dst, msg []byte) ([]byte, Kind) {
	r, ok := parse(msg)
	if !ok {
		return append(dst, errParse...), Answer
	}
	if r.id == nil {
		return dst, Notification
	}
	dst = append(append(dst, head...), r.id...)
	switch string(r.method) {
	case methodToolsCall:
		return r.call(dst)
	case methodInitialize:
		return append(append(append(dst, initializeOpen...), negotiate(r.version)...), initializeClose...), Initialize
	case methodToolsList:
		if r.stateless {
			return append(dst, toolsResultStateless...), Answer
		}
		return append(dst, toolsResult...), Answer
	case methodPing:
		if r.stateless {
			return append(dst, pingResultStateless...), Answer
		}
		return append(dst, pingResult...), Answer
	case methodDiscover:
		return append(dst, discoverResult...), Answer
	}
	if r.stateless {
		return append(dst, errMethodNotFound...), NotFound
	}
	return append(dst, errMethodNotFound...), Answer
}

// call answers tools/call; dst holds the reply up to the id.
func (r *request) call(dst []byte) ([]byte, Kind) {
	idEnd := len(dst)
	dst = append(dst, resultOpen...)
	dst = append(dst, '{')
	if r.stateless {
		dst = append(dst, statelessMeta...)
	}
	dst = append(dst, textOpen...)
	switch string(r.tool) {
	case surface.EchoTool:
		if len(r.text) == 0 || r.text[0] != '"' {
			return append(dst[:idEnd], errInvalidArgs...), Answer
		}
		dst = append(append(dst, r.text...), "}]"...)
	case surface.AddTool:
		a, errA := strconv.ParseFloat(string(r.a), 64)
		b, errB := strconv.ParseFloat(string(r.b), 64)
		sum := a + b
		if errA != nil || errB != nil || math.IsInf(sum, 0) || math.IsNaN(sum) {
			return append(dst[:idEnd], errInvalidArgs...), Answer
		}
		dst = append(dst, '"')
		mark := len(dst)
		dst = surface.AppendSum(dst, sum)
		number := len(dst)
		dst = append(dst, '"')
		dst = append(dst, structuredOpen...)
		dst = append(dst, dst[mark:number]...)
		dst = append(dst, '}')
	default:
		return append(dst[:idEnd], errUnknownTool...), Answer
	}
	if r.stateless {
		return append(dst, statelessClose...), Answer
	}
	return append(dst, handshakeClose...), Answer
}

// negotiate is the version initialize answers: the requested one when
// known, else Latest.
func negotiate(requested []byte) string {
	for _, v := range handshakeVersions {
		if string(requested) == v {
			return v
		}
	}
	return Latest
}
