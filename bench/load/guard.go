package load

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// guard bounds the work on one server process: it kills the process when
// a budget of time has passed or when ctx ends, which ends every read
// blocked on it, and it turns a failure into an error that says what
// became of the process.
type guard struct {
	p        *process
	budget   time.Duration
	timedOut atomic.Bool
	watchdog *time.Timer
	stopCtx  func() bool
}

// guardProcess starts guarding p; release ends the guard.
func guardProcess(ctx context.Context, p *process, budget time.Duration) *guard {
	g := &guard{p: p, budget: budget}
	g.watchdog = time.AfterFunc(budget, func() { g.timedOut.Store(true); p.kill() })
	g.stopCtx = context.AfterFunc(ctx, p.kill)
	return g
}

// release stops the guard without touching the process.
func (g *guard) release() {
	g.watchdog.Stop()
	g.stopCtx()
}

// explain adds to err what became of the process: killed after the budget,
// exited (with its stderr), or still running (with its stderr).
func (g *guard) explain(err error) error {
	// A server that died shows as a broken stream first; give the exit a
	// moment to be noticed so that the error can say so.
	select {
	case <-g.p.exited:
	case <-time.After(500 * time.Millisecond):
	}
	if g.timedOut.Load() {
		return fmt.Errorf("%w (the server was killed after %v without finishing)", err, g.budget)
	}
	if dead := g.p.alive(); dead != nil {
		return fmt.Errorf("%w (%v)", err, dead)
	}
	return fmt.Errorf("%w%s", err, g.p.stderr.suffix())
}
