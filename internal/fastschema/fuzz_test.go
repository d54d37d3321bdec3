package fastschema_test

import (
	"regexp"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// fuzzTargets are the schemas the fuzz target picks from: every keyword
// case, and the project's busiest locations.
var fuzzTargets = sync.OnceValue(func() []*target {
	var out []*target
	t := &testing.T{}
	for _, tc := range keywordCases {
		sch := compileDoc(t, tc.schema)
		out = append(out, &target{url: tc.name, sch: sch, fast: fastschema.Compile(sch)})
	}
	p := loadProject(t)
	for _, loc := range []string{
		"https://schemarpc.dev/schema/jsonrpc/request.json",
		"https://schemarpc.dev/schema/jsonrpc/message.json",
		p.methods["2025-11-25"]["tools/call"][0],
		p.methods["2026-07-28"]["tools/call"][0],
		p.methods["2026-07-28"]["tools/call"][1],
		p.methods["2025-11-25"]["initialize"][0],
	} {
		out = append(out, p.target(t, loc))
	}
	return out
})

// longNumber matches exponents the checker leaves to the oracle.
var longNumber = regexp.MustCompile(`[eE][+-]?0*[1-9][0-9]{5,}`)

// hugeNumber matches exponents the oracle's big.Rat parsing refuses (and
// then panics on) or spends long on.
var hugeNumber = regexp.MustCompile(`[eE][+-]?0*[1-9][0-9]{6,}`)

func FuzzCheckAgreesWithOracle(f *testing.F) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo","arguments":{"text":"hi"}}`,
		`{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":"t"}}`,
		`{"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3}}`,
		`{"a":"\u0061","\u0062":[1,2.5e3,-0,true,false,null]}`,
		`"\ud83d\ude00"`, `1e400`, `-0.0`, `[]`, `{}`, `{"a":1,"a":2}`, `"\ud800"`, "\"\xff\"", `{"a":}`, `[1,]`, `01`,
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
		f.Add(uint8(len(keywordCases)+i%6), []byte(s))
	}
	targets := fuzzTargets()
	f.Fuzz(func(t *testing.T, idx uint8, data []byte) {
		tg := targets[int(idx)%len(targets)]
		got := check(t, tg.fast, data)
		// I-JSON (RFC 7493): valid UTF-8, no lone surrogates, unique names.
		if !jsontext.Value(data).IsValid() {
			require.Equal(t, fastschema.Unknown, got, "malformed input %q", data)
			return
		}
		if hugeNumber.Match(data) {
			return // the oracle spends long on these and may panic; Check did not
		}
		valid, judged := oracle(tg.sch, data)
		if !judged {
			require.Equal(t, fastschema.Unknown, got, "input %q the oracle cannot judge", data)
			return
		}
		switch got {
		case fastschema.Valid:
			require.True(t, valid, "schema %s, input %q", tg.url, data)
		case fastschema.Invalid:
			require.False(t, valid, "schema %s, input %q", tg.url, data)
		default:
			if tg.fast.Exact() && len(data) < 100000 && !longNumber.Match(data) {
				t.Fatalf("exact schema %s answered unknown for well-formed %q", tg.url, data)
			}
		}
	})
}
