package rpc

import (
	"reflect"
	"runtime"
	"time"
)

// LoopbackDefault exposes loopbackDefault.
var LoopbackDefault = loopbackDefault

// IdleWorkerFrame is the function on the stack of a worker waiting for a
// job: leak checks ignore the process's idle workers by it.
var IdleWorkerFrame = runtime.FuncForPC(reflect.ValueOf((*workers).awaitJob).Pointer()).Name()

// Workers is a pool of workers of its own, for tests of the process's.
type Workers = workers

// NewWorkers exposes newWorkers, with a fixed limit, for a machine whose
// processors are always taken: jobs past the limit queue.
func NewWorkers(limit int, stall time.Duration) *Workers {
	w := newWorkers(func() int { return limit }, stall)
	w.processorsBusy = func() bool { return true }
	return w
}

// NewWorkersFreeProcessors is NewWorkers on a machine whose processors are
// free whenever a job arrives: the busy workers are blocked, not computing.
func NewWorkersFreeProcessors(limit int, stall time.Duration) *Workers {
	w := newWorkers(func() int { return limit }, stall)
	w.processorsBusy = func() bool { return false }
	return w
}

// Run exposes run.
func (w *workers) Run(job func()) { w.run(job) }

// RunNow exposes runNow.
func (w *workers) RunNow(job func()) { w.runNow(job) }

// Queued returns the number of jobs waiting for a worker.
func (w *workers) Queued() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.queue) - w.head
}
