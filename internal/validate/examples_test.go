package validate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// examplesDir returns the published 2026-07-28 example messages, or skips.
func examplesDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "mcp-spec", "2026-07-28", "examples")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the published MCP examples are not beside the repository (%s): %v", dir, err)
	}
	return dir
}

// example is one published example that is a whole JSON-RPC message.
type example struct {
	def, file string
	msg       map[string]any
}

// wireExamples reads every example that is a JSON-RPC message (it has
// "jsonrpc"); the others are fragments (a result alone, an input request's
// payload).
func wireExamples(t *testing.T) []example {
	dir := examplesDir(t)
	defs, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []example
	for _, d := range defs {
		files, err := filepath.Glob(filepath.Join(dir, d.Name(), "*.json"))
		require.NoError(t, err)
		sort.Strings(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			var m map[string]any
			if json.Unmarshal(b, &m) != nil || m["jsonrpc"] == nil {
				continue
			}
			out = append(out, example{def: d.Name(), file: f, msg: m})
		}
	}
	require.NotEmpty(t, out)
	return out
}

// requestFor finds the published request example of the method a response
// definition answers (CallToolResultResponse → CallToolRequest).
func requestFor(t *testing.T, all []example, responseDef string) map[string]any {
	want := strings.TrimSuffix(responseDef, "ResultResponse") + "Request"
	for _, e := range all {
		if e.def == want {
			return e.msg
		}
	}
	return nil
}

// knownBadExamples are published examples that break the published schema
// itself, with the finding our set reports.
var knownBadExamples = map[string]struct {
	code    int
	pointer string
}{
	// The example's result lacks ttlMs and cacheScope, which the published
	// ReadResourceResult requires.
	"ReadResourceResultResponse/read-resource-result-response.json": {-32603, "/result"},
}

// transcriptOf renders an example as a conversation: a response is preceded
// by a request it answers (the published request example of its method
// with the response's id, or a ping for error responses).
func transcriptOf(t *testing.T, all []example, e example) (string, bool) {
	msg := message(e.msg) + "\n"
	_, isResponse := e.msg["result"]
	_, isError := e.msg["error"]
	if !isResponse && !isError {
		return msg, true
	}
	id := e.msg["id"]
	if id == nil {
		return msg, true // an error answering an unreadable request
	}
	req := requestFor(t, all, e.def)
	if req == nil {
		if isResponse {
			return "", false
		}
		// An error response: any request of the client will do.
		req = requestFor(t, all, "ListToolsResultResponse")
		require.NotNil(t, req)
	}
	r := map[string]any{}
	for k, v := range req {
		r[k] = v
	}
	r["id"] = id
	return message(r) + "\n" + msg, true
}

func TestPublishedExamplesAreValid(t *testing.T) {
	all := wireExamples(t)
	for _, set := range []string{"mcp/2026-07-28", "mcp"} {
		t.Run(set, func(t *testing.T) {
			checked := 0
			for _, e := range all {
				tr, ok := transcriptOf(t, all, e)
				if !assert.True(t, ok, "%s: no request to pair the response with", e.file) {
					continue
				}
				got := check(t, set, tr)
				checked++
				if bad, known := knownBadExamples[e.def+"/"+filepath.Base(e.file)]; known {
					require.Len(t, got, 1, "%s: %+v", e.file, got)
					assert.Equal(t, bad.code, got[0].Code)
					assert.True(t, strings.HasPrefix(got[0].Pointer, bad.pointer))
					continue
				}
				assert.Empty(t, got, "%s", e.file)
			}
			t.Logf("%d published example messages checked", checked)
		})
	}
}

