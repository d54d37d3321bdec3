package auth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
)

// peekLimit bounds how much of a body PeekCall reads.
const peekLimit = 1 << 20

// PeekCall tells which MCP method a POST carries and, for tools/call and
// prompts/get, the tool or prompt name (resources/read: the URI). It
// reads the 2026-07-28 Mcp-Method and Mcp-Name headers when present, else
// the JSON-RPC body (its first megabyte), which it leaves in place for the
// handler. A batch, a response or a body it cannot read gives "".
func PeekCall(r *http.Request) (method, name string) {
	if m := r.Header.Get("Mcp-Method"); m != "" {
		return m, r.Header.Get("Mcp-Name")
	}
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		return "", ""
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, peekLimit))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	if err != nil {
		return "", ""
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"params"`
	}
	if json.Unmarshal(head, &msg) != nil {
		return "", ""
	}
	if msg.Params.Name != "" {
		return msg.Method, msg.Params.Name
	}
	return msg.Method, msg.Params.URI
}
