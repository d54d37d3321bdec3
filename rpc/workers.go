package rpc

import (
	"sync"
	"time"
)

// workerIdle is how long an idle worker waits for more work before it
// exits: long enough to serve a client's next call on the same grown stack,
// short enough that an idle connection soon holds no worker (a server may
// hold thousands).
const workerIdle = time.Second

// workers runs jobs on reused goroutines. A fresh goroutine starts with a
// small stack that schema validation grows by copying on every call; a
// worker keeps its grown stack for the next job. Workers are made on demand
// (never more than the jobs running at once, which the engine bounds) and
// exit after sitting idle, or when stop is called.
type workers struct {
	jobs chan func()
	quit chan struct{}
	once sync.Once
}

func newWorkers() *workers {
	return &workers{jobs: make(chan func()), quit: make(chan struct{})}
}

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
		select {
		case job = <-w.jobs:
		case <-idle.C:
			return
		case <-w.quit:
			return
		}
	}
}

// stop makes idle workers exit; jobs already running finish.
func (w *workers) stop() { w.once.Do(func() { close(w.quit) }) }
