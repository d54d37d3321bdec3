package mcp_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The protocol types of package mcp are aliases of the 2025-11-25 bindings,
// and go doc shows only an alias's comment: types_gen.go carries each
// type's fields, methods and constants there, where a user looks.
func TestGoDocShowsTheFieldsOfTheProtocolTypes(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run go doc with")
	}
	tests := []struct {
		typ  string
		want []string
	}{
		{"Tool", []string{
			"type Tool = v20251125.Tool",
			"Name string `json:\"name\"`",
			"// Identifier the client passes to tools/call.",
			"InputSchema ToolSchema `json:\"inputSchema\"`",
			"Annotations *ToolAnnotations `json:\"annotations,omitempty\"`",
		}},
		{"CallToolResult", []string{
			"Content []ContentBlock `json:\"content\"`",
			"StructuredContent json.RawMessage `json:\"structuredContent,omitzero\"`",
			"IsError *bool `json:\"isError,omitempty\"`",
			"// The call failed; content describes why.",
		}},
		{"ContentBlock", []string{
			"Value ContentBlockVariant",
			"- TextContent: \"type\": \"text\"",
			"func (v ContentBlock) AsText() (*TextContent, bool)",
		}},
		{"LoggingLevel", []string{
			"type LoggingLevel string",
			"func (v LoggingLevel) IsKnown() bool",
			"const LoggingLevelDebug LoggingLevel = v20251125.LoggingLevelDebug",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			cmd := exec.Command(goBin, "doc", ".", tt.typ)
			cmd.Env = append(os.Environ(), "GOPROXY=off")
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "go doc . %s:\n%s", tt.typ, out)
			for _, w := range tt.want {
				assert.Contains(t, squeeze(string(out)), w, "go doc . %s", tt.typ)
			}
		})
	}
}

// squeeze turns each run of spaces and tabs into one space, as gofmt's
// alignment of fields varies with their neighbours.
func squeeze(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}
