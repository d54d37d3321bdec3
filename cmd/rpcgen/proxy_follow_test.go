package main

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// meta2026 is the params._meta of a 2026-07-28 request.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"proxy-test","version":"1"}}`

// TestProxyStdioFollowsTheVersionOfEachConversation drives examples/everything
// through a proxy with the default set: a stateless conversation begun with
// server/discover, then a 2025-06-18 handshake on the same process. Only
// what the negotiated version lacks is reported.
func TestProxyStdioFollowsTheVersionOfEachConversation(t *testing.T) {
	server := everythingBinary(t)
	dir := t.TempDir()
	report := filepath.Join(dir, "report.txt")
	transcript := filepath.Join(dir, "session.jsonl")
	p := startProxy(t, append([]string{"--report", report, "--transcript", transcript, "--", server}, quietEverything...)...)
	c := &mcpStdioClient{t: t, p: p, out: bufio.NewReader(p.stdout)}

	require.Contains(t, c.call(1, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta2026+`}}`), "result")
	require.Contains(t, c.call(2, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_simple_text","arguments":{},`+meta2026+`}}`), "result")
	require.Contains(t, c.call(3, `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"proxy-test","version":"1"}}}`), "result")
	c.notify(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Contains(t, c.call(4, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`), "result")
	c.call(5, `{"jsonrpc":"2.0","id":5,"method":"tasks/list"}`)
	require.Equal(t, 0, c.end(), c.p.stderr.String())

	rep, err := os.ReadFile(report)
	require.NoError(t, err)
	assert.Equal(t, `client: message 6 (request tasks/list from the client): -32601 method not found: method "tasks/list" is not in mcp/2025-06-18`+"\n"+
		"11 messages in 2 inputs checked, 1 finding\n", string(rep))
	messages, findings := recheck(t, "mcp", transcript)
	assert.Equal(t, 11, messages)
	require.Len(t, findings, 1, "the transcript re-checks to the same finding")
	assert.Equal(t, -32601, findings[0].Code)
}

// TestProxyHTTPFollowsTheVersionOfEachConversation: over Streamable HTTP,
// with the default set, a 2025-06-18 session and stateless calls side by
// side, the MCP-Protocol-Version header followed and recorded.
func TestProxyHTTPFollowsTheVersionOfEachConversation(t *testing.T) {
	base := everythingHTTP(t)
	transcript := filepath.Join(t.TempDir(), "session.jsonl")
	p := startHTTPProxy(t, base, "mcp", func(c *proxyConfig) { c.transcript = transcript })
	endpoint := p.url + "/mcp"
	accept := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}

	resp := send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"proxy-test","version":"1"}}}`, accept...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	session := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	require.Contains(t, readMessages(t, resp).answer(float64(1), nil), "result")
	inSession := append([]string{"Mcp-Session-Id", session, "Mcp-Protocol-Version", "2025-06-18"}, accept...)
	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession...)
	readAll(t, resp)
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, inSession...)
	require.Contains(t, readMessages(t, resp).answer(float64(2), nil), "result")

	stateless := append([]string{"Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "test_simple_text"}, accept...)
	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_simple_text","arguments":{},`+meta2026+`}}`, stateless...)
	require.Contains(t, readMessages(t, resp).answer(float64(1), nil), "result")
	require.Equal(t, 0, p.proxy.mon.findings(), p.report.String())

	// A session request whose header names another version than the one
	// negotiated.
	wrong := append([]string{"Mcp-Session-Id", session, "Mcp-Protocol-Version", "2025-11-25"}, accept...)
	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, wrong...)
	readAll(t, resp)
	// A stateless call without its version: the header names it, and the
	// 2026-07-28 schema wants _meta.
	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}`, stateless...)
	readAll(t, resp)

	sum := p.stop()
	assert.Equal(t, 2, sum.Findings, p.report.String())
	assert.Contains(t, p.report.String(), `(request tools/list from the client): -32600 invalid request: the MCP-Protocol-Version header says "2025-11-25", the conversation negotiated "2025-06-18"`)
	assert.Contains(t, p.report.String(), `(request tools/call from the client): -32602 invalid params at /params: missing required member "_meta"`)

	tr, err := os.ReadFile(transcript)
	require.NoError(t, err)
	assert.Contains(t, string(tr), `"protocolVersion":"2025-11-25"`, "records keep the header")
	code, stdout, _ := rpcgen("validate", transcript)
	assert.Equal(t, exitFail, code)
	assert.Equal(t, 2, strings.Count(stdout, "session.jsonl:"), "the transcript re-checks to the same findings: %s", stdout)
	assert.Contains(t, stdout, `the MCP-Protocol-Version header says "2025-11-25", the conversation negotiated "2025-06-18"`)
	assert.Contains(t, stdout, `missing required member "_meta"`)
}
