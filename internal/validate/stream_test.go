package validate_test

import (
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// exchanges is a reader that produces n tools/call exchanges as JSON Lines
// without holding them: the input never exists in memory as a whole.
type exchanges struct {
	n, i int
	buf  []byte
}

func (e *exchanges) Read(p []byte) (int, error) {
	for len(e.buf) == 0 {
		if e.i == e.n {
			return 0, io.EOF
		}
		e.buf = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}`+"\n"+
			`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"x"}]}}`+"\n", e.i, e.i)
		e.i++
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestLargeInputsAreStreamed reads 200,000 messages and shows the heap after
// 200,000 is no larger than after 20,000 (give or take 4 MiB of noise): the
// reader and the checker hold one message and the unanswered requests.
func TestLargeInputsAreStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 200,000 messages")
	}
	c := openSet(t, "mcp/2025-11-25").NewChecker()
	var early, late uint64
	n := 0
	err := validate.Read(&exchanges{n: 100_000}, "big.jsonl", validate.Auto, 0, func(it validate.Item) error {
		n++
		if fs := c.CheckItem(it, validate.Unknown); len(fs) > 0 {
			return fmt.Errorf("%+v", fs)
		}
		switch n {
		case 20_000:
			early = heap()
		case 200_000:
			late = heap()
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 200_000, n)
	assert.Equal(t, 0, c.Pending())
	assert.Less(t, late, early+4<<20, "heap after 20k messages %d, after 200k %d", early, late)
}

// TestUnansweredRequestsAreBounded sends more unanswered requests than a
// checker remembers: the oldest are forgotten, and a late answer to one of
// them says so.
func TestUnansweredRequestsAreBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 70,000 requests")
	}
	c := openSet(t, "jsonrpc").NewChecker()
	for i := range validate.MaxPending + 4000 {
		fs := c.Check(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"m"}`, i), validate.FromClient, validate.Position{Index: i + 1})
		require.Empty(t, fs)
	}
	assert.Equal(t, validate.MaxPending, c.Pending())
	fs := c.Check([]byte(`{"jsonrpc":"2.0","id":0,"result":1}`), validate.FromServer, validate.Position{Index: 1})
	require.Len(t, fs, 1)
	assert.Contains(t, fs[0].Reason, "older unanswered requests were forgotten")
	last := validate.MaxPending + 3999
	assert.Empty(t, c.Check(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":1}`, last), validate.FromServer, validate.Position{Index: 2}))
}
