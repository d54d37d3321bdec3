package load

import (
	"fmt"
	"net/http"
)

// The two protocol revisions the driver speaks.
const (
	// Protocol20251125 is the handshake era: initialize, then
	// notifications/initialized, then calls (over HTTP inside a session).
	Protocol20251125 = "2025-11-25"
	// Protocol20260728 is the stateless era: no handshake; every request
	// carries the version, client capabilities and client info in
	// params._meta.
	Protocol20260728 = "2026-07-28"
)

// clientName is the clientInfo.name the driver announces.
const clientName = "mcpload"

// meta2026 is the params._meta member every 2026-07-28 request carries.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientCapabilities":{},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"` + clientName + `","version":"1"}}`

// checkProtocol reports whether the driver speaks protocol.
func checkProtocol(protocol string) error {
	switch protocol {
	case Protocol20251125, Protocol20260728:
		return nil
	}
	return fmt.Errorf("unknown protocol %q (want %s or %s)", protocol, Protocol20251125, Protocol20260728)
}

// initializeID is the id of the handshake's initialize request; calls use
// ids from 1 up.
const initializeID = 0

// initializeRequest is the 2025-11-25 initialize request.
func initializeRequest() []byte {
	return []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
		`"capabilities":{},"clientInfo":{"name":"` + clientName + `","version":"1"}}}`)
}

// initializedNotification ends the 2025-11-25 handshake.
func initializedNotification() []byte {
	return []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// appendToolsCall appends the tools/call request with the given id for c in
// protocol to buf.
func appendToolsCall(buf []byte, protocol string, id int64, c Call) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = appendInt(buf, id)
	buf = append(buf, `,"method":"tools/call","params":{"name":"`...)
	buf = append(buf, c.Tool...)
	buf = append(buf, `","arguments":`...)
	buf = c.appendArguments(buf)
	if protocol == Protocol20260728 {
		buf = append(buf, ',')
		buf = append(buf, meta2026...)
	}
	return append(buf, "}}"...)
}

// setHTTPHeaders sets the headers a conforming client sends with a POST in
// protocol. method and name are the JSON-RPC method and, for tools/call,
// the tool name (the 2026-07-28 Mcp-Method and Mcp-Name headers); session
// is the 2025-11-25 session id ("" before or without one). The handshake's
// initialize carries no MCP-Protocol-Version: the version is negotiated by it.
func setHTTPHeaders(h http.Header, protocol, method, name, session string) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	switch protocol {
	case Protocol20251125:
		if method != "initialize" {
			h.Set("MCP-Protocol-Version", Protocol20251125)
		}
		if session != "" {
			h.Set("Mcp-Session-Id", session)
		}
	case Protocol20260728:
		h.Set("MCP-Protocol-Version", Protocol20260728)
		h.Set("Mcp-Method", method)
		if name != "" {
			h.Set("Mcp-Name", name)
		}
	}
}
