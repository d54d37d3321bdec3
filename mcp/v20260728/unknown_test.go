package v20260728_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcp "github.com/schemarpc/schemarpc/mcp/v20260728"
)

// An Unknown… variant's Raw is compacted on its way out unless it is
// marked Compact, when it is copied as it is: the mark is the program's
// word that it built the text compact.
func TestAnUnknownVariantIsCompactedUnlessMarkedCompact(t *testing.T) {
	for _, c := range []struct {
		name    string
		value   mcp.UnknownCallToolOutcome
		written string
	}{
		{"received", mcp.UnknownCallToolOutcome{Raw: json.RawMessage(`{ "a": [1, 2] }`)}, `{"a":[1,2]}`},
		{"marked compact", mcp.UnknownCallToolOutcome{Raw: json.RawMessage(`{"a":[1,2]}`), Compact: true}, `{"a":[1,2]}`},
		{"marked compact, taken at its word", mcp.UnknownCallToolOutcome{Raw: json.RawMessage(`{ "a": 1 }`), Compact: true}, `{ "a": 1 }`},
		{"empty", mcp.UnknownCallToolOutcome{Compact: true}, `null`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := mcp.CallToolOutcome{Value: &c.value}
			b, err := out.AppendJSON([]byte("x"))
			require.NoError(t, err)
			assert.Equal(t, "x"+c.written, string(b))
		})
	}
}
