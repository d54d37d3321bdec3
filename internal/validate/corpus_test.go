package validate_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// allVersions are the MCP revisions with a built-in set.
var allVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// fixture is one entry of the method fixtures of our MCP bindings.
type fixture struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

func loadFixtures(t *testing.T, version string) []fixture {
	t.Helper()
	// Our bindings' fixtures for the versions we generate Go for, the
	// checker's for the older ones.
	file := filepath.Join("..", "mcpcheck", "testdata", version, "methods.json")
	if version >= "2025-11-25" {
		file = filepath.Join("..", "..", "mcp", "v"+strings.ReplaceAll(version, "-", ""), "testdata", "methods.json")
	}
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var fs []fixture
	require.NoError(t, json.Unmarshal(b, &fs))
	require.NotEmpty(t, fs)
	return fs
}

func message(v map[string]any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// conversation renders fixtures as a transcript: each request followed by
// its response, each notification on its own.
func conversation(fs []fixture) string {
	var b strings.Builder
	for i, f := range fs {
		m := map[string]any{"jsonrpc": "2.0", "method": f.Method}
		if len(f.Params) > 0 {
			m["params"] = f.Params
		}
		if len(f.Result) == 0 {
			b.WriteString(message(m) + "\n")
			continue
		}
		m["id"] = i + 1
		b.WriteString(message(m) + "\n")
		b.WriteString(message(map[string]any{"jsonrpc": "2.0", "id": i + 1, "result": f.Result}) + "\n")
	}
	return b.String()
}

func TestOurFixturesAreValid(t *testing.T) {
	for _, v := range allVersions {
		t.Run(v, func(t *testing.T) {
			fs := loadFixtures(t, v)
			assert.Empty(t, check(t, "mcp/"+v, conversation(fs)))
		})
	}
}

// wrongType returns a value of another JSON type than v.
func wrongType(v any) any {
	switch v.(type) {
	case string:
		return true // not 12345: ids and progress tokens may be integers
	case map[string]any:
		return "not an object"
	case []any:
		return map[string]any{"not": "an array"}
	case float64:
		return true // not a string: ids and progress tokens may be strings
	case bool:
		return "not a boolean"
	}
	return []any{} // null
}

// anyValue lists members whose schema accepts any JSON value, so that no
// wrong type exists for them.
var anyValue = map[string]bool{"value": true, "structuredContent": true, "data": true, "tasks/result content": true}

// TestMutatedFixturesAreReported mutates each fixture: a bad jsonrpc, a bad
// id, an unknown method, each top-level member of the params or result
// removed, and each given a value of the wrong type. Envelope mutants are
// -32600, an unknown method -32601, params mutants -32602 and result
// mutants -32603; a removal that the schema allows (an optional member)
// must give no finding at all.
func TestMutatedFixturesAreReported(t *testing.T) {
	for _, v := range allVersions {
		t.Run(v, func(t *testing.T) {
			set, err := validate.Open("mcp/" + v)
			require.NoError(t, err)
			counts := map[string]int{}
			run := func(name, transcript string, code int, pointer string, optional bool) {
				c := set.NewChecker()
				var got []validate.Finding
				require.NoError(t, validate.Read(strings.NewReader(transcript), "m.jsonl", validate.JSONLines, 0, func(it validate.Item) error {
					got = append(got, c.CheckItem(it, validate.Unknown)...)
					return nil
				}))
				if optional && len(got) == 0 {
					counts["optional"]++
					return
				}
				if !assert.NotEmpty(t, got, name) {
					return
				}
				counts[fmt.Sprint(code)]++
				for _, f := range got {
					assert.Equal(t, code, f.Code, "%s: %+v", name, f)
					assert.True(t, strings.HasPrefix(f.Pointer, pointer), "%s: pointer %q not under %q", name, f.Pointer, pointer)
				}
			}
			for i, f := range loadFixtures(t, v) {
				name := fmt.Sprintf("%s #%d", f.Method, i)
				req := map[string]any{"jsonrpc": "2.0", "method": f.Method}
				if len(f.Params) > 0 {
					req["params"] = f.Params
				}
				isReq := len(f.Result) > 0
				if isReq {
					req["id"] = 1
				}
				with := func(k string, val any) string {
					m := map[string]any{}
					for kk, vv := range req {
						m[kk] = vv
					}
					m[k] = val
					return message(m) + "\n"
				}
				run(name+" jsonrpc 1.0", with("jsonrpc", "1.0"), -32600, "/jsonrpc", false)
				run(name+" unknown method", with("method", f.Method+"/nope"), -32601, "", false)
				if isReq {
					run(name+" id object", with("id", map[string]any{"x": 1}), -32600, "/id", false)
				}
				var params map[string]any
				if json.Unmarshal(f.Params, &params) == nil {
					for _, k := range sortedKeys(params) {
						if k == "_meta" && v != "2026-07-28" {
							continue
						}
						p := copyWithout(params, k)
						run(name+" params without "+k, with("params", p), -32602, "/params", true)
						if !anyValue[k] {
							p[k] = wrongType(params[k])
							run(name+" params "+k+" of the wrong type", with("params", p), -32602, "/params", false)
						}
					}
				}
				var result map[string]any
				if isReq && json.Unmarshal(f.Result, &result) == nil {
					request := message(req) + "\n"
					for _, k := range sortedKeys(result) {
						r := copyWithout(result, k)
						run(name+" result without "+k, request+message(map[string]any{"jsonrpc": "2.0", "id": 1, "result": r})+"\n", -32603, "/result", true)
						if !anyValue[k] && !anyValue[f.Method+" "+k] && k != "_meta" {
							r[k] = wrongType(result[k])
							run(name+" result "+k+" of the wrong type", request+message(map[string]any{"jsonrpc": "2.0", "id": 1, "result": r})+"\n", -32603, "/result", false)
						}
					}
				}
			}
			t.Logf("%s mutants: %v", v, counts)
		})
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func copyWithout(m map[string]any, drop string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != drop {
			out[k] = v
		}
	}
	return out
}
