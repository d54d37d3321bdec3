package mcpcheck_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

func TestHandshakeSchemasLoadInTheGenerator(t *testing.T) {
	for _, version := range handshakeVersions {
		t.Run(version, func(t *testing.T) {
			// As in mcp/v20251125/rpcgen.json, the elicitation form is raw
			// JSON: the generator cannot tell its field schemas apart.
			cfg := &gen.Config{Types: map[string]string{
				"elicitation.json#/$defs/ElicitRequestParams/properties/requestedSchema": "encoding/json.RawMessage",
			}}
			if version < "2025-06-18" {
				cfg = nil // no elicitation yet
			}
			files, err := gen.Generate(gen.Options{
				Input:   filepath.Join("..", "..", "schema", "mcp", version, "index.json"),
				Package: "mcp",
				Format:  gen.FormatSchemarpc,
				Config:  cfg,
			})
			require.NoError(t, err)
			names := map[string]bool{}
			for _, f := range files {
				names[f.Name] = true
				assert.NotEmpty(t, f.Content, f.Name)
			}
			assert.True(t, names["types_gen.go"] && names["methods_gen.go"], "generated %v", names)
		})
	}
}
