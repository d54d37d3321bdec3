package fastschema_test

import (
	"sync"
	"testing"
)

// explainTargets are the schemas the Explain fuzz target picks from: the
// Check fuzz target's, and every keyword case compiled by CompileJSON.
var explainTargets = sync.OnceValue(func() []*target {
	out := append([]*target(nil), fuzzTargets()...)
	t := &testing.T{}
	for _, tc := range keywordCases {
		own, err := compileOwn(tc.schema)
		if err != nil {
			panic(tc.name + ": " + err.Error())
		}
		out = append(out, &target{url: tc.name, sch: compileDoc(t, tc.schema), fast: own})
	}
	return out
})

func FuzzExplainAgreesWithOracle(f *testing.F) {
	seeds := []string{
		`{"name":"add","arguments":{"a":"1","b":2}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":7}`,
		`{"content":[{"type":"text"}],"structuredContent":[]}`,
		`{"a":"\u0061","\u0062":[1,2.5e3,-0,true,false,null],"c":{}}`,
		`{"a":1,"a":"x"}`, `[1,1,{"a":[]},{"a":[]}]`, `1e400`, `-0.0`, `[]`, `{}`, `"\ud800"`, "\"\xff\"", `{"a":}`, `[1,]`,
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
		f.Add(uint8(len(keywordCases)+i%6), []byte(s))
		f.Add(uint8(len(keywordCases)+6+i), []byte(s))
	}
	targets := explainTargets()
	f.Fuzz(func(t *testing.T, idx uint8, data []byte) {
		tg := targets[int(idx)%len(targets)]
		if hugeNumber.Match(data) {
			// The oracle spends long on these and may panic: Explain
			// must only answer.
			_, _ = tg.fast.Explain(data)
			return
		}
		explainAgrees(t, tg.sch, tg.fast, data)
	})
}
