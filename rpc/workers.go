package rpc

import (
	"time"
)

// workerIdle is how long an idle worker waits for more work before it
// exits: long enough to serve a client's next call on the same grown stack,
// short enough that an idle server soon holds no worker.
const workerIdle = time.Second

// workers runs jobs on reused goroutines. A fresh goroutine starts with a
// small stack that schema validation grows by copying on every call; a
// worker keeps its grown stack for the next job. Workers are made on demand
// (never more than the jobs running at once, which each engine bounds) and
// exit after sitting idle.
//
// One pool serves every connection and handler of the process: a worker
// that served one connection's call serves the next call of any. A pool of
// each connection's own would keep a worker per connection for a second
// after its last call, so that a server opening sessions faster than one a
// second holds one goroutine, with its stack, for every session opened in
// the last second.
type workers struct {
	jobs chan func()
}

// pool is the process's workers.
var pool = workers{jobs: make(chan func())}

// run runs job on an idle worker, or on a new one if none is idle.
func (w *workers) run(job func()) {
	select {
	case w.jobs <- job:
	default:
		go w.loop(job)
	}
}

func (w *workers) loop(job func()) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		job()
		idle.Reset(workerIdle)
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
