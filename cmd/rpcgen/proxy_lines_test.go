package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// splitAll feeds the pieces to a splitter bounded by max and returns what
// it saw: each line, and "<too long>" for each line past the bound.
func splitAll(max int, pieces ...string) []string {
	var got []string
	s := &lineSplitter{
		max:     max,
		line:    func(b []byte) { got = append(got, string(b)) },
		tooLong: func() { got = append(got, "<too long>") },
	}
	for _, p := range pieces {
		s.write([]byte(p))
	}
	s.flush()
	return got
}

func TestLineSplitterCutsLinesWhereverThePiecesEnd(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string
		want   []string
	}{
		{"one piece", []string{"{\"a\":1}\n{\"b\":2}\n"}, []string{`{"a":1}`, `{"b":2}`}},
		{"a line across pieces", []string{"{\"a\"", ":1}\n{", "\"b\":2}\n"}, []string{`{"a":1}`, `{"b":2}`}},
		{"CRLF endings, the CR in the piece before", []string{"{\"a\":1}\r", "\n{\"b\":2}\r\n"}, []string{`{"a":1}`, `{"b":2}`}},
		{"blank and white-space lines are skipped", []string{"\n \t\n\r\n{\"a\":1}\n\n"}, []string{`{"a":1}`}},
		{"a last line without newline still counts", []string{"{\"a\":1}\n{\"b\"", ":2}"}, []string{`{"a":1}`, `{"b":2}`}},
		{"nothing at all", nil, nil},
		{"not JSON is a line like any other", []string{"garbage\n"}, []string{"garbage"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, splitAll(100, tt.pieces...))
		})
	}
}

func TestLineSplitterReportsALineLongerThanTheBoundAndGoesOn(t *testing.T) {
	long := strings.Repeat("x", 25)
	tests := []struct {
		name   string
		pieces []string
		want   []string
	}{
		{"in one piece", []string{long + "\n{}\n"}, []string{"<too long>", "{}"}},
		{"in many pieces", []string{long[:10], long[10:20], long[20:] + "\n{}\n"}, []string{"<too long>", "{}"}},
		{"as the last line, unterminated", []string{"{}\n" + long}, []string{"{}", "<too long>"}},
		{"exactly at the bound is fine", []string{long[:20] + "\n"}, []string{long[:20]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, splitAll(20, tt.pieces...))
		})
	}
}

func TestLineSplitterDoesNotHoldALongLine(t *testing.T) {
	s := &lineSplitter{max: 10, line: func([]byte) {}, tooLong: func() {}}
	for range 1000 {
		s.write([]byte(strings.Repeat("y", 1000)))
	}
	assert.LessOrEqual(t, cap(s.buf), 1000, "bytes past the bound are dropped as they come")
}
