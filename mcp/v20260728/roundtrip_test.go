package v20260728_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundTrip decodes raw into v and checks that encoding v gives the same
// JSON.
func roundTrip(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(raw, v), "decoding into %T", v)
	out, err := json.Marshal(v)
	require.NoError(t, err, "encoding %T", v)
	assert.JSONEq(t, string(raw), string(out), "%T", v)
}
