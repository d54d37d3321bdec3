package mcpcheck

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/schemarpc/schemarpc/schema"
)

// Versions are the protocol versions a Checker knows, oldest first: the
// handshake versions, then the stateless StatelessVersion. Each has its own
// schema in schema.FS, under mcp/<version>.
var Versions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", StatelessVersion}

// StatelessVersion is the stateless revision: no handshake, version and client
// capabilities in every request's _meta. Its messages are checked against
// our schema/mcp/2026-07-28.
const StatelessVersion = "2026-07-28"

// batchVersion is the only version whose sessions may carry JSON-RPC batches.
const batchVersion = "2025-03-26"

// knownVersion reports whether v is one of Versions.
func knownVersion(v string) bool { return slices.Contains(Versions, v) }

// methodVersions maps every method of our schemas to the versions, oldest
// first, whose index lists it. It is read once from schema.FS.
var methodVersions = sync.OnceValues(func() (map[string][]string, error) {
	out := map[string][]string{}
	for _, v := range Versions {
		b, err := fs.ReadFile(schema.FS, "mcp/"+v+"/index.json")
		if err != nil {
			return nil, fmt.Errorf("mcpcheck: %w", err)
		}
		var idx struct {
			Methods []struct {
				Name string `json:"name"`
			} `json:"methods"`
		}
		if err := json.Unmarshal(b, &idx); err != nil {
			return nil, fmt.Errorf("mcpcheck: mcp/%s/index.json: %w", v, err)
		}
		for _, m := range idx.Methods {
			out[m.Name] = append(out[m.Name], v)
		}
	}
	return out, nil
})

// absent reports a request or notification (kind) of a method our schema of
// version v does not list, saying why: it belongs to a later version, it
// was dropped before v, or no version has it.
func absent(kind, method, v string) error {
	history, err := methodVersions()
	if err != nil {
		return err
	}
	have := history[method]
	for _, w := range have {
		if w > v {
			return fmt.Errorf("%s %q does not exist in protocol version %s (it appeared in %s)", kind, method, v, w)
		}
	}
	if len(have) > 0 {
		return fmt.Errorf("%s %q is not an MCP method in %s (the last version that had it is %s)", kind, method, v, have[len(have)-1])
	}
	return fmt.Errorf("%s %q is not an MCP method", kind, method)
}
