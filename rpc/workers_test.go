package rpc_test

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/schemarpc/schemarpc/rpc"
)

// verifyNoLeaks fails t when goroutines other than those of ignore, and
// the process's idle workers (which exit on their own after a second),
// are left.
func verifyNoLeaks(t *testing.T, ignore ...goleak.Option) {
	t.Helper()
	goleak.VerifyNone(t, append(ignore, goleak.IgnoreAnyFunction(rpc.IdleWorkerFrame))...)
}

// goroutineID returns the id of the calling goroutine, from its stack.
func goroutineID() int {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := bytes.Cut(bytes.TrimPrefix(buf, []byte("goroutine ")), []byte(" "))
	n, _ := strconv.Atoi(string(id))
	return n
}

// idleWorkers returns the ids of the goroutines waiting for a job.
func idleWorkers() map[int]bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	ids := map[int]bool{}
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if !strings.Contains(g, rpc.IdleWorkerFrame) {
			continue
		}
		id, _, _ := strings.Cut(strings.TrimPrefix(g, "goroutine "), " ")
		n, _ := strconv.Atoi(id)
		ids[n] = true
	}
	return ids
}

// A connection's calls run on the process's workers, not on workers of its
// own: once one connection's call is done, the next call of another
// connection runs on a worker that was waiting, not on a new goroutine, so
// that a server holding many sessions that each made a call a moment ago
// holds no goroutine for each.
func TestConnectionsShareTheirWorkers(t *testing.T) {
	ran := make(chan int, 1)
	r := rpc.NewRouter()
	r.Register("where", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) {
		ran <- goroutineID()
		return nil, nil
	}})
	call := func(c *rpc.Conn) int {
		t.Helper()
		require.NoError(t, c.StartFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"where"}`), func([]byte) {}))
		select {
		case id := <-ran:
			return id
		case <-time.After(10 * time.Second):
			t.Fatal("the call did not run")
			return 0
		}
	}
	a := rpc.NewConn(&pushedTransport{t: t}, rpc.WithHandler(r), rpc.WithPushedInput())
	defer a.Close()
	b := rpc.NewConn(&pushedTransport{t: t}, rpc.WithHandler(r), rpc.WithPushedInput())
	defer b.Close()

	worker := call(a)
	var waiting map[int]bool
	require.Eventually(t, func() bool { waiting = idleWorkers(); return waiting[worker] }, 10*time.Second, 5*time.Millisecond,
		"the worker that ran the call did not go back to waiting")
	got := call(b)
	assert.True(t, waiting[got], "another connection's call ran on goroutine %d, none of the waiting workers %v", got, waiting)
}
