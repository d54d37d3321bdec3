package mcp

import (
	"net/http"
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

func TestHeaderValueReadsWhatGetReads(t *testing.T) {
	h := http.Header{}
	h.Set("mcp-session-id", "s1") // stored as net/http keys it, whatever the case sent
	h.Set("content-type", "application/json")
	h.Add("Content-Type", "text/plain")
	for _, key := range []string{sessionIDKey, "Content-Type", "Accept", protocolVersionKey} {
		assert.Equal(t, http.CanonicalHeaderKey(key), key, "%s is keyed as net/http keys it", key)
		assert.Equal(t, h.Get(key), headerValue(h, key), key)
	}
}
