package validate_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// benchTranscript is a 2025-11-25 conversation of n tools/call exchanges,
// each a request and its result, as JSON Lines, after the handshake.
func benchTranscript(n int) []byte {
	var b bytes.Buffer
	b.WriteString(handshake("2025-11-25", "2025-11-25"))
	for i := range n {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add","arguments":{"a":%d,"b":2}}}`+"\n", i, i)
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"%d"}],"structuredContent":{"sum":%d}}}`+"\n", i, i+2, i+2)
	}
	return b.Bytes()
}

// BenchmarkCheck measures the checker alone on one message at a time: a
// tools/call request or its response, alternately.
func BenchmarkCheck(b *testing.B) {
	set, err := validate.Open("mcp/2025-11-25")
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(benchTranscript(1000)), []byte("\n"))
	c := set.NewChecker()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if fs := c.Check(lines[i%len(lines)], validate.Unknown, validate.Position{Index: i}); len(fs) > 0 {
			b.Fatal(fs)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkReadAndCheck measures what rpcgen validate does per message of a
// JSON Lines transcript: read, classify, track ids, validate; with one
// version's set and with the set that follows the negotiated version.
func BenchmarkReadAndCheck(b *testing.B) {
	for _, name := range []string{"mcp/2025-11-25", validate.FollowSet} {
		b.Run(name, func(b *testing.B) { benchmarkReadAndCheck(b, name) })
	}
}

func benchmarkReadAndCheck(b *testing.B, name string) {
	set, err := validate.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	data := benchTranscript(b.N/2 + 1)
	b.SetBytes(int64(len(data)) / int64(b.N/2*2+2))
	b.ReportAllocs()
	b.ResetTimer()
	c := set.NewChecker()
	n := 0
	err = validate.Read(bytes.NewReader(data), "bench.jsonl", validate.JSONLines, 0, func(it validate.Item) error {
		n++
		if fs := c.CheckItem(it, validate.Unknown); len(fs) > 0 {
			return fmt.Errorf("%v", fs)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "msgs/s")
}
