package fastschema_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// benchCase is one schema and a valid instance of it, as a server sees on
// every tools/call.
type benchCase struct {
	name string
	loc  func(p *projectSchemas) string // a project location, or
	doc  string                         // an inline schema
	data string
}

var benchCases = []benchCase{
	{
		name: "jsonrpc-request",
		loc:  func(*projectSchemas) string { return "https://schemarpc.dev/schema/jsonrpc/request.json" },
		data: `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`,
	},
	{
		name: "jsonrpc-request-2026-07-28",
		loc:  func(*projectSchemas) string { return "https://schemarpc.dev/schema/jsonrpc/request.json" },
		data: `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"bench-client","version":"1.0.0"}},"name":"add","arguments":{"a":1,"b":2}}}`,
	},
	{
		name: "tools-call-2025-11-25",
		loc:  func(p *projectSchemas) string { return p.methods["2025-11-25"]["tools/call"][0] },
		data: `{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":7}}`,
	},
	{
		name: "tools-call-2026-07-28",
		loc:  func(p *projectSchemas) string { return p.methods["2026-07-28"]["tools/call"][0] },
		data: `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"bench-client","version":"1.0.0"}},"name":"add","arguments":{"a":1,"b":2}}`,
	},
	{
		name: "tool-input",
		doc:  `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`,
		data: `{"a":1.5,"b":-2}`,
	},
	{
		name: "tools-call-result-2026-07-28",
		loc:  func(p *projectSchemas) string { return p.methods["2026-07-28"]["tools/call"][1] },
		data: `{"resultType":"complete","content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"1.0.0"}}}`,
	},
}

// benchSchema compiles a bench case's schema.
func benchSchema(tb testing.TB, bc benchCase) (*jsonschema.Schema, *fastschema.Validator) {
	tb.Helper()
	if bc.doc != "" {
		sch := compileDoc(tb, bc.doc)
		return sch, fastschema.Compile(sch)
	}
	tg := loadProject(tb).target(tb, bc.loc(loadProject(tb)))
	return tg.sch, tg.fast
}

func TestBenchInstancesAreValidAndAllocateNothing(t *testing.T) {
	for _, bc := range benchCases {
		t.Run(bc.name, func(t *testing.T) {
			sch, v := benchSchema(t, bc)
			data := []byte(bc.data)
			require.Equal(t, fastschema.Valid, oracleVerdict(t, sch, data))
			require.Equal(t, fastschema.Valid, v.Check(data))
			require.True(t, v.Exact())
			if raceEnabled {
				return
			}
			allocs := testing.AllocsPerRun(100, func() { v.Check(data) })
			require.Zero(t, allocs)
			allocs = testing.AllocsPerRun(100, func() { v.CheckWellFormed(data) })
			require.Zero(t, allocs)
		})
	}
}

func BenchmarkCheck(b *testing.B) { benchCheck(b, (*fastschema.Validator).Check) }

func BenchmarkCheckWellFormed(b *testing.B) { benchCheck(b, (*fastschema.Validator).CheckWellFormed) }

// benchCheck measures check on every bench case.
func benchCheck(b *testing.B, check func(*fastschema.Validator, []byte) fastschema.Verdict) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			_, v := benchSchema(b, bc)
			data := []byte(bc.data)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if check(v, data) != fastschema.Valid {
					b.Fatal("not valid")
				}
			}
		})
	}
}

func BenchmarkOracle(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			sch, _ := benchSchema(b, bc)
			data := []byte(bc.data)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				if err := sch.Validate(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
