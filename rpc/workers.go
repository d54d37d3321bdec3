package rpc

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/stackroom"
)

// workerIdle is how long an idle worker waits for more work before it
// exits: long enough to serve a client's next call on the same grown stack,
// short enough that an idle server soon holds no worker.
const workerIdle = time.Second

// workerStall is how long queued jobs wait while no busy worker takes one
// before more workers start for them (see workers.unstall): the busy
// workers are then waiting (for the peer, for each other), not computing.
const workerStall = time.Millisecond

// stallSlices is how many stall periods queued jobs wait behind busy
// workers that compute (the processors all taken) before more workers
// start anyway, so that the scheduler shares the processors between them
// and the calls behind, as it would if each had a goroutine: about the
// scheduler's own time slice.
const stallSlices = 10

// workers runs jobs on reused goroutines. A fresh goroutine starts with a
// small stack that schema validation grows by copying on every call; a
// worker keeps its grown stack for the next job. Workers are made on demand
// and exit after sitting idle.
//
// One pool serves every connection and handler of the process: a worker
// that served one connection's call serves the next call of any. A pool of
// each connection's own would keep a worker per connection for a second
// after its last call, so that a server opening sessions faster than one a
// second holds one goroutine, with its stack, for every session opened in
// the last second.
//
// Past a few busy workers per processor, jobs wait in a queue that the
// busy workers take them from, rather than each starting a goroutine:
// more handlers computing than there are processors finish no sooner, and
// each goroutine holds a stack of its own (tens of KB once a call has run
// on it), so a client keeping 64 calls in flight held 64 or more stacks.
// A job queues only while the processors are taken: when no goroutine of
// the process is waiting for one as it arrives, the busy workers are
// blocked (on the peer, on a slow service), not computing, and the job
// starts at once on a goroutine of its own, as every job did before. A
// queued job waits only while the busy workers make progress: when none
// has taken a queued job for the stall period while processors are free,
// more workers start (see unstall), so handlers that block after the job
// queued hold it up for a few stall periods.
type workers struct {
	jobs  chan func() // idle workers wait here
	limit func() int  // busy workers past which jobs may queue
	stall time.Duration
	// processorsBusy reports whether goroutines of the process wait for a
	// processor (w.processorsTaken, but for tests); w.mu is held.
	processorsBusy func() bool

	mu    sync.Mutex
	busy  int      // workers running a job
	queue []func() // waiting jobs, oldest first, from head on
	head  int
	taken uint64 // jobs ever taken from the queue: progress
	// The stall guard runs while jobs are queued; seen is taken when it
	// was last armed.
	guard   *time.Timer
	guarded bool
	seen    uint64
	stalled int               // periods in a row without a job taken
	sched   [1]metrics.Sample // read by the guard
}

// pool is the process's workers.
var pool = newWorkers(func() int { return 2 * runtime.GOMAXPROCS(0) }, workerStall)

// newWorkers returns a pool that queues jobs past limit() busy workers and
// gives them goroutines after stall without progress.
func newWorkers(limit func() int, stall time.Duration) *workers {
	w := &workers{jobs: make(chan func()), limit: limit, stall: stall}
	w.processorsBusy = w.processorsTaken
	return w
}

// run runs job on an idle worker, on a new one while few are busy or the
// busy ones are not computing, or else once a busy one is free (see
// workers).
func (w *workers) run(job func()) {
	w.mu.Lock()
	if w.head == len(w.queue) {
		if w.handOver(job) {
			w.mu.Unlock()
			return
		}
		if w.busy < w.limit() || !w.processorsBusy() {
			w.busy++
			w.mu.Unlock()
			go w.loop(job)
			return
		}
	}
	w.enqueue(job)
	w.mu.Unlock()
}

// runNow runs job on an idle worker or a new one, never queued: for jobs
// that must not wait behind calls (a notification, which may cancel one)
// or that only wait themselves (a batch's assembly).
func (w *workers) runNow(job func()) {
	w.mu.Lock()
	if w.handOver(job) {
		w.mu.Unlock()
		return
	}
	w.busy++
	w.mu.Unlock()
	go w.loop(job)
}

