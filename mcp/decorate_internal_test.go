package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// A tool's result decorated without being read back is byte for byte what
// the general decoration writes, whatever members the result has.
func TestDecoratingAToolResultDirectlyWritesWhatScanningItWrites(t *testing.T) {
	yes := true
	s := NewServer(&Implementation{Name: "srv", Version: "1"}, nil)
	c := &callState{callFacts: callFacts{stateless: true, method: "tools/call"}}
	for name, r := range map[string]*CallToolResult{
		"text":                        {Content: []ContentBlock{Text("say \"hi\"\n\u00e9")}},
		"no content":                  {},
		"longer than a pooled buffer": {Content: []ContentBlock{Text(strings.Repeat("long ", 100))}},
		"structured":                  {Content: []ContentBlock{Text("3")}, StructuredContent: json.RawMessage(`{"sum":3}`)},
		"an error":                    {Content: []ContentBlock{Text("no")}, IsError: &yes},
		"extra members": {Content: []ContentBlock{Text("x")}, Extra: map[string]json.RawMessage{
			"ttlMs": json.RawMessage(`5`), "cacheScope": json.RawMessage(`"public"`), "z": json.RawMessage(`[1]`), "_meta": json.RawMessage(`{"a":1}`)}},
		"its own resultType": {Content: []ContentBlock{Text("x")}, Extra: map[string]json.RawMessage{"resultType": json.RawMessage(`"other"`)}},
		"its own _meta":      {Meta: Meta{"a": json.RawMessage(`1`)}, Content: []ContentBlock{Text("x")}},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := s.decorate(*r, c, false) // as callTool's outcome holds it
			require.NoError(t, err)
			want, err := s.decorateScanned(*r, c, false)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
			assert.True(t, json.Valid(got), "%s", got)
		})
	}
}

// spacedResult is a result whose own MarshalJSON writes JSON with
// whitespace, as a hand-written one may.
type spacedResult struct{}

func (spacedResult) MarshalJSON() ([]byte, error) {
	return []byte(`{ "content": [ { "type": "text", "text": "a b" } ] }`), nil
}

// A decorated result is compact JSON whatever its own MarshalJSON writes,
// so that it can be sent as it is (the Compact mark of the Unknown…
// variants).
func TestADecoratedResultIsCompactWhateverItsMarshalJSONWrites(t *testing.T) {
	s := NewServer(&Implementation{Name: "srv", Version: "1"}, nil)
	c := &callState{callFacts: callFacts{stateless: true, method: "prompts/get"}}
	for name, cacheable := range map[string]bool{"plain": false, "cacheable": true} {
		t.Run(name, func(t *testing.T) {
			got, err := s.decorate(spacedResult{}, c, cacheable)
			require.NoError(t, err)
			compact, err := rpc.AppendRawJSON(nil, got)
			require.NoError(t, err)
			assert.Equal(t, string(compact), string(got))
			assert.Contains(t, string(got), `"text":"a b"`)
		})
	}
}
