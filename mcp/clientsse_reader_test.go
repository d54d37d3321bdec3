package mcp_test

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// msgRec is a dispatched message event with data d.
func msgRec(d string) mcp.SSERecordForTest { return mcp.SSERecordForTest{Data: d, Dispatch: true} }

func TestClientSSEReaderParsesTheEventStreamFormat(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []mcp.SSERecordForTest
	}{
		{"one data line", "data: {}\n\n", []mcp.SSERecordForTest{msgRec("{}")}},
		{"multi-line data joined with LF", "data: a\ndata: b\ndata:c\n\n", []mcp.SSERecordForTest{msgRec("a\nb\nc")}},
		{"CRLF line ends", "id: 7\r\ndata: x\r\n\r\n", []mcp.SSERecordForTest{{ID: "7", HasID: true, Data: "x", Dispatch: true}}},
		{"CR line ends", "event: endpoint\rdata: /m\r\r", []mcp.SSERecordForTest{{Event: "endpoint", Data: "/m", Dispatch: true}}},
		{"mixed line ends", "data: a\r\ndata: b\rdata: c\n\r\n", []mcp.SSERecordForTest{msgRec("a\nb\nc")}},
		{"comments are keep-alives", ": keep-alive\n\n: ping\ndata: x\n\n", []mcp.SSERecordForTest{msgRec("x")}},
		{"only one space after the colon is dropped", "data:  two\n\n", []mcp.SSERecordForTest{msgRec(" two")}},
		{"a field without colon has an empty value", "data\n\n", []mcp.SSERecordForTest{msgRec("")}},
		{"priming event: id and retry, empty data", "id: p1\nretry: 500\ndata: \n\n",
			[]mcp.SSERecordForTest{{ID: "p1", HasID: true, Retry: 500 * time.Millisecond, Dispatch: true}}},
		{"id alone moves the cursor without dispatch", "id: 9\n\n", []mcp.SSERecordForTest{{ID: "9", HasID: true}}},
		{"empty id resets the cursor", "id\n\n", []mcp.SSERecordForTest{{HasID: true}}},
		{"id with NUL is ignored", "id: a\x00b\ndata: x\n\n", []mcp.SSERecordForTest{msgRec("x")}},
		{"retry that is not digits is ignored", "retry: 5s\nretry: -1\ndata: x\n\n", []mcp.SSERecordForTest{msgRec("x")}},
		{"unknown fields are ignored", "foo: bar\ndata: x\n\n", []mcp.SSERecordForTest{msgRec("x")}},
		{"blank lines between events", "\n\n\ndata: 1\n\n\n\ndata: 2\n\n", []mcp.SSERecordForTest{msgRec("1"), msgRec("2")}},
		{"an unfinished event at the end is dropped", "data: 1\n\ndata: 2\n", []mcp.SSERecordForTest{msgRec("1")}},
		{"an unfinished line at the end is dropped", "data: 1\n\ndata: 2", []mcp.SSERecordForTest{msgRec("1")}},
		{"a byte order mark at the start is dropped", "\xef\xbb\xbfdata: x\n\n", []mcp.SSERecordForTest{msgRec("x")}},
		{"no BOM handling needed for plain ASCII", "event: message\ndata: x\n\n", []mcp.SSERecordForTest{{Event: "message", Data: "x", Dispatch: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mcp.ReadSSEForTest(strings.NewReader(tt.input), 1<<10)
			assert.ErrorIs(t, err, io.EOF)
			assert.Equal(t, tt.want, got)
			// The same bytes one at a time: events and CRLF pairs split
			// across reads.
			got, err = mcp.ReadSSEForTest(iotest.OneByteReader(strings.NewReader(tt.input)), 1<<10)
			assert.ErrorIs(t, err, io.EOF)
			assert.Equal(t, tt.want, got, "read one byte at a time")
		})
	}
}

func TestClientSSEReaderBoundsAnEvent(t *testing.T) {
	big := strings.Repeat("x", 300)
	tests := []struct {
		name  string
		input string
		keep  int // the records read before the error
	}{
		{"one long line", "data: 1\n\ndata: " + big + "\n\n", 1},
		{"one long line without end", "data: 1\n\ndata: " + big, 1},
		{"many short lines", "data: 1\n\n" + strings.Repeat("data: abcdefgh\n", 30) + "\n", 1},
		{"a long comment", ": " + big + "\n\ndata: 1\n\n", 0},
		{"a long comment inside an event", "data: 1\n\n: " + big + "\ndata: 2\n\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mcp.ReadSSEForTest(strings.NewReader(tt.input), 256)
			require.ErrorIs(t, err, rpc.ErrMessageTooLarge)
			assert.Len(t, got, tt.keep)
		})
	}
}

func TestClientSSEReaderReadsEventsUpToTheBound(t *testing.T) {
	data := strings.Repeat("y", 200)
	got, err := mcp.ReadSSEForTest(iotest.HalfReader(strings.NewReader("data: "+data+"\n\n")), 256)
	assert.ErrorIs(t, err, io.EOF)
	assert.Equal(t, []mcp.SSERecordForTest{msgRec(data)}, got)
}

// FuzzClientSSEReader checks that the reader never panics, keeps its bound,
// and reads the same blocks whatever the sizes of the reads.
func FuzzClientSSEReader(f *testing.F) {
	for _, seed := range []string{
		"data: {}\n\n", "id: 1\r\nretry: 10\r\ndata: a\r\n\r\n", "event: endpoint\rdata: /m\r\r",
		": c\n\ndata\n\n", "data: a\ndata: b\n", "\r\n\r\n\r", "id: \x00\nretry: 99999999999\n\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		whole, errWhole := mcp.ReadSSEForTest(strings.NewReader(input), 64)
		bytewise, errBytes := mcp.ReadSSEForTest(iotest.OneByteReader(strings.NewReader(input)), 64)
		require.Equal(t, whole, bytewise)
		require.Equal(t, errWhole == io.EOF, errBytes == io.EOF)
		for _, r := range whole {
			require.LessOrEqual(t, len(r.Data), 64)
		}
	})
}
