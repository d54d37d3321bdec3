package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// marshalResult asks a result's own MarshalJSON, except for a nil
// pointer, which encodes as null instead of panicking in a value-receiver
// method.
func TestMarshalResultAsksTheResultUnlessItIsANilPointer(t *testing.T) {
	b, err := marshalResult(CallToolResult{Content: []ContentBlock{Text("hi")}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"hi"}]}`, string(b))

	b, err = marshalResult((*CallToolResult)(nil))
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))

	b, err = marshalResult(map[string]int{"a": 1})
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":1}`, string(b))
}