// handOver gives job to an idle worker, if one is waiting; w.mu is held.
func (w *workers) handOver(job func()) bool {
	select {
	case w.jobs <- job:
		w.busy++
		return true
	default:
		return false
	}
}

// enqueue queues job and arms the stall guard; w.mu is held.
func (w *workers) enqueue(job func()) {
	if w.head > 0 && len(w.queue) == cap(w.queue) {
		// Reuse the room of the jobs taken rather than grow.
		n := copy(w.queue, w.queue[w.head:])
		clear(w.queue[n:])
		w.queue, w.head = w.queue[:n], 0
	}
	w.queue = append(w.queue, job)
	if w.guarded {
		return
	}
	w.guarded, w.seen, w.stalled = true, w.taken, 0
	if w.guard == nil {
		w.guard = time.AfterFunc(w.stall, w.unstall)
		return
	}
	w.guard.Reset(w.stall)
}

// next takes the oldest queued job, or, with none queued, counts the
// calling worker as idle and returns nil.
func (w *workers) next() func() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.head == len(w.queue) {
		w.busy--
		return nil
	}
	job := w.queue[w.head]
	w.queue[w.head] = nil
	w.head++
	if w.head == len(w.queue) {
		w.queue, w.head = w.queue[:0], 0
	}
	w.taken++
	return job
}

// unstall is the stall guard: it waits for another period while the busy
// workers take queued jobs. Once a whole period passed without one taken
// and with no goroutine of the process waiting for a processor (so the
// busy workers are blocked, not computing or waiting their turn, which
// more goroutines would not help), or once stallSlices periods passed
// without one taken whatever the processors do (long computations must
// not hold up short calls for longer than a time slice), it hands as many
// queued jobs as there are busy workers (at least one) to idle workers or
// new ones, and waits again: handlers that block get the workers they
// need within a few periods.
func (w *workers) unstall() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.head == len(w.queue) {
		w.guarded = false
		return
	}
	w.stalled++
	if w.taken != w.seen {
		w.stalled = 0
	}
	if w.stalled > 0 && (w.stalled >= stallSlices || !w.processorsBusy()) {
		w.stalled = 0
		for n := min(max(w.busy, 1), len(w.queue)-w.head); n > 0; n-- {
			job := w.queue[w.head]
			w.queue[w.head] = nil
			w.head++
			w.taken++
			if !w.handOver(job) {
				w.busy++
				go w.loop(job)
			}
		}
		if w.head == len(w.queue) {
			w.queue, w.head = w.queue[:0], 0
			w.guarded = false
			return
		}
	}
	w.seen = w.taken
	w.guard.Reset(w.stall)
}

// processorsTaken reports whether goroutines of the process are waiting
// for a processor; w.mu is held.
func (w *workers) processorsTaken() bool {
	w.sched[0].Name = runnableMetric
	metrics.Read(w.sched[:])
	return w.sched[0].Value.Kind() == metrics.KindUint64 && w.sched[0].Value.Uint64() > 0
}

// runnableMetric counts the goroutines ready to run but not running.
const runnableMetric = "/sched/goroutines/runnable:goroutines"

func (w *workers) loop(job func()) {
	stackroom.Reserve()
	var idle *time.Timer
	for {
		job()
		if job = w.next(); job != nil {
			continue
		}
		if idle == nil {
			idle = time.NewTimer(workerIdle)
		} else {
			idle.Reset(workerIdle)
		}
		var ok bool
		if job, ok = w.awaitJob(idle); !ok {
			return
		}
	}
}

// awaitJob waits for the next job, or reports false once the worker has
// been idle for workerIdle. (A goroutine whose stack holds awaitJob is an
// idle worker: leak checks in tests tell it apart by this frame.)
func (w *workers) awaitJob(idle *time.Timer) (func(), bool) {
	select {
	case job := <-w.jobs:
		return job, true
	case <-idle.C:
		return nil, false
	}
}
