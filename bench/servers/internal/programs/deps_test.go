package programs_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Import path prefixes of the libraries the servers are built with.
const (
	pathSchemaRPC  = "github.com/schemarpc/schemarpc/"
	pathBench      = "github.com/schemarpc/schemarpc/bench/"
	pathGoSDK      = "github.com/modelcontextprotocol/go-sdk/"
	pathMCPGo      = "github.com/mark3labs/mcp-go/"
	pathJSONSchema = "github.com/santhosh-tekuri/jsonschema/"
)

// isSchemaRPC reports whether path is a package of this project's library
// (the main module), not of the bench module.
func isSchemaRPC(path string) bool {
	return strings.HasPrefix(path, pathSchemaRPC) && !strings.HasPrefix(path, pathBench)
}

// TestEveryServerLinksOnlyItsOwnLibrary lists the packages each server
// command links and checks that it holds its own library and none of the
// others, so that its start-up and memory are its library's alone.
func TestEveryServerLinksOnlyItsOwnLibrary(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("no go command to list the servers' packages with: %v", err)
	}
	has := func(prefix string) func(string) bool {
		return func(p string) bool { return strings.HasPrefix(p, prefix) }
	}
	// outside reports a package that is neither the standard library's nor
	// the bench module's: any library at all.
	outside := func(p string) bool { return !strings.HasPrefix(p, pathBench) }
	tests := []struct {
		server    string
		own       func(string) bool
		forbidden map[string]func(string) bool
	}{
		{"schemarpc", isSchemaRPC, map[string]func(string) bool{"go-sdk": has(pathGoSDK), "mcp-go": has(pathMCPGo)}},
		{"gosdk", has(pathGoSDK), map[string]func(string) bool{"schemarpc": isSchemaRPC, "mcp-go": has(pathMCPGo), "jsonschema/v6": has(pathJSONSchema)}},
		{"mcpgo", has(pathMCPGo), map[string]func(string) bool{"schemarpc": isSchemaRPC, "go-sdk": has(pathGoSDK)}},
		{"limit", nil, map[string]func(string) bool{"any library": outside}},
	}
	for _, tt := range tests {
		t.Run(tt.server, func(t *testing.T) {
			out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}",
				"github.com/schemarpc/schemarpc/bench/servers/"+tt.server).Output()
			require.NoError(t, err, "go list: %s", exitStderr(err))
			deps := strings.Fields(string(out))
			require.Contains(t, deps, "github.com/schemarpc/schemarpc/bench/servers/"+tt.server, "go list names the command itself")
			if tt.own != nil {
				assert.True(t, anyOf(deps, tt.own), "the %s server links its own library", tt.server)
			}
			for lib, of := range tt.forbidden {
				for _, p := range deps {
					assert.False(t, of(p), "the %s server links %s (%s)", tt.server, lib, p)
				}
			}
		})
	}
}

func anyOf(paths []string, f func(string) bool) bool {
	for _, p := range paths {
		if f(p) {
			return true
		}
	}
	return false
}

// exitStderr is what a failed command wrote on stderr, if anything.
func exitStderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
