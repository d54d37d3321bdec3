package v20260728_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcp "github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

func TestRequestMetaKeepsTheClientAsSentAndDecodesItOnDemand(t *testing.T) {
	in := `{"name":"add","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":{"roots":{}},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"c","version":"2"}}}`
	var p mcp.CallToolRequestParams
	require.NoError(t, rpc.DecodeJSON([]byte(in), &p))

	assert.JSONEq(t, `{"roots":{}}`, string(p.Meta.ClientCapabilities))
	assert.JSONEq(t, `{"name":"c","version":"2"}`, string(p.Meta.ClientInfo))
	caps, err := p.Meta.DecodeClientCapabilities()
	require.NoError(t, err)
	assert.NotNil(t, caps.Roots)
	info, err := p.Meta.DecodeClientInfo()
	require.NoError(t, err)
	assert.Equal(t, &mcp.Implementation{Name: "c", Version: "2"}, info)

	out, err := json.Marshal(p)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out), "encoded again as received")
}

func TestRequestMetaWithoutClientInfoDecodesToNil(t *testing.T) {
	m := mcp.RequestMetaObject{ClientCapabilities: json.RawMessage(`{}`)}
	info, err := m.DecodeClientInfo()
	require.NoError(t, err)
	assert.Nil(t, info)
}

func TestRequestMetaDecodeRefusesAMalformedClient(t *testing.T) {
	m := mcp.RequestMetaObject{ClientCapabilities: json.RawMessage(`[]`), ClientInfo: json.RawMessage(`{"name":1}`)}
	_, err := m.DecodeClientCapabilities()
	assert.Error(t, err)
	info, err := m.DecodeClientInfo()
	assert.Error(t, err)
	assert.Nil(t, info)
}
