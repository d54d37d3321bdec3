package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const validSession = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// withStdin runs f with stdin reading in.
func withStdin(t *testing.T, in string, f func()) {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(in)
	defer func() { stdin = old }()
	f()
}

func TestValidateAllValidExitsZero(t *testing.T) {
	file := writeFile(t, t.TempDir(), "s.jsonl", validSession)
	code, stdout, stderr := rpcgen("validate", "--schema", "mcp/2025-11-25", file)
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "3 messages in 1 input checked, 0 findings\n", stdout)
}

func TestValidateFindingsExitOne(t *testing.T) {
	file := writeFile(t, t.TempDir(), "s.jsonl", validSession+`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":1}}`+"\n")
	code, stdout, _ := rpcgen("validate", "--schema", "mcp/2025-11-25", file)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, "s.jsonl:4: message 4 (request tools/call from the client): -32602 invalid params at /params/name: is number, not string\n")
	assert.Contains(t, stdout, "1 finding")
}

func TestValidateReadsStdin(t *testing.T) {
	withStdin(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, func() {
		code, stdout, _ := rpcgen("validate", "--schema", "jsonrpc")
		assert.Equal(t, exitOK, code)
		assert.Contains(t, stdout, "1 message in 1 input")
	})
	withStdin(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"+`{"jsonrpc":"2.0","id":1,"result":{}}`+"\n", func() {
		code, _, _ := rpcgen("validate", "--schema", "mcp/2025-11-25", "-")
		assert.Equal(t, exitOK, code, "ping answered with {}")
	})
	withStdin(t, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, func() {
		code, stdout, _ := rpcgen("validate", "--schema", "mcp/2025-11-25", "--input", "message")
		assert.Equal(t, exitFail, code, "a batch in 2025-11-25")
		assert.Contains(t, stdout, "no batches")
	})
}

func TestValidateEachFormat(t *testing.T) {
	file := writeFile(t, t.TempDir(), "s.jsonl", `{"jsonrpc":"1.0","id":1,"method":"ping"}`+"\n")
	code, stdout, _ := rpcgen("validate", "--schema", "jsonrpc", "--format", "json", file)
	assert.Equal(t, exitFail, code)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc), stdout)
	code, stdout, _ = rpcgen("validate", "--schema", "jsonrpc", "--format", "github", file)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, "::error file="+file+",line=1,title=JSON-RPC -32600 invalid request::")
	code, stdout, _ = rpcgen("validate", "--schema", "jsonrpc", "--format", "sarif", file)
	assert.Equal(t, exitFail, code)
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc), stdout)
	assert.Equal(t, "2.1.0", doc["version"])
}

