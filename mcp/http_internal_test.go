package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestParseFrameOfOneRequestAllocatesNothingBeyondReadingIt(t *testing.T) {
	body := []byte(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"add"}}`)
	fr, rerr := parseFrame(body)
	require.Nil(t, rerr)
	require.Equal(t, 1, fr.requests.len())
	read := testing.AllocsPerRun(100, func() { _, _ = rpc.ParseFrame(body) })
	classified := testing.AllocsPerRun(100, func() { _, _ = parseFrame(body) })
	assert.Equal(t, read, classified, "the request's id is held without a slice or a map")
}
