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

// NewWorkers exposes newWorkers, with a fixed limit.
func NewWorkers(limit int, stall time.Duration) *Workers {
	return newWorkers(func() int { return limit }, stall)
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
