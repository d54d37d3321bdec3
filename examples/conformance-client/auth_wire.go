package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The auth scenarios need only a small MCP exchange: connect, list the
// tools, call one. wireSession does it with plain POSTs through the
// authorizing http.Client, in either era.

// wireSession is a minimal Streamable HTTP MCP client.
type wireSession struct {
	url     string
	client  *http.Client
	version string
	modern  bool
	session string
	nextID  int
}

// runToolsSession connects to env.URL with client, lists the tools and
// calls the first (with no arguments).
func runToolsSession(ctx context.Context, env *scenarioEnv, client *http.Client) error {
	s := &wireSession{url: env.URL, client: client, version: env.Version}
	if s.version == "" {
		s.version = "2025-11-25"
	}
	s.modern = s.version == "2026-07-28"
	if s.modern {
		if _, err := s.call(ctx, "server/discover", map[string]any{}); err != nil {
			return err
		}
	} else {
		if _, err := s.call(ctx, "initialize", map[string]any{
			"protocolVersion": s.version,
			"capabilities":    map[string]any{},
			"clientInfo":      map[string]any{"name": "schemarpc-conformance-client", "version": "1.0.0"},
		}); err != nil {
			return err
		}
		if err := s.notify(ctx, "notifications/initialized"); err != nil {
			return err
		}
	}
	res, err := s.call(ctx, "tools/list", map[string]any{})
	if err != nil {
		return err
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(res, &list); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	if len(list.Tools) == 0 {
		return nil
	}
	_, err = s.call(ctx, "tools/call", map[string]any{"name": list.Tools[0].Name, "arguments": map[string]any{}})
	return err
}

// call sends a request and returns its result.
func (s *wireSession) call(ctx context.Context, method string, params map[string]any) (json.RawMessage, error) {
	s.nextID++
	id := s.nextID
	resp, err := s.post(ctx, map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": s.withMeta(params)}, method, params)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, fmt.Errorf("%s: HTTP %s: %s", method, resp.Status, strings.TrimSpace(string(b)))
	}
	if method == "initialize" {
		s.session = resp.Header.Get("Mcp-Session-Id")
	}
	msg, err := readAnswer(resp, id)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if m.Error != nil {
		return nil, fmt.Errorf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
	}
	return m.Result, nil
}

// notify sends a notification.
func (s *wireSession) notify(ctx context.Context, method string) error {
	resp, err := s.post(ctx, map[string]any{"jsonrpc": "2.0", "method": method}, method, nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: HTTP %s", method, resp.Status)
	}
	return nil
}

// withMeta adds the 2026-07-28 request _meta.
func (s *wireSession) withMeta(params map[string]any) map[string]any {
	if !s.modern {
		return params
	}
	out := map[string]any{}
	for k, v := range params {
		out[k] = v
	}
	out["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    s.version,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "schemarpc-conformance-client", "version": "1.0.0"},
	}
	return out
}

// post sends one message with the era's headers.
func (s *wireSession) post(ctx context.Context, msg map[string]any, method string, params map[string]any) (*http.Response, error) {
	body, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	switch {
	case s.modern:
		req.Header.Set("MCP-Protocol-Version", s.version)
		req.Header.Set("Mcp-Method", method)
		if name, ok := params["name"].(string); ok && (method == "tools/call" || method == "prompts/get") {
			req.Header.Set("Mcp-Name", name)
		}
	case method != "initialize":
		req.Header.Set("MCP-Protocol-Version", s.version)
		if s.session != "" {
			req.Header.Set("Mcp-Session-Id", s.session)
		}
	}
	return s.client.Do(req)
}

// readAnswer reads the response to request id from a JSON or SSE answer.
func readAnswer(resp *http.Response, id int) (json.RawMessage, error) {
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
		return b, err
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if m := matchID(data.String(), id); m != nil {
				return m, nil
			}
			data.Reset()
			continue
		}
		if v, ok := strings.CutPrefix(line, "data:"); ok {
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(v, " "))
		}
	}
	if m := matchID(data.String(), id); m != nil {
		return m, nil
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("the event stream ended without the response")
}

// matchID returns data when it is the response to id.
func matchID(data string, id int) json.RawMessage {
	if data == "" {
		return nil
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal([]byte(data), &m) != nil || m.Method != "" {
		return nil
	}
	if string(m.ID) != fmt.Sprint(id) {
		return nil
	}
	return json.RawMessage(data)
}
