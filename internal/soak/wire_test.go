package soak

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The message bodies the raw clients send.
const (
	versionHandshake = "2025-11-25"
	versionStateless = "2026-07-28"
	initBody         = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + versionHandshake + `","capabilities":{},"clientInfo":{"name":"soak-raw","version":"1"}}}`
	initializedBody  = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	statelessMeta    = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + versionStateless + `","io.modelcontextprotocol/clientCapabilities":{}}`
)

// reply is what one HTTP exchange brought back: the status, the session id
// header, and the JSON-RPC message of the body (a JSON body, or the first
// message event of an SSE stream); msg is nil for an empty body.
type reply struct {
	status int
	sid    string
	msg    *message
}

// message is a JSON-RPC response as the soak test reads it.
type message struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// expect is what a request deserves: an HTTP status (0 on stdio), then
// either an error code or a result that check accepts.
type expect struct {
	status int
	code   int                         // the JSON-RPC error code; 0: a result
	id     string                      // the response id as JSON text; "" skips the check
	check  func(json.RawMessage) error // of the result; nil accepts any
	empty  bool                        // no body at all (202, 204)
}

// verify compares a reply with what it deserved.
func (e expect) verify(r reply) error {
	if e.status != 0 && r.status != e.status {
		return fmt.Errorf("status %d, want %d (body %s)", r.status, e.status, r.msg)
	}
	if e.empty {
		if r.msg != nil {
			return fmt.Errorf("a body %s, want none", r.msg)
		}
		return nil
	}
	if r.msg == nil {
		return errors.New("no JSON-RPC message in the body")
	}
	if e.id != "" && string(r.msg.ID) != e.id {
		return fmt.Errorf("id %s, want %s", r.msg.ID, e.id)
	}
	if e.code != 0 {
		if r.msg.Error == nil || r.msg.Error.Code != e.code {
			return fmt.Errorf("got %s, want error %d", r.msg, e.code)
		}
		return nil
	}
	if r.msg.Error != nil || r.msg.Result == nil {
		return fmt.Errorf("got %s, want a result", r.msg)
	}
	if e.check != nil {
		return e.check(r.msg.Result)
	}
	return nil
}

func (m *message) String() string {
	if m == nil {
		return "<none>"
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// readReply reads a response body, JSON or SSE, up to 1 MiB.
func readReply(resp *http.Response) (reply, error) {
	r := reply{status: resp.StatusCode, sid: resp.Header.Get("Mcp-Session-Id")}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return r, fmt.Errorf("reading the body: %w", err)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		body = firstSSEMessage(body)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return r, nil
	}
	r.msg = new(message)
	if err := json.Unmarshal(body, r.msg); err != nil {
		return r, fmt.Errorf("the body is not a JSON-RPC message: %w: %q", err, body)
	}
	return r, nil
}

// firstSSEMessage returns the data of the first SSE event whose data is a
// JSON object (the priming event's data is empty).
func firstSSEMessage(stream []byte) []byte {
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.HasPrefix(data, "{") {
			return []byte(data)
		}
	}
	return nil
}

// request builds a POST to url with the headers every MCP POST needs, then
// the extra ones (name, value pairs; an empty value deletes the header).
func request(ctx context.Context, method, url string, body io.Reader, hdr ...string) *http.Request {
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		panic(err) // the URL is the test server's
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	return req
}

// exchange sends req and reads its reply.
func exchange(c *http.Client, req *http.Request) (reply, error) {
	resp, err := c.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	return readReply(resp)
}

// echoResult accepts the result of the echo tool called with text.
func echoResult(text string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		var r struct {
			StructuredContent struct {
				Text string `json:"text"`
			} `json:"structuredContent"`
			IsError bool `json:"isError"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		if r.IsError || r.StructuredContent.Text != text {
			return fmt.Errorf("echo result %s, want text %q", raw, text)
		}
		return nil
	}
}

// toolError accepts a tool result with isError set whose text contains
// want.
func toolError(want string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		var r struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		if !r.IsError || len(r.Content) != 1 || !strings.Contains(r.Content[0].Text, want) {
			return fmt.Errorf("result %s, want an isError result saying %q", raw, want)
		}
		return nil
	}
}

// textResult accepts a result whose JSON contains want.
func containsText(want string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		if !bytes.Contains(raw, []byte(want)) {
			return fmt.Errorf("result %s, want it to contain %q", raw, want)
		}
		return nil
	}
}
