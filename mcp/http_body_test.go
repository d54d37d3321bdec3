package mcp_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

func TestABodyShorterThanItsContentLengthIsABadRequest(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(f.ts.URL, "http://"), 5*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(5*time.Second)))
	body := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%s: %s\r\n%s: %s\r\nContent-Length: %d\r\n\r\n%s",
		mcp.HeaderSessionID, session, mcp.HeaderProtocolVersion, mcp.Version20251125, len(body)+10, body)
	require.NoError(t, conn.(*net.TCPConn).CloseWrite(), "the body ends 10 bytes early")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, errorBody(t, resp).Message, "cannot read the body")
}

func TestABodyNestedPastTheDepthLimitIsAParseError(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	nested := func(levels int) string {
		// The message object is one level, params another.
		inner := strings.Repeat("[", levels-2) + strings.Repeat("]", levels-2)
		return `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + inner + `}}`
	}
	resp := f.post(session, nested(rpc.DefaultMaxDepth+1))
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	e := errorBody(t, resp)
	assert.Equal(t, rpc.CodeParseError, e.Code)
	assert.Contains(t, e.Message, fmt.Sprintf("nesting deeper than %d levels", rpc.DefaultMaxDepth))

	resp = f.post(session, nested(rpc.DefaultMaxDepth))
	assert.Equal(t, http.StatusOK, resp.StatusCode, "exactly at the limit the body is read")
}

func TestABodyWithRepeatedNamesIsAParseError(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	resp := f.post(session, `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, rpc.CodeParseError, errorBody(t, resp).Code)
}
