package limit_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/bench/surface/limit"
)

func TestServeAnswersLineByLine(t *testing.T) {
	long := strings.Repeat("é", 100<<10) // longer than the read buffer
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		``,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + long + `"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`, // no final newline
	}, "\n")
	var out bytes.Buffer
	require.NoError(t, limit.Serve(strings.NewReader(in), &out))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":{}}`, lines[0])
	assert.Equal(t, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"`+long+`"}]}}`, lines[1])
	assert.Equal(t, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3}}}`, lines[2])
}

// failingWriter fails every write.
type failingWriter struct{}

var errWrite = errors.New("write failed")

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

// failingReader fails after its data.
type failingReader struct{ data io.Reader }

var errRead = errors.New("read failed")

func (r failingReader) Read(p []byte) (int, error) {
	n, err := r.data.Read(p)
	if err == io.EOF {
		return n, errRead
	}
	return n, err
}

func TestServeReportsTransportErrors(t *testing.T) {
	err := limit.Serve(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), failingWriter{})
	assert.ErrorIs(t, err, errWrite)
	err = limit.Serve(failingReader{strings.NewReader(`{"jsonrpc":"2.0","method":"x"}` + "\n")}, io.Discard)
	assert.ErrorIs(t, err, errRead)
}
