package validate_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/validate"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
)

// handshake is an initialize exchange: the client asks for asked, the
// server answers with answered.
func handshake(asked, answered string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`, asked, answered)
}

// meta2026 is the params._meta every 2026-07-28 request carries.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// discover is a stateless conversation's opening: server/discover and its
// answer.
const discover = `{"jsonrpc":"2.0","id":"d1","method":"server/discover","params":{` + meta2026 + `}}
{"jsonrpc":"2.0","id":"d1","result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}}
`

// follow runs a JSON Lines transcript through a fresh checker of the
// following set and returns its findings and the version it ended in.
func follow(t *testing.T, transcript string) ([]validate.Finding, string) {
	t.Helper()
	c := openSet(t, validate.FollowSet).NewChecker()
	var out []validate.Finding
	require.NoError(t, validate.Read(strings.NewReader(transcript), "t.jsonl", validate.JSONLines, 0, func(it validate.Item) error {
		out = append(out, c.CheckItem(it, validate.Unknown)...)
		return nil
	}))
	return out, c.Version()
}

func TestTheFollowingSetIsBuiltIn(t *testing.T) {
	assert.Equal(t, []string{"jsonrpc", "mcp"}, validate.Builtins()[:2])
	assert.Equal(t, "mcp", openSet(t, "mcp").Name())
}

// TestHandshakeConversationsAreCheckedUnderTheNegotiatedVersion runs one
// conversation per handshake version: what the version has passes, what it
// lacks is reported under its name.
func TestHandshakeConversationsAreCheckedUnderTheNegotiatedVersion(t *testing.T) {
	const list = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}
{"jsonrpc":"2.0","id":"s1","method":"roots/list"}
{"jsonrpc":"2.0","id":"s1","result":{"roots":[]}}
`
	const elicit = `{"jsonrpc":"2.0","id":"s2","method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object","properties":{}}}}
`
	const tasks = `{"jsonrpc":"2.0","id":3,"method":"tasks/list"}
`
	const batch = `[{"jsonrpc":"2.0","id":4,"method":"ping"}]
`
	for _, tc := range []struct {
		version string
		extra   string
		wants   []want
	}{
		{"2024-11-05", elicit + batch, []want{
			{8, -32601, "", `"elicitation/create" is not in mcp/2024-11-05`},
			{9, -32600, "", "MCP 2024-11-05 has no batches"},
		}},
		{"2025-03-26", batch + elicit, []want{{9, -32601, "", `"elicitation/create" is not in mcp/2025-03-26`}}},
		{"2025-06-18", elicit + tasks + batch, []want{
			{9, -32601, "", `"tasks/list" is not in mcp/2025-06-18`},
			{10, -32600, "", "MCP 2025-06-18 has no batches"},
		}},
		{"2025-11-25", elicit + tasks + batch, []want{{10, -32600, "", "MCP 2025-11-25 has no batches"}}},
	} {
		t.Run(tc.version, func(t *testing.T) {
			got, version := follow(t, handshake(tc.version, tc.version)+list+tc.extra)
			assertFindings(t, got, tc.wants...)
			assert.Equal(t, tc.version, version)
		})
	}
}

// TestTheServersAnswerToInitializeGoverns: the client asks for 2025-11-25,
// the server answers 2025-06-18, so tasks/list is no longer a method.
func TestTheServersAnswerToInitializeGoverns(t *testing.T) {
	got, version := follow(t, handshake("2025-11-25", "2025-06-18")+`{"jsonrpc":"2.0","id":2,"method":"tasks/list"}
`)
	assertFindings(t, got, want{4, -32601, "", `"tasks/list" is not in mcp/2025-06-18`})
	assert.Equal(t, "2025-06-18", version)
}

func TestAnInitializeAnswerWithAVersionNobodyKnowsIsReported(t *testing.T) {
	got, version := follow(t, handshake("2025-11-25", "1999-01-01"))
	assertFindings(t, got, want{2, -32603, "/result/protocolVersion", `protocol version "1999-01-01", which is no handshake version`})
	assert.Empty(t, version)
	got, _ = follow(t, handshake("2025-11-25", "2026-07-28"))
	assertFindings(t, got, want{2, -32603, "/result/protocolVersion", `"2026-07-28", which is no handshake version`})
	got, version = follow(t, strings.Replace(handshake("2025-11-25", "2025-11-25"), `"protocolVersion":"2025-11-25","capabilities":{"tools"`, `"capabilities":{"tools"`, 1))
	assertFindings(t, got, want{2, -32603, "/result", "missing required member \"protocolVersion\""})
	assert.Empty(t, version, "an answer without a version negotiates none")
}

// TestAFailedInitializeNegotiatesNothing: after an error answer, messages
// are checked against every version again.
func TestAFailedInitializeNegotiatesNothing(t *testing.T) {
	got, version := follow(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unsupported protocol version"}}
{"jsonrpc":"2.0","id":2,"method":"tasks/list"}
`)
	assert.Empty(t, got, "tasks/list belongs to 2025-11-25, which was not the version asked for")
	assert.Empty(t, version)
}

// TestAClientAskingForAnUnknownVersionIsCheckedUnderEveryHandshakeVersion:
// a newer client asks for a version this binary does not know; the server
// answers with one it does.
func TestAClientAskingForAnUnknownVersionIsCheckedUnderEveryHandshakeVersion(t *testing.T) {
	got, version := follow(t, handshake("2099-01-01", "2025-03-26")+`{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`)
	assert.Empty(t, got)
	assert.Equal(t, "2025-03-26", version)
}

// TestAStatelessConversationStartingWithDiscoverHasNoFindings is the
// conversation our own client starts with, which a 2025-11-25 set flags.
func TestAStatelessConversationStartingWithDiscoverHasNoFindings(t *testing.T) {
	conversation := discover + `{"jsonrpc":"2.0","id":"t1","method":"tools/list","params":{` + meta2026 + `}}
{"jsonrpc":"2.0","id":"t1","result":{"resultType":"complete","tools":[{"name":"echo","inputSchema":{"type":"object"}}],"ttlMs":0,"cacheScope":"public"}}
{"jsonrpc":"2.0","id":"t2","method":"tools/call","params":{"name":"echo","arguments":{},` + meta2026 + `}}
{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}
{"jsonrpc":"2.0","id":"t2","result":{"resultType":"complete","content":[]}}
`
	got, version := follow(t, conversation)
	assert.Empty(t, got)
	assert.Equal(t, "2026-07-28", version)
	assert.NotEmpty(t, check(t, "mcp/2025-11-25", conversation), "one handshake version flags it")
}

func TestAStatelessRequestIsCheckedUnderTheVersionItCarries(t *testing.T) {
	got, _ := follow(t, discover+`{"jsonrpc":"2.0","id":"t1","method":"tools/list"}
{"jsonrpc":"2.0","id":"t2","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":"t3","method":"ping","params":{`+meta2026+`}}
`)
	assertFindings(t, got,
		want{3, -32602, "/params", "missing required member \"_meta\""},
		want{4, -32022, "/params/_meta/io.modelcontextprotocol~1protocolVersion", `protocol version "2099-01-01" is not one rpcgen knows (stateless: 2026-07-28)`},
		want{5, -32601, "", `"ping" is not in mcp/2026-07-28`},
	)
	assert.Equal(t, validate.FromClient, got[1].From, "the sender is inferred for the version's finding too")
}

// TestDiscoverFallingBackToInitialize is our client on stdio meeting a
// handshake server: server/discover fails, initialize follows.
func TestDiscoverFallingBackToInitialize(t *testing.T) {
	got, version := follow(t, `{"jsonrpc":"2.0","id":"d1","method":"server/discover","params":{`+meta2026+`}}
{"jsonrpc":"2.0","id":"d1","error":{"code":-32601,"message":"method not found"}}
`+strings.ReplaceAll(handshake("2025-06-18", "2025-06-18"), `"id":1`, `"id":2`)+`{"jsonrpc":"2.0","id":3,"method":"ping"}
{"jsonrpc":"2.0","id":3,"result":{}}
`)
	assert.Empty(t, got)
	assert.Equal(t, "2025-06-18", version)
}

// TestTheVersionSwitchesMidInput: two conversations one after the other in
// one input, each under its own version.
func TestTheVersionSwitchesMidInput(t *testing.T) {
	got, version := follow(t, handshake("2024-11-05", "2024-11-05")+`{"jsonrpc":"2.0","id":"e","method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}
`+strings.ReplaceAll(handshake("2025-06-18", "2025-06-18"), `"id":1`, `"id":7`)+`{"jsonrpc":"2.0","id":"e2","method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}
`+discover)
	assertFindings(t, got, want{4, -32601, "", `"elicitation/create" is not in mcp/2024-11-05`})
	assert.Equal(t, "2025-06-18", version, "the stateless requests carry their own version; the handshake's stays")
}

// TestMessagesBeforeNegotiationAreCheckedUnderTheVersionsTheyCanBelongTo:
// without a handshake or a stateless request, a message is valid when one
// version accepts it.
func TestMessagesBeforeNegotiationAreCheckedUnderTheVersionsTheyCanBelongTo(t *testing.T) {
	got, version := follow(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}
[{"jsonrpc":"2.0","method":"notifications/initialized"}]
{"jsonrpc":"2.0","id":2,"method":"tools/explode"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}
{"jsonrpc":"2.0","id":4,"method":"tools/list"}
{"jsonrpc":"2.0","id":4,"result":{"tools":"x"}}
`)
	assertFindings(t, got,
		want{4, -32601, "", `"tools/explode" is in none of the MCP versions the conversation may be in (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28)`},
		want{5, -32602, "/params/name", "the closest of the versions the conversation may be in"},
		want{7, -32603, "/result/tools", "the closest of the versions its request may belong to: 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25)"},
	)
	assert.Empty(t, version)
}

// TestAnInitializeAwaitingItsAnswerNarrowsTheVersions: before the answer,
// only handshake versions are candidates, the one asked for first.
func TestAnInitializeAwaitingItsAnswerNarrowsTheVersions(t *testing.T) {
	got, _ := follow(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":2,"method":"ping"}
{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{`+meta2026+`}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5}}
`)
	assertFindings(t, got, want{4, -32602, "/params/name", "(under MCP 2025-06-18, the closest of the versions the conversation may be in: 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25)"})
}

func TestALoneResponseIsCheckedAgainstEveryResultThatCouldFit(t *testing.T) {
	for _, tc := range []struct {
		name, response string
		wants          []want
	}{
		{"a tools/list result", `{"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`, nil},
		{"an empty result", `{"jsonrpc":"2.0","id":5,"result":{}}`, nil},
		{"a 2026 result", `{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete","content":[]}}`, nil},
		{"an error", `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no"}}`, nil},
		{"tools that are not a list", `{"jsonrpc":"2.0","id":5,"result":{"tools":"echo"}}`,
			[]want{{1, -32603, "/result/tools", "unmatched response: no request in the input has id 5, and its result fits no result of a request either side sends in MCP 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28 (closest, the tools/list result in MCP"}}},
		{"a result that is not an object", `{"jsonrpc":"2.0","id":5,"result":7}`, []want{{1, -32603, "/result", "unmatched response"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := follow(t, tc.response+"\n")
			assertFindings(t, got, tc.wants...)
			for _, f := range got {
				assert.NotEqual(t, -32600, f.Code)
			}
		})
	}
}

func TestALoneResponseInAOneVersionSetIsCheckedUnderThatVersion(t *testing.T) {
	// A result without resultType fits some result before 2026-07-28, and
	// none in it.
	got, _ := follow(t, `{"from":"server","message":{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}}
`)
	assert.Empty(t, got)
	got = check(t, "mcp/2026-07-28", `{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}
`)
	assertFindings(t, got, want{1, -32603, "/result", "unmatched response"})
	assert.Empty(t, check(t, "jsonrpc", `{"jsonrpc":"2.0","id":5,"result":7}
`), "the envelopes alone have no result to check")
	// A client's answer to a request the server never sent: only the
	// results of server requests could fit.
	got = check(t, "mcp/2025-11-25", `{"from":"client","message":{"jsonrpc":"2.0","id":5,"result":{"tools":"x"}}}
`)
	assert.Empty(t, got, "no server request's result declares tools, so the empty result fits")
	got = check(t, "mcp/2025-11-25", `{"from":"client","message":{"jsonrpc":"2.0","id":5,"result":{"roots":"x"}}}
`)
	assertFindings(t, got, want{1, -32603, "/result/roots", "fits no result of a request a server sends in MCP 2025-11-25 (closest, the roots/list result"})
}

func TestAResponseToAnUnknownIDInAConversationWithRequestsIsAnIDFinding(t *testing.T) {
	got, _ := follow(t, handshake("2025-11-25", "2025-11-25")+`{"jsonrpc":"2.0","id":9,"result":{}}
`)
	assertFindings(t, got, want{4, -32600, "/id", "which no request is waiting for"})
}

// TestTheProtocolVersionHeaderIsFollowed: the header a Streamable HTTP
// client sends must agree with the body and the negotiated version, and
// names the version of a message that carries none.
func TestTheProtocolVersionHeaderIsFollowed(t *testing.T) {
	type msg struct {
		body, header string
	}
	run := func(msgs ...msg) []validate.Finding {
		c := openSet(t, validate.FollowSet).NewChecker()
		var out []validate.Finding
		for i, m := range msgs {
			out = append(out, c.CheckItem(validate.Item{Position: validate.Position{Index: i + 1}, Bytes: []byte(m.body), ProtocolVersion: m.header}, validate.FromClient)...)
		}
		return out
	}
	list2026 := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta2026 + `}}`
	assert.Empty(t, run(msg{list2026, "2026-07-28"}))
	assertFindings(t, run(msg{list2026, "2025-11-25"}),
		want{1, -32020, "", `the MCP-Protocol-Version header says "2025-11-25", params._meta says "2026-07-28"`})
	assertFindings(t, run(msg{strings.ReplaceAll(list2026, `"2026-07-28"`, `"2025-11-25"`), "2026-07-28"}),
		want{1, -32020, "", `the MCP-Protocol-Version header says "2026-07-28", params._meta says "2025-11-25"`})
	assertFindings(t, run(msg{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "2026-07-28"}),
		want{1, -32602, "/params", "missing required member \"_meta\""})
	headerOnly := openSet(t, validate.FollowSet).NewChecker()
	headerOnly.CheckItem(validate.Item{Bytes: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), ProtocolVersion: "2026-07-28"}, validate.FromClient)
	assert.Equal(t, "2026-07-28", headerOnly.Version(), "the header made it a stateless request of its version")
	assert.Empty(t, run(msg{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "2025-11-25"}))
	assertFindings(t, run(msg{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "1999-01-01"}),
		want{1, -32600, "", `the MCP-Protocol-Version header names "1999-01-01", a version rpcgen does not know`})

	c := openSet(t, validate.FollowSet).NewChecker()
	for i, line := range strings.Split(strings.TrimSpace(handshake("2025-06-18", "2025-06-18")), "\n") {
		from := validate.FromClient
		if i == 1 {
			from = validate.FromServer
		}
		require.Empty(t, c.Check([]byte(line), from, validate.Position{Index: i + 1}))
	}
	got := c.CheckItem(validate.Item{Position: validate.Position{Index: 4}, Bytes: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), ProtocolVersion: "2025-11-25"}, validate.FromClient)
	assertFindings(t, got, want{4, -32600, "", `the MCP-Protocol-Version header says "2025-11-25", the conversation negotiated "2025-06-18"`})
	// A stateless version's header makes a stateless request, negotiation
	// or not.
	got = c.CheckItem(validate.Item{Position: validate.Position{Index: 5}, Bytes: []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`), ProtocolVersion: "2026-07-28"}, validate.FromClient)
	assertFindings(t, got, want{5, -32602, "/params", "missing required member \"_meta\""})
	assert.Empty(t, c.CheckItem(validate.Item{Position: validate.Position{Index: 6}, Bytes: []byte(list2026), ProtocolVersion: "2026-07-28"}, validate.FromClient))
	assert.Equal(t, "2025-06-18", c.Version())
}

// TestAHandshakeVersionsHeaderNamesTheVersionBeforeNegotiation: a
// conversation whose initialize the input does not hold is checked under
// the version its header names, not under every version.
func TestAHandshakeVersionsHeaderNamesTheVersionBeforeNegotiation(t *testing.T) {
	c := openSet(t, validate.FollowSet).NewChecker()
	got := c.CheckItem(validate.Item{Position: validate.Position{Index: 1}, Bytes: []byte(`{"jsonrpc":"2.0","id":1,"method":"tasks/list"}`), ProtocolVersion: "2024-11-05"}, validate.FromClient)
	assertFindings(t, got, want{1, -32601, "", `"tasks/list" is not in mcp/2024-11-05`})
	assert.Empty(t, c.CheckItem(validate.Item{Position: validate.Position{Index: 2}, Bytes: []byte(`{"jsonrpc":"2.0","id":2,"method":"tasks/list"}`), ProtocolVersion: "2025-11-25"}, validate.FromClient))
}

// TestACheckerOfOneSetNamesItsVersion: outside the following set, the
// version is the set's own, and none for a set that is not MCP.
func TestACheckerOfOneSetNamesItsVersion(t *testing.T) {
	for set, version := range map[string]string{"mcp/2025-06-18": "2025-06-18", "mcp/2026-07-28": "2026-07-28", "jsonrpc": "", "mcp": ""} {
		assert.Equal(t, version, openSet(t, set).NewChecker().Version(), set)
	}
}

// TestTheVersionCodesAreThoseTheSchemaDeclares: the codes of the version
// findings are the 2026-07-28 schema's own (kept as literals so that
// rpcgen does not link the bindings for two numbers).
func TestTheVersionCodesAreThoseTheSchemaDeclares(t *testing.T) {
	assert.Equal(t, v20260728.CodeHeaderMismatch, validate.CodeHeaderMismatch)
	assert.Equal(t, v20260728.CodeUnsupportedProtocolVersion, validate.CodeUnsupportedVersion)
}

// TestTranscriptRecordsCarryTheProtocolVersionHeader: rpcgen proxy records
// the header, so a re-check follows it as the live check did.
func TestTranscriptRecordsCarryTheProtocolVersionHeader(t *testing.T) {
	got, _ := follow(t, `{"from":"client","protocolVersion":"2026-07-28","message":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}
{"from":"client","protocolVersion":7,"message":{"jsonrpc":"2.0","id":2,"method":"tools/list"}}
`)
	assertFindings(t, got,
		want{1, -32602, "/params", "missing required member \"_meta\""},
		want{2, -32700, "", "a transcript record whose protocolVersion is 7, not a string"},
	)
}

// TestCheckersOfOneSetRunConcurrently: one Set serves the checkers of many
// conversations at once (run with -race).
func TestCheckersOfOneSetRunConcurrently(t *testing.T) {
	set := openSet(t, validate.FollowSet)
	conversation := handshake("2025-06-18", "2025-06-18") + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}
{"jsonrpc":"2.0","id":2,"result":{"tools":"x"}}
` + discover
	var wg sync.WaitGroup
	counts := make([]int, 4)
	for i := range counts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := set.NewChecker()
			_ = validate.Read(strings.NewReader(conversation), "t.jsonl", validate.JSONLines, 0, func(it validate.Item) error {
				counts[i] += len(c.CheckItem(it, validate.Unknown))
				return nil
			})
		}()
	}
	wg.Wait()
	for _, n := range counts {
		assert.Equal(t, 2, n)
	}
}
