package mcpcheck_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
)

// handshakeVersions are the handshake versions older than 2025-11-25. Each has
// its own schema under schema/mcp/<version> and a fixture corpus under
// testdata/<version>/methods.json, which the tests of this file and its
// siblings compare with the published schema of the same version.
var handshakeVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18"}

// fixture is one hand-written message of a corpus: a method's params and,
// for a request, a result answering them.
type fixture struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

func (f fixture) name(i int) string { return fmt.Sprintf("%d-%s", i, f.Method) }

// handshakeFixtures reads the corpus of one version.
func handshakeFixtures(t *testing.T, version string) []fixture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", version, "methods.json"))
	require.NoError(t, err)
	var fs []fixture
	require.NoError(t, json.Unmarshal(b, &fs), version)
	require.NotEmpty(t, fs, version)
	return fs
}

// oursFor loads our schema of one version.
func oursFor(t *testing.T, version string) *mcpcheck.Ours {
	t.Helper()
	o, err := mcpcheck.LoadOursFor(version)
	require.NoError(t, err, version)
	return o
}

// publishedFor loads the published schema.json of one version, or skips the
// test when ../shared/mcp-spec (relative to the repository root) is absent.
func publishedFor(t *testing.T, version string) (*mcpcheck.Published, string) {
	t.Helper()
	dir, err := mcpcheck.FindSpecDir()
	if errors.Is(err, mcpcheck.ErrNoSpec) {
		t.Skip("../shared/mcp-spec not found above the working directory: the published MCP schemas are not available, so the differential checks of the older versions are skipped")
	}
	require.NoError(t, err)
	p, err := mcpcheck.LoadPublished(dir, version)
	require.NoError(t, err)
	return p, dir
}

// parse reads JSON the way the validator wants it (numbers as
// json.Number); absent raw is read as def.
func parse(t *testing.T, raw json.RawMessage, def string) any {
	t.Helper()
	if raw == nil {
		raw = json.RawMessage(def)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	require.NoError(t, err)
	return v
}

// defName is the definition name a schema location points at.
func defName(location string) string {
	return location[strings.LastIndex(location, "/")+1:]
}

// wrap makes the wire message the published message definitions describe.
func wrap(method string, notification bool, params any) map[string]any {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if !notification {
		msg["id"] = json.Number("1")
	}
	if params != nil {
		msg["params"] = params
	}
	return msg
}

func TestHandshakeFixturesCoverEveryMethod(t *testing.T) {
	for _, version := range handshakeVersions {
		t.Run(version, func(t *testing.T) {
			o := oursFor(t, version)
			have := map[string]int{}
			for i, f := range handshakeFixtures(t, version) {
				m, ok := o.Method(f.Method)
				if !assert.True(t, ok, "%s: our %s schema has no such method", f.name(i), version) {
					continue
				}
				have[f.Method]++
				if m.Notification {
					assert.Nil(t, f.Result, "%s: a notification has no result", f.name(i))
				} else {
					assert.NotNil(t, f.Result, "%s: a request fixture needs a result", f.name(i))
				}
			}
			for _, m := range o.Methods() {
				assert.NotZero(t, have[m.Name], "no fixture for %s", m.Name)
			}
		})
	}
}

func TestHandshakeFixturesAreValidAgainstOurSchemas(t *testing.T) {
	for _, version := range handshakeVersions {
		o := oursFor(t, version)
		for i, f := range handshakeFixtures(t, version) {
			t.Run(version+"/"+f.name(i), func(t *testing.T) {
				m, ok := o.Method(f.Method)
				require.True(t, ok)
				sch, err := o.Compile(m.Params)
				require.NoError(t, err)
				assert.NoError(t, sch.Validate(parse(t, f.Params, "{}")), "params")
				if m.Notification {
					return
				}
				sch, err = o.Compile(m.Result)
				require.NoError(t, err)
				assert.NoError(t, sch.Validate(parse(t, f.Result, "")), "result")
			})
		}
	}
}

func TestHandshakeFixturesAreValidAgainstThePublishedSchemas(t *testing.T) {
	for _, version := range handshakeVersions {
		p, _ := publishedFor(t, version)
		o := oursFor(t, version)
		for i, f := range handshakeFixtures(t, version) {
			t.Run(version+"/"+f.name(i), func(t *testing.T) {
				m, _ := o.Method(f.Method)
				msgDef, ok := p.MessageDef(f.Method)
				require.True(t, ok, "the published %s schema has no message %s", version, f.Method)
				sch, err := p.Def(msgDef)
				require.NoError(t, err)
				var params any
				if f.Params != nil {
					params = parse(t, f.Params, "")
				}
				assert.NoError(t, sch.Validate(wrap(f.Method, m.Notification, params)), "params against the published %s", msgDef)
				if m.Notification {
					return
				}
				// Our result definition has the published name, and the
				// result is valid against both.
				ours := defName(m.Result)
				require.Contains(t, p.ResultDefs(f.Method), ours, "our result definition of %s is not the published one", f.Method)
				sch, err = p.Def(ours)
				require.NoError(t, err)
				assert.NoError(t, sch.Validate(parse(t, f.Result, "")), "result against the published %s", ours)
			})
		}
	}
}
