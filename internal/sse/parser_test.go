package sse

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// parse feeds stream in pieces of n bytes to a parser bounded by max and
// returns the blocks it handed over, their data as strings.
func parse(stream string, n, max int) []Event {
	var got []Event
	p := NewParser(max, func(e *Event) {
		ev := *e
		ev.Data = []byte(string(e.Data))
		got = append(got, ev)
	})
	for len(stream) > 0 {
		k := min(n, len(stream))
		_, _ = p.Write([]byte(stream[:k]))
		stream = stream[k:]
	}
	return got
}

func TestParserHandsOverEveryBlockWithAField(t *testing.T) {
	long := strings.Repeat("x", 30)
	tests := []struct {
		name   string
		stream string
		want   []Event
	}{
		{"all the fields", "event: e\nid: 1\nretry: 20\ndata: a\ndata: b\n\n",
			[]Event{{Type: "e", ID: "1", HasID: true, Retry: 20_000_000, Data: []byte("a\nb"), HasData: true}}},
		{"blank lines and comments alone hand over nothing", "\n\n: c\n\n\r\n", nil},
		{"a byte order mark at the start is dropped", "\xef\xbb\xbfid: 1\n\n", []Event{{ID: "1", HasID: true, Data: []byte{}}}},
		{"a byte order mark later is kept", "id: 1\n\n\xef\xbb\xbfid: 2\n\n", []Event{{ID: "1", HasID: true, Data: []byte{}}, {Data: []byte{}}}},
		{"a stream shorter than a byte order mark", "\xef\xbb", nil},
		{"data past the bound", "data: " + long + "\n\n", []Event{{HasData: true, TooLong: true, Data: []byte{}}}},
		{"data adding up past the bound", "data: " + long[:15] + "\ndata: " + long[:15] + "\nid: 3\n\n",
			[]Event{{HasData: true, TooLong: true, ID: "3", HasID: true, Data: []byte{}}}},
		{"a comment past the bound", ": " + long + long + "\n\n", []Event{{TooLong: true, Data: []byte{}}}},
		{"an event type past the bound", "event: " + long + "\ndata: x\n\n", []Event{{HasData: true, TooLong: true, Data: []byte{}}}},
		{"the next block is whole again", "data: " + long + "\n\ndata: y\n\n",
			[]Event{{HasData: true, TooLong: true, Data: []byte{}}, {HasData: true, Data: []byte("y")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for n := 1; n <= len(tt.stream); n++ {
				assert.Equal(t, tt.want, parse(tt.stream, n, 20), "in pieces of %d bytes", n)
			}
		})
	}
}

func TestParserOverflowedReportsAnOpenBlockPastTheBound(t *testing.T) {
	p := NewParser(10, func(*Event) {})
	_, _ = p.Write([]byte("data: 12345"))
	assert.False(t, p.Overflowed())
	_, _ = p.Write([]byte("678901"))
	assert.True(t, p.Overflowed(), "the line is past the bound before it ends")
	_, _ = p.Write([]byte("\n"))
	assert.True(t, p.Overflowed(), "the block is past the bound until it ends")
	_, _ = p.Write([]byte("\n"))
	assert.False(t, p.Overflowed(), "a new block starts within the bound")
}

func TestParserDoesNotHoldALongEvent(t *testing.T) {
	p := NewParser(10, func(*Event) {})
	_, _ = p.Write([]byte("data: "))
	for range 1000 {
		_, _ = p.Write([]byte(strings.Repeat("y", 1000)))
	}
	assert.LessOrEqual(t, cap(p.line), 1000)
	assert.LessOrEqual(t, cap(p.ev.Data), 1000)
}
