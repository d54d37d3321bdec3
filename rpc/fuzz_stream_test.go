package rpc_test

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

// floodReader yields n bytes of 'x' at most chunk at a time, without
// holding them: the only memory an over-limit line can take is the
// transport's own.
type floodReader struct{ n, chunk int }

func (r *floodReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n, r.chunk)
	for i := range k {
		p[i] = 'x'
	}
	r.n -= k
	return k, nil
}

// allocated returns the bytes the process has allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// FuzzStreamLineLimit sends a line of 2 to 9 MiB, past a fuzzed limit of 5
// bytes to 4 KiB, arriving in fuzzed chunk sizes, between two ordinary lines.
// The transport reports the long line as too large, then reads the next
// line intact; and while it skips the long line it allocates a bounded
// amount (a few times the limit, never the line): no line over the limit is
// buffered.
func FuzzStreamLineLimit(f *testing.F) {
	f.Add(uint32(0), uint16(0), uint16(0), "first")
	f.Add(uint32(7<<20), uint16(4095), uint16(127), `{"jsonrpc":"2.0","method":"m"}`)
	f.Add(uint32(12345), uint16(63), uint16(1), "")
	f.Add(uint32(1), uint16(1023), uint16(2), "x\r")
	f.Fuzz(func(t *testing.T, extra uint32, limit, chunk uint16, first string) {
		lim := int(limit%4092) + 5 // "after" fits
		if strings.ContainsAny(first, "\n") || len(first) > lim {
			return
		}
		n := lim + 1 + 2<<20 + int(extra%(7<<20))
		in := io.MultiReader(strings.NewReader(first+"\n"), &floodReader{n: n, chunk: 512 * (int(chunk%128) + 1)},
			strings.NewReader("\r\nafter\n"))
		tr := rpc.NewStreamTransport(in, io.Discard, rpc.WithMaxMessageSize(lim))
		if strings.Trim(first, " \t\r") != "" {
			msg, err := tr.Read(t.Context())
			if err != nil || string(msg) != strings.TrimSuffix(first, "\r") {
				t.Fatalf("first line: %q, %v", msg, err)
			}
		}
		before := allocated()
		_, err := tr.Read(t.Context())
		used := allocated() - before
		var tooLarge *rpc.MessageTooLargeError
		if !errors.As(err, &tooLarge) || !errors.Is(err, rpc.ErrMessageTooLarge) || tooLarge.Limit != lim {
			t.Fatalf("a line of %d bytes past the limit of %d: %v", n, lim, err)
		}
		if bound := uint64(4*lim + 256<<10); used > bound {
			t.Fatalf("skipping a line of %d bytes (limit %d) allocated %d bytes, more than %d", n, lim, used, bound)
		}
		msg, err := tr.Read(t.Context())
		if err != nil || string(msg) != "after" {
			t.Fatalf("the line after the long one: %q, %v", msg, err)
		}
		if _, err := tr.Read(t.Context()); !errors.Is(err, io.EOF) {
			t.Fatalf("want the end of input, got %v", err)
		}
	})
}