func TestValidateFromAndSchemaFile(t *testing.T) {
	dir := t.TempDir()
	schema := writeFile(t, dir, "svc.json", goodIndex)
	file := writeFile(t, dir, "m.json", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"result":7}]`)
	code, stdout, _ := rpcgen("validate", "--schema", schema, file)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, "m.json:1: message 2 (response ping")
	assert.Contains(t, stdout, "-32603 invalid result at /result: is number, not string")
	// --from server: the server sent ping, so the answer is the client's.
	code, stdout, _ = rpcgen("validate", "--schema", schema, "--from", "server", file)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, "-32601 method not found")
}

func TestValidateUsageAndInputErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.jsonl", `{"jsonrpc":"2.0","method":"x"}`+"\n")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"empty schema", []string{"--schema", "", good}, "--schema is empty"},
		{"unknown set", []string{"--schema", "mcp/1999-01-01", good}, "unknown built-in set"},
		{"bad schema file", []string{"--schema", writeFile(t, dir, "bad.json", "{"), good}, "schema"},
		{"bad from", []string{"--schema", "jsonrpc", "--from", "proxy", good}, "--from"},
		{"bad input", []string{"--schema", "jsonrpc", "--input", "xml", good}, "--input"},
		{"bad format", []string{"--schema", "jsonrpc", "--format", "xml", good}, "--format"},
		{"bad size", []string{"--schema", "jsonrpc", "--max-message-size", "0", good}, "--max-message-size"},
		{"bad flag", []string{"--nope"}, "flag provided but not defined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := rpcgen(append([]string{"validate"}, c.args...)...)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, stderr, c.want)
		})
	}
	// A missing file is an input error, but the other files are still
	// checked and reported.
	bad := writeFile(t, dir, "bad.jsonl", `{"jsonrpc":"2.0","id":1}`+"\n")
	code, stdout, stderr := rpcgen("validate", "--schema", "jsonrpc", dir+"/missing.jsonl", bad)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "missing.jsonl")
	assert.Contains(t, stdout, "bad.jsonl:1: message 1")
}

func TestValidateListsSetsAndHelp(t *testing.T) {
	code, stdout, _ := rpcgen("validate", "--list-sets")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stdout, "jsonrpc\n")
	assert.Contains(t, stdout, "mcp/2026-07-28\n")
	code, stdout, _ = rpcgen("help", "validate")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stdout, "usage: rpcgen validate")
	assert.Contains(t, stdout, "-max-message-size")
}

func TestValidateAReportThatCannotBeWritten(t *testing.T) {
	file := writeFile(t, t.TempDir(), "s.jsonl", `{"jsonrpc":"1.0"}`+"\n")
	var errOut strings.Builder
	code := run([]string{"validate", "--schema", "jsonrpc", file}, brokenWriter{}, &errOut)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut.String(), "report")
	assert.Equal(t, "rpcgen validate: writing the report: "+assert.AnError.Error()+"\n", errOut.String(),
		"the first failed write ends the run, and is not blamed on the input file")
}

type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, assert.AnError }

func TestValidateKeepsTheSessionsOfATranscriptApart(t *testing.T) {
	// Two HTTP sessions both use id 1 at once: as records of two sessions
	// they are fine; without the session names they would collide.
	transcript := `{"from":"client","session":"a","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"from":"client","session":"b","message":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}
{"from":"server","session":"b","message":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}
{"from":"server","session":"a","message":{"jsonrpc":"2.0","id":1,"result":{}}}
`
	file := writeFile(t, t.TempDir(), "s.jsonl", transcript)
	code, stdout, _ := rpcgen("validate", "--schema", "mcp/2025-11-25", file)
	assert.Equal(t, exitOK, code, stdout)
	merged := writeFile(t, t.TempDir(), "m.jsonl", strings.NewReplacer(`"session":"a",`, "", `"session":"b",`, "").Replace(transcript))
	code, stdout, _ = rpcgen("validate", "--schema", "mcp/2025-11-25", merged)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, "already used by the unanswered request")
	bad := writeFile(t, t.TempDir(), "b.jsonl", `{"from":"client","session":7,"message":{"jsonrpc":"2.0","method":"x"}}`+"\n")
	code, stdout, _ = rpcgen("validate", "--schema", "jsonrpc", bad)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, "session is 7, not a string")
}

// statelessSession is a conversation as our own client begins it:
// server/discover, then stateless calls carrying their version.
const statelessSession = `{"jsonrpc":"2.0","id":"d1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":"d1","result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}}
{"jsonrpc":"2.0","id":"t1","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":"t1","result":{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public"}}
`

func TestValidateFollowsEachConversationsVersionByDefault(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "s.jsonl", statelessSession)
	code, stdout, stderr := rpcgen("validate", file)
	assert.Equal(t, exitOK, code, stdout+stderr)
	code, _, _ = rpcgen("validate", "--schema", "mcp/2025-11-25", file)
	assert.Equal(t, exitFail, code, "one handshake version flags a stateless conversation")

	// Two conversations in one transcript, a handshake one and a stateless
	// one: each is checked under its own version.
	var two strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(strings.ReplaceAll(validSession, "2025-11-25", "2024-11-05")), "\n") {
		fmt.Fprintf(&two, `{"from":"%s","session":"a","message":%s}`+"\n", map[bool]string{true: "server", false: "client"}[strings.Contains(line, `"result"`)], line)
	}
	two.WriteString(`{"from":"server","session":"a","message":{"jsonrpc":"2.0","id":"e","method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}}` + "\n")
	for _, line := range strings.Split(strings.TrimSpace(statelessSession), "\n") {
		fmt.Fprintf(&two, `{"from":"%s","session":"b","message":%s}`+"\n", map[bool]string{true: "server", false: "client"}[strings.Contains(line, `"result"`)], line)
	}
	code, stdout, _ = rpcgen("validate", writeFile(t, dir, "two.jsonl", two.String()))
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, `two.jsonl:4: message 4 (request elicitation/create from the server): -32601 method not found: method "elicitation/create" is not in mcp/2024-11-05`)
	assert.Contains(t, stdout, "8 messages in 1 input checked, 1 finding")
}

func TestValidateChecksALoneResponseAgainstEveryResultThatCouldFit(t *testing.T) {
	dir := t.TempDir()
	for _, set := range []string{"mcp", "mcp/2025-11-25"} {
		code, stdout, _ := rpcgen("validate", "--schema", set, writeFile(t, dir, "ok.json", `{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`))
		assert.Equal(t, exitOK, code, "%s: %s", set, stdout)
		code, stdout, _ = rpcgen("validate", "--schema", set, writeFile(t, dir, "bad.json", `{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":7}]}}`))
		assert.Equal(t, exitFail, code, set)
		assert.Contains(t, stdout, "bad.json:1: message 1 (response from the server): -32603 invalid result at /result/tools/0", set)
		assert.Contains(t, stdout, "unmatched response: no request in the input has id 3", set)
		assert.NotContains(t, stdout, "-32600", set)
	}
}
