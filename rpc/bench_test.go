package rpc

import (
	"context"
	"testing"
)

const benchSchemaURL = "https://schemarpc.dev/bench/bench.json"

func benchRouter() *Router {
	set := NewSchemaSet(map[string]string{benchSchemaURL: `{"$defs": {"add": {"type": "object",
		"properties": {"a": {"type": "number"}, "b": {"type": "number"}},
		"required": ["a", "b"], "additionalProperties": false}}}`})
	r := NewRouter()
	r.Register("add", Method{
		Params:         set.Schema(benchSchemaURL + "#/$defs/add"),
		ParamStructure: Either,
		ParamNames:     []string{"a", "b"},
		Handler: func(ctx context.Context, req *Request) (any, error) {
			var p struct {
				A float64 `json:"a"`
				B float64 `json:"b"`
			}
			if err := req.DecodeParams(&p); err != nil {
				return nil, err
			}
			return p.A + p.B, nil
		},
	})
	return r
}

// benchFrame measures one message through parse → envelope schema → lookup
// → params schema → typed decode → handler → encode, as every transport
// runs it.
func benchFrame(b *testing.B, msg string) {
	e := newEngine(buildOptions([]Option{WithHandler(benchRouter())}))
	in := []byte(msg)
	ctx := context.Background()
	var out []byte
	deliver := func(*Response) {}
	reply := func(b []byte) { out = b }
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		e.frame(ctx, in, true, deliver, reply)
	}
	if len(out) == 0 {
		b.Fatal("no reply")
	}
}

func BenchmarkCallByName(b *testing.B) {
	benchFrame(b, `{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":1}`)
}

func BenchmarkCallByPosition(b *testing.B) {
	benchFrame(b, `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`)
}

func BenchmarkInvalidParams(b *testing.B) {
	benchFrame(b, `{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":"x"},"id":1}`)
}

func BenchmarkParseError(b *testing.B) {
	benchFrame(b, `{"jsonrpc":"2.0","method":"add","params":{"a":1,`)
}

func BenchmarkBatchOf10(b *testing.B) {
	msg := "["
	for i := range 10 {
		if i > 0 {
			msg += ","
		}
		msg += `{"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2},"id":` + string(rune('0'+i)) + `}`
	}
	benchFrame(b, msg+"]")
}

// BenchmarkConnRoundTrip measures a typed Call from a client Conn to a
// server Conn over the in-memory pipe, both directions' work included.
func BenchmarkConnRoundTrip(b *testing.B) {
	ta, tb := NewPipe()
	server := NewConn(tb, WithHandler(benchRouter()))
	client := NewConn(ta)
	defer server.Close()
	defer client.Close()
	ctx := context.Background()
	params := map[string]float64{"a": 1, "b": 2}
	var sum float64
	b.ReportAllocs()
	for b.Loop() {
		if err := client.Call(ctx, "add", params, &sum); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	in := []byte(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello world","n":[1,2,3.5e10],"nested":{"deep":true,"s":"caf\u00e9"}}},"id":"abc"}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := parse(in, DefaultMaxDepth); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadToolsCall measures reading one tools/call message (the
// strict check, the envelope and its schema) as a handshake-era client
// and a stateless (2026-07-28) client send it: the second carries _meta.
func BenchmarkReadToolsCall(b *testing.B) {
	for _, c := range []struct{ name, msg string }{
		{"2025-11-25", `{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`},
		{"2026-07-28", `{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
			`"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			in := []byte(c.msg)
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				items, _, perr := decodeFrame(in, DefaultMaxDepth)
				if perr != nil || items[0].req == nil || items[0].req.hasTree {
					b.Fatal("not read on the fast path")
				}
			}
		})
	}
}
