package validate_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// want is an expected finding: its index, code and pointer.
type want struct {
	index   int
	code    int
	pointer string
	reason  string // a fragment of the reason, when it matters
}

// check runs a JSON Lines transcript through a fresh checker of the set.
func check(t *testing.T, set string, transcript string) []validate.Finding {
	t.Helper()
	c := openSet(t, set).NewChecker()
	var out []validate.Finding
	err := validate.Read(strings.NewReader(transcript), "t.jsonl", validate.JSONLines, 0, func(it validate.Item) error {
		out = append(out, c.CheckItem(it, validate.Unknown)...)
		return nil
	})
	require.NoError(t, err)
	return out
}

var (
	setsMu sync.Mutex
	sets   = map[string]*validate.Set{}
)

// openSet opens a set once per test binary: compiling is the slow part.
func openSet(t *testing.T, name string) *validate.Set {
	t.Helper()
	setsMu.Lock()
	defer setsMu.Unlock()
	if s, ok := sets[name]; ok {
		return s
	}
	s, err := validate.Open(name)
	require.NoError(t, err)
	sets[name] = s
	return s
}

func assertFindings(t *testing.T, got []validate.Finding, wants ...want) {
	t.Helper()
	require.Len(t, got, len(wants), "findings: %+v", got)
	for i, w := range wants {
		assert.Equal(t, w.index, got[i].Index, "finding %d: %+v", i, got[i])
		assert.Equal(t, w.code, got[i].Code, "finding %d: %+v", i, got[i])
		assert.Equal(t, w.pointer, got[i].Pointer, "finding %d: %+v", i, got[i])
		assert.Contains(t, got[i].Reason, w.reason, "finding %d", i)
	}
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

func TestAValidSessionHasNoFindings(t *testing.T) {
	got := check(t, "mcp/2025-11-25", initialize+`{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":"s1","method":"roots/list"}
{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}
{"jsonrpc":"2.0","id":"s1","result":{"roots":[]}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}
{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"unknown tool"}}
{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}
`)
	assert.Empty(t, got)
}

func TestEnvelopeFindings(t *testing.T) {
	got := check(t, "jsonrpc", `{"jsonrpc":"1.0","id":1,"method":"m"}
{"jsonrpc":"2.0","id":{"no":1},"method":"m"}
{"jsonrpc":"2.0","method":7}
{"jsonrpc":"2.0","id":5,"result":1,"error":{"code":1,"message":"x"}}
[]
not json
7
`)
	assertFindings(t, got,
		want{1, -32600, "/jsonrpc", ""},
		want{2, -32600, "/id", ""},
		want{3, -32600, "/method", ""},
		want{4, -32600, "", ""},
		want{5, -32600, "", "empty batch"},
		want{6, -32700, "", "not JSON"},
		want{7, -32600, "", "JSON object"},
	)
}

func TestTheEnvelopeSetAcceptsAnyMethodAndBatches(t *testing.T) {
	got := check(t, "jsonrpc", `[{"jsonrpc":"2.0","id":1,"method":"whatever","params":[1,2]},{"jsonrpc":"2.0","method":"note"}]
[{"jsonrpc":"2.0","id":1,"result":3}]
`)
	assert.Empty(t, got)
}

func TestIDsAreTrackedPerSender(t *testing.T) {
	// Both sides use id 1 at once; the records say who sent what, so each
	// answer goes to the right request and its result is checked against
	// the right method.
	got := check(t, "mcp/2025-11-25", initialize+`{"from":"client","message":{"jsonrpc":"2.0","id":7,"method":"tools/list"}}
{"from":"server","message":{"jsonrpc":"2.0","id":7,"method":"roots/list"}}
{"from":"server","message":{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}}
{"from":"client","message":{"jsonrpc":"2.0","id":7,"result":{"roots":[]}}}
`)
	assert.Empty(t, got)
	got = check(t, "mcp/2025-11-25", initialize+`{"from":"client","message":{"jsonrpc":"2.0","id":7,"method":"tools/list"}}
{"from":"server","message":{"jsonrpc":"2.0","id":7,"method":"roots/list"}}
{"from":"server","message":{"jsonrpc":"2.0","id":7,"result":{"roots":[]}}}
`)
	assertFindings(t, got, want{6, -32603, "/result", "tools"})
}

func TestIDFindings(t *testing.T) {
	got := check(t, "mcp/2025-11-25", initialize+`{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":2,"method":"prompts/list"}
{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}
{"jsonrpc":"2.0","id":2,"result":{"prompts":[]}}
{"jsonrpc":"2.0","id":2,"result":{"prompts":[]}}
{"jsonrpc":"2.0","id":99,"result":{}}
{"jsonrpc":"2.0","id":1.5,"method":"ping"}
{"jsonrpc":"2.0","id":null,"method":"ping"}
`)
	assertFindings(t, got,
		want{5, -32600, "", "already used by the unanswered request at message 4 (line 4)"},
		want{7, -32600, "/id", "a second response to id 2 (the request at message 4 (line 4)"},
		want{8, -32600, "/id", "a second response to id 2"},
		want{9, -32600, "/id", "which no request is waiting for"},
		want{10, -32600, "", "strings or integers"},
		want{11, -32600, "", "strings or integers"},
	)
}

func TestMethodFindings(t *testing.T) {
	got := check(t, "mcp/2025-11-25", initialize+`{"jsonrpc":"2.0","id":2,"method":"tools/explode"}
{"jsonrpc":"2.0","method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}
{"from":"server","message":{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x"}}}
{"from":"client","message":{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}}
{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":5,"arguments":[]}}
{"jsonrpc":"2.0","id":7,"method":"tools/call"}
`)
	assertFindings(t, got,
		want{4, -32601, "", `"tools/explode" is not in mcp/2025-11-25`},
		want{5, -32600, "", "is a request, sent here without an id"},
		want{6, -32600, "", "is a notification, sent here with an id"},
		want{7, -32601, "", "only clients send it"},
		want{8, -32601, "", "only servers send it"},
		want{9, -32602, "/params/arguments", "is array, not object"},
		want{10, -32602, "/params", "missing required member \"name\""},
	)
	assert.Contains(t, got[5].Reason, "(and 1 more)")
	assert.Len(t, got[5].Violations, 2)
}

func TestBatchesFollowTheMCPVersion(t *testing.T) {
	batch := `[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":1}}]
`
	got := check(t, "mcp/2025-11-25", initialize+batch)
	assertFindings(t, got,
		want{4, -32600, "", "no batches"},
		want{4, -32602, "/1/params/cursor", "not string"},
	)
	assert.Equal(t, "batch", got[0].Kind)
	init0326 := strings.ReplaceAll(initialize, "2025-11-25", "2025-03-26")
	got = check(t, "mcp/2025-03-26", init0326+batch+`[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}]
`)
	assertFindings(t, got, want{4, -32602, "/1/params/cursor", "not string"})
	got = check(t, "mcp/2024-11-05", strings.ReplaceAll(initialize, "2025-11-25", "2024-11-05")+batch)
	assertFindings(t, got,
		want{4, -32600, "", "MCP 2024-11-05 has no batches"},
		want{4, -32602, "/1/params/cursor", "not string"},
	)
}

func TestPositionalParamsOfAnOpenRPCSet(t *testing.T) {
	got := check(t, filepath.Join("..", "..", "gen", "testdata", "openrpcgolden", "input.json"), `{"jsonrpc":"2.0","id":1,"method":"notes.read","params":["n1"]}
{"jsonrpc":"2.0","id":2,"method":"notes.read","params":[42]}
{"jsonrpc":"2.0","id":3,"method":"notes.read","params":{"id":"n1"}}
`)
	require.NotEmpty(t, got)
	assert.Equal(t, 2, got[0].Index)
	assert.Equal(t, -32602, got[0].Code)
	assert.Equal(t, "/params/0", got[0].Pointer, "positions are reported as sent")
	assert.Equal(t, 3, got[1].Index, "by-position params given by name")
}

func TestOpenReportsUnknownSets(t *testing.T) {
	_, err := validate.Open("mcp/1999-01-01")
	require.ErrorContains(t, err, "unknown built-in set")
	_, err = validate.Open(filepath.Join(t.TempDir(), "missing.json"))
	require.Error(t, err)
	assert.Contains(t, validate.Builtins(), "mcp/2026-07-28")
	assert.Equal(t, "jsonrpc", validate.Builtins()[0])
}

func TestCheckItemReportsBrokenItems(t *testing.T) {
	s, err := validate.Open("jsonrpc")
	require.NoError(t, err)
	got := s.NewChecker().CheckItem(validate.Item{Position: validate.Position{File: "f", Line: 3, Index: 2}, Broken: "a message longer than 10 bytes"}, validate.FromClient)
	require.Len(t, got, 1)
	assert.Equal(t, -32700, got[0].Code)
	assert.Equal(t, validate.FromClient, got[0].From)
	assert.Equal(t, 3, got[0].Line)
}

func TestConversationsForgetTheLeastRecentlyUsed(t *testing.T) {
	cs := openSet(t, "jsonrpc").NewConversations(2)
	a := cs.Checker("a")
	require.Empty(t, a.Check([]byte(`{"jsonrpc":"2.0","id":1,"method":"m"}`), validate.FromClient, validate.Position{Index: 1}))
	cs.Checker("b")
	assert.Same(t, a, cs.Checker("a"), "a is used again, so b is the least recently used")
	cs.Checker("c")
	assert.Same(t, a, cs.Checker("a"))
	assert.Equal(t, 1, a.Pending())
	assert.NotSame(t, cs.Checker("b"), cs.Checker("c"), "b was forgotten and made anew")
}
