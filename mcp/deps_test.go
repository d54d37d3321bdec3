package mcp_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackageMCPDoesNotLinkTheSchemaLibrary pins that tool schemas are
// inferred without github.com/google/jsonschema-go, whose package init
// every server would otherwise pay at start-up; the library is the tests'
// oracle only.
func TestPackageMCPDoesNotLinkTheSchemaLibrary(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("no go command to list the package's dependencies with: %v", err)
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}",
		"github.com/schemarpc/schemarpc/mcp").Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		require.NoError(t, err, "go list: %s", exit.Stderr)
	}
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/schemarpc/schemarpc/mcp", "go list names the package itself")
	for _, p := range deps {
		assert.False(t, strings.HasPrefix(p, "github.com/google/jsonschema-go/"), "package mcp links %s", p)
	}
}
