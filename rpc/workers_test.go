package rpc_test

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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

// await waits for ch to yield a value, or fails the test after 10 s.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("gave up waiting: %s", what)
		var zero T
		return zero
	}
}

// Past the limit of busy workers a job waits for one of them rather than
// starting a goroutine of its own: a client keeping many calls in flight
// holds a few stacks, not one per call.
func TestJobsPastTheBusyLimitRunOnTheBusyWorkers(t *testing.T) {
	w := rpc.NewWorkers(2, time.Hour)
	release := make(chan struct{})
	busy := make(chan int, 2)
	for range 2 {
		w.Run(func() { busy <- goroutineID(); <-release })
	}
	workers := map[int]bool{await(t, busy, "the first job"): true, await(t, busy, "the second job"): true}

	ran := make(chan int, 6)
	for range 6 {
		w.Run(func() { ran <- goroutineID() })
	}
	assert.Equal(t, 6, w.Queued(), "jobs past the limit started at once")
	close(release)
	for i := range 6 {
		id := await(t, ran, "a queued job")
		assert.True(t, workers[id], "queued job %d ran on goroutine %d, not on one of the busy workers %v", i, id, workers)
	}
	assert.Zero(t, w.Queued())
}

// Past the limit, a job starts at once when no goroutine of the process
// waits for a processor as it arrives: the busy workers are then blocked
// (on the peer, on a slow service), and a call behind them would wait for
// nothing but a stall period.
func TestJobsPastTheBusyLimitStartAtOnceWhileTheProcessorsAreFree(t *testing.T) {
	w := rpc.NewWorkersFreeProcessors(1, time.Hour)
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{})
	w.Run(func() { close(started); <-release })
	await(t, started, "the busy job")
	ran := make(chan struct{})
	w.Run(func() { close(ran) })
	assert.Zero(t, w.Queued(), "a job queued behind a blocked worker while the processors were free")
	await(t, ran, "the job past the limit")
}

// Queued jobs run oldest first, also while jobs are queued as others are
// taken (the queue reuses the room of the jobs taken).
func TestQueuedJobsRunOldestFirst(t *testing.T) {
	w := rpc.NewWorkers(1, time.Hour)
	release := make(chan struct{})
	w.Run(func() { <-release })
	var order []int
	done := make(chan struct{})
	var job func(n int) func()
	job = func(n int) func() {
		return func() {
			order = append(order, n) // one worker: no job runs beside another
			switch {
			case n+10 <= 100:
				w.Run(job(n + 10))
			case n == 100:
				close(done)
			}
		}
	}
	for n := 1; n <= 10; n++ {
		w.Run(job(n))
	}
	close(release)
	await(t, done, "the last job")
	want := make([]int, 100)
	for i := range want {
		want[i] = i + 1
	}
	assert.Equal(t, want, order)
}

// Jobs whose handlers wait for each other all run: when the busy workers
// take no queued job for the stall period, more workers start, so calls
// that block (on the peer, on each other) are never stuck behind the limit.
func TestQueuedJobsStartWhenTheBusyWorkersBlock(t *testing.T) {
	w := rpc.NewWorkers(1, time.Millisecond)
	const n = 8
	var all sync.WaitGroup
	all.Add(n)
	done := make(chan struct{}, n)
	for range n {
		w.Run(func() {
			all.Done()
			all.Wait() // returns once every job has started
			done <- struct{}{}
		})
	}
	for range n {
		await(t, done, "jobs that wait for each other")
	}
}

// A job run now never waits behind the queue: a notification (a
// cancellation, say) reaches a server whose workers are all busy.
func TestJobsRunNowSkipTheQueue(t *testing.T) {
	w := rpc.NewWorkers(1, time.Hour)
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{})
	w.Run(func() { close(started); <-release })
	await(t, started, "the busy job")
	w.Run(func() {})
	ran := make(chan struct{})
	w.RunNow(func() { close(ran) })
	await(t, ran, "the job run now, while the only worker is busy")
}

// Queued jobs do not wait for long behind busy workers that compute: once
// the processors have been taken for about a time slice without a queued
// job taken, more workers start and the scheduler shares the processors,
// as it would if every call had a goroutine of its own.
func TestQueuedJobsStartBehindLongComputations(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // the computing job takes the only processor
	w := rpc.NewWorkers(1, time.Millisecond)
	var ran atomic.Bool
	giveUp := time.Now().Add(10 * time.Second)
	sawIt := make(chan bool, 1)
	w.Run(func() {
		for !ran.Load() && time.Now().Before(giveUp) {
			// Computes until the queued job has run.
		}
		sawIt <- ran.Load()
	})
	w.Run(func() { ran.Store(true) })
	assert.True(t, await(t, sawIt, "the computing job"), "the queued job did not run while the only busy worker computed")
}
