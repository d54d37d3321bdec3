package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// parseSSE feeds stream to a parser bounded by max in pieces of size n (the
// whole stream when n is 0) and returns the events it dispatched, with
// "<too long>" for each event past the bound.
func parseSSE(stream string, n, max int) []string {
	var got []string
	p := &sseParser{
		max:     max,
		event:   func(b []byte) { got = append(got, string(b)) },
		tooLong: func() { got = append(got, "<too long>") },
	}
	if n == 0 {
		n = len(stream) + 1
	}
	for len(stream) > 0 {
		k := min(n, len(stream))
		p.write([]byte(stream[:k]))
		stream = stream[k:]
	}
	return got
}

func TestSSEParserDispatchesMessageEventsAsAnEventSourceDoes(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		want   []string
	}{
		{"one event", "event: message\ndata: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{"id and retry are ignored", "id: 7\nretry: 1000\ndata: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{"data lines are joined with newlines", "data: {\"a\":\ndata: 1}\n\n", []string{"{\"a\":\n1}"}},
		{"no space after the colon", "data:{\"a\":1}\n\n", []string{`{"a":1}`}},
		{"comments are ignored", ": keep-alive\n\ndata: {}\n: more\n\n", []string{"{}"}},
		{"CRLF line endings", "data: {}\r\n\r\ndata: []\r\n\r\n", []string{"{}", "[]"}},
		{"CR line endings", "data: {}\r\rdata: []\r\r", []string{"{}", "[]"}},
		{"a priming event without data is skipped", "id: 1\ndata:\n\nid: 2\n\ndata: {}\n\n", []string{"{}"}},
		{"other event types are skipped", "event: endpoint\ndata: /messages?s=1\n\ndata: {}\n\n", []string{"{}"}},
		{"the type is per event", "event: endpoint\ndata: /x\n\nevent: message\ndata: {}\n\n", []string{"{}"}},
		{"a byte order mark is not part of the first line", "\xef\xbb\xbfdata: {}\n\n", []string{"{}"}},
		{"an unfinished last event is dropped", "data: {}\n\ndata: {\"half\":", []string{"{}"}},
		{"not JSON is still an event", "data: garbage\n\n", []string{"garbage"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for n := range len(tt.stream) + 1 {
				assert.Equal(t, tt.want, parseSSE(tt.stream, n, 100), "in pieces of %d bytes", n)
			}
		})
	}
}

func TestSSEParserReportsAnEventLongerThanTheBound(t *testing.T) {
	long := strings.Repeat("x", 30)
	tests := []struct {
		name   string
		stream string
		want   []string
	}{
		{"one long data line", "data: " + long + "\n\ndata: {}\n\n", []string{"<too long>", "{}"}},
		{"short lines adding up", "data: " + long[:15] + "\ndata: " + long[:15] + "\n\ndata: {}\n\n", []string{"<too long>", "{}"}},
		{"a long comment is only a comment", ": " + long + long + "\n\ndata: {}\n\n", []string{"{}"}},
		{"at the bound is fine", "data: " + long[:20] + "\n\n", []string{long[:20]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []int{0, 1, 7} {
				assert.Equal(t, tt.want, parseSSE(tt.stream, n, 20), "in pieces of %d bytes", n)
			}
		})
	}
}

func TestSSEParserHandsOverEventsOfOtherTypes(t *testing.T) {
	var got []string
	p := &sseParser{
		max:     20,
		event:   func(b []byte) { got = append(got, "message "+string(b)) },
		tooLong: func() { got = append(got, "<too long>") },
		other:   func(typ string, b []byte) { got = append(got, typ+" "+string(b)) },
	}
	p.write([]byte("event: endpoint\ndata: /messages?s=1\n\nevent: message\ndata: {}\n\nevent:\ndata: []\n\nevent: big\ndata: " + strings.Repeat("z", 30) + "\n\n"))
	assert.Equal(t, []string{"endpoint /messages?s=1", "message {}", "message []"}, got, "an event of another type past the bound is dropped")
}
