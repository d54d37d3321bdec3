package mcp_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

type selfContaining struct {
	Children []selfContaining `json:"children"`
}

func TestATypeWithNoSchemaIsRefusedNamingIt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		infer func() (json.RawMessage, error)
		want  string
	}{
		{"chan field", mcp.SchemaFor[struct{ C chan int }], "type chan int has no JSON form"},
		{"func in a slice", mcp.SchemaFor[struct{ F []func() }], "type func() has no JSON form"},
		{"complex", mcp.SchemaFor[complex64], "type complex64 has no JSON form"},
		{"int keys", mcp.SchemaFor[map[int]string], "map[int]string: a map key of type int has no JSON Schema"},
		{"cycle", mcp.SchemaFor[selfContaining], "cycle detected for type mcp_test.selfContaining"},
		{"embedded time", mcp.SchemaFor[struct{ time.Time }], "embeds time.Time, which is not a JSON object"},
		{"empty tag", mcp.SchemaFor[struct {
			N int `jsonschema:""`
		}], "empty jsonschema tag on struct field struct { N int \"jsonschema:\\\"\\\"\" }.N"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.infer()
			require.Error(t, err)
			assert.Contains(t, err.Error(), "mcp: cannot derive a JSON Schema from")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// cycleThroughIgnored refers to itself only through a field encoding/json
// leaves out.
type cycleThroughIgnored struct {
	N    int                  `json:"n"`
	Next *cycleThroughIgnored `json:"-"`
}

// A struct none of whose fields is encoded is an object that takes no
// property, and a type that refers to itself only through a field
// encoding/json leaves out is no cycle: the schema follows what the JSON
// form holds.
func TestASchemaFollowsTheFieldsEncodingJSONWrites(t *testing.T) {
	type nothingEncoded struct {
		hidden int
		X      int `json:"-"`
	}
	for _, tc := range []struct {
		name  string
		infer func() (json.RawMessage, error)
		want  string
	}{
		{"no field encoded", mcp.SchemaFor[nothingEncoded], `{"type":"object","properties":{},"additionalProperties":false}`},
		{"a cycle through an ignored field", mcp.SchemaFor[cycleThroughIgnored], `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.infer()
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
		})
	}
}
