package inproc_test

import (
	"bytes"
	"strconv"
	"testing"
)

// era is one protocol era as the requests speak it.
type era struct {
	name      string
	handshake bool   // initialize and notifications/initialized first
	meta      string // the member added to every request's params
}

var eras = []era{
	{name: "2025-11-25", handshake: true},
	{name: "2026-07-28", meta: `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"inproc","version":"1.0.0"}}`},
}

const (
	initializeLine  = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"inproc","version":"1.0.0"}}}` + "\n"
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
)

// toolCall is one tools/call and what its reply must hold.
type toolCall struct {
	tool, args string
	want       []string // members the result must contain, as compact JSON
}

var toolCalls = []toolCall{
	{tool: "add", args: `{"a":1,"b":2}`, want: []string{`"text":"3"`, `"structuredContent":{"sum":3}`}},
	{tool: "echo", args: `{"text":"hello"}`, want: []string{`"text":"hello"`}},
}

// request appends the line of the call with id to dst.
func (c toolCall) request(dst []byte, e era, id int) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = strconv.AppendInt(dst, int64(id), 10)
	dst = append(dst, `,"method":"tools/call","params":{"name":"`...)
	dst = append(dst, c.tool...)
	dst = append(dst, `","arguments":`...)
	dst = append(dst, c.args...)
	dst = append(dst, e.meta...)
	return append(dst, "}}\n"...)
}

var (
	idMember     = []byte(`"id":`)
	errorMember  = []byte(`"error":`)
	isError      = []byte(`"isError":true`)
	complete     = []byte(`"resultType":"complete"`)
	methodMember = []byte(`"method":`)
)

// check says what is wrong with reply as the answer to the call, or "";
// id is the id it answers.
func (c toolCall) check(reply []byte, e era) (id int, wrong string) {
	id, ok := idOf(reply)
	switch {
	case !ok:
		return 0, "no integer id"
	case bytes.Contains(reply, errorMember) || bytes.Contains(reply, isError):
		return id, "an error"
	case e.meta != "" && !bytes.Contains(reply, complete):
		return id, "no resultType complete"
	}
	for _, w := range c.want {
		if !bytes.Contains(reply, []byte(w)) {
			return id, "no " + w
		}
	}
	return id, ""
}

// idOf reads the integer id of a reply.
func idOf(reply []byte) (int, bool) {
	i := bytes.Index(reply, idMember)
	if i < 0 {
		return 0, false
	}
	i += len(idMember)
	j := i
	for j < len(reply) && reply[j] >= '0' && reply[j] <= '9' {
		j++
	}
	if j == i {
		return 0, false
	}
	n := 0
	for _, d := range reply[i:j] {
		n = n*10 + int(d-'0')
	}
	return n, true
}

// isNotification tells a server's notification from a reply.
func isNotification(line []byte) bool {
	return bytes.Contains(line, methodMember) && !bytes.Contains(line, idMember)
}

// begin opens the era on a new session: the handshake, or nothing.
func begin(tb testing.TB, s *session, e era) {
	tb.Helper()
	if !e.handshake {
		return
	}
	s.send(tb, []byte(initializeLine))
	if reply := s.recv(tb); !bytes.Contains(reply, []byte(`"protocolVersion":"2025-11-25"`)) {
		tb.Fatalf("initialize: %s", reply)
	}
	s.send(tb, []byte(initializedLine))
}