// TestPublishedResponsesAloneAreValid checks each published response as a
// fixture on its own: no request says what it answers, so it is checked
// against every result that could fit; the one that breaks the published
// schema is an unmatched response.
func TestPublishedResponsesAloneAreValid(t *testing.T) {
	checked := 0
	for _, e := range wireExamples(t) {
		if _, ok := e.msg["result"]; !ok {
			continue
		}
		checked++
		got, _ := follow(t, message(e.msg)+"\n")
		if bad, known := knownBadExamples[e.def+"/"+filepath.Base(e.file)]; known {
			require.Len(t, got, 1, "%s: %+v", e.file, got)
			assert.Equal(t, bad.code, got[0].Code)
			assert.Contains(t, got[0].Reason, validate.UnmatchedResponse)
			continue
		}
		assert.Empty(t, got, "%s", e.file)
	}
	require.NotZero(t, checked)
	t.Logf("%d published responses checked alone", checked)
}

// TestMutatedPublishedExamplesAreReported breaks each published message in
// the ways the runtime tells apart: a bad jsonrpc and a bad id (-32600),
// an unknown method (-32601), the params' _meta removed or of the wrong
// type (-32602), and a result's resultType removed or of the wrong type
// (-32603).
func TestMutatedPublishedExamplesAreReported(t *testing.T) {
	all := wireExamples(t)
	set, err := validate.Open("mcp/2026-07-28")
	require.NoError(t, err)
	n := 0
	expect := func(name, transcript string, code int, pointer string) {
		n++
		c := set.NewChecker()
		var got []validate.Finding
		require.NoError(t, validate.Read(strings.NewReader(transcript), "m.jsonl", validate.JSONLines, 0, func(it validate.Item) error {
			got = append(got, c.CheckItem(it, validate.Unknown)...)
			return nil
		}))
		if !assert.NotEmpty(t, got, name) {
			return
		}
		assert.Equal(t, code, got[0].Code, "%s: %+v", name, got[0])
		assert.True(t, strings.HasPrefix(got[0].Pointer, pointer), "%s: pointer %q not under %q", name, got[0].Pointer, pointer)
	}
	var mutate func(m map[string]any, path []string, val any) map[string]any
	mutate = func(m map[string]any, path []string, val any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = v
		}
		if len(path) == 1 {
			if val == nil {
				delete(out, path[0])
			} else {
				out[path[0]] = val
			}
			return out
		}
		inner, _ := out[path[0]].(map[string]any)
		out[path[0]] = mutate(inner, path[1:], val)
		return out
	}
	for _, e := range all {
		tr, ok := transcriptOf(t, all, e)
		if !ok || knownBadExamples[e.def+"/"+filepath.Base(e.file)].code != 0 {
			continue
		}
		lines := strings.Split(strings.TrimSpace(tr), "\n")
		prefix := strings.Join(lines[:len(lines)-1], "\n")
		if prefix != "" {
			prefix += "\n"
		}
		last := func(m map[string]any) string { return prefix + message(m) + "\n" }
		expect(e.file+" jsonrpc", last(mutate(e.msg, []string{"jsonrpc"}, "1.0")), -32600, "/jsonrpc")
		if _, has := e.msg["id"]; has {
			expect(e.file+" id", last(mutate(e.msg, []string{"id"}, []any{1})), -32600, "/id")
		}
		if method, ok := e.msg["method"].(string); ok {
			expect(e.file+" method", last(mutate(e.msg, []string{"method"}, method+"/nope")), -32601, "")
			if e.msg["id"] != nil { // a notification's _meta is optional
				expect(e.file+" no _meta", last(mutate(e.msg, []string{"params", "_meta"}, nil)), -32602, "/params")
			}
			expect(e.file+" _meta type", last(mutate(e.msg, []string{"params", "_meta"}, "x")), -32602, "/params/_meta")
		}
		if res, ok := e.msg["result"].(map[string]any); ok && res["resultType"] != nil {
			expect(e.file+" no resultType", last(mutate(e.msg, []string{"result", "resultType"}, nil)), -32603, "/result")
			expect(e.file+" resultType type", last(mutate(e.msg, []string{"result", "resultType"}, 7)), -32603, "/result")
		}
	}
	t.Logf("%d mutants of published examples reported with the expected code", n)
}
