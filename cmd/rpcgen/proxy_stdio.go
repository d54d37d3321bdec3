package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// queueChunks bounds how many pieces of traffic may wait to be checked.
// Each is at most one read (readSize bytes from the client; the server's
// pieces are what exec's copy hands over, 32 KiB), so a few MiB at most.
// When checking falls that far behind, forwarding waits for it: findings
// are never dropped, and the wait lasts only as long as checking the
// queued bytes takes.
const queueChunks = 64

// readSize is the size of one read from the client.
const readSize = 64 << 10

// chunk is a piece of traffic on its way to the checker.
type chunk struct {
	from validate.Direction
	b    []byte
	eof  bool // the sender's stream has ended
}

// stdioTap checks the traffic of a stdio proxy off the forwarding path.
// Both directions go through one queue in the order they were read, and
// every piece is queued before it is passed on. So the checker sees a
// request before the response it caused, however the goroutines are
// scheduled.
type stdioTap struct {
	mon     *monitor
	checker *validate.Checker
	queue   chan chunk
	finish  chan struct{} // closed: check what is queued, then stop
	done    chan struct{} // closed when the checker has stopped
}

func newStdioTap(mon *monitor) *stdioTap {
	return &stdioTap{
		mon:     mon,
		checker: mon.set.NewChecker(),
		queue:   make(chan chunk, queueChunks),
		finish:  make(chan struct{}),
		done:    make(chan struct{}),
	}
}

// put queues a copy of p; false means the checker has stopped.
func (t *stdioTap) put(from validate.Direction, p []byte, eof bool) bool {
	c := chunk{from: from, eof: eof}
	if len(p) > 0 {
		c.b = append([]byte(nil), p...)
	}
	select {
	case t.queue <- c:
		return true
	case <-t.done:
		return false
	}
}

// run checks queued traffic until both sides have ended or finish is
// closed; then what is queued is checked and unfinished last lines are
// flushed.
func (t *stdioTap) run() {
	defer close(t.done)
	var split [3]*lineSplitter
	for _, from := range []validate.Direction{validate.FromClient, validate.FromServer} {
		split[from] = &lineSplitter{
			max:     t.mon.max,
			line:    func(b []byte) { t.mon.check(t.checker, b, from, "", "") },
			tooLong: func() { t.mon.tooLong(t.checker, from) },
		}
	}
	take := func(c chunk) bool {
		if c.eof {
			split[c.from].flush()
			return true
		}
		split[c.from].write(c.b)
		return false
	}
	for open := 2; open > 0; {
		select {
		case c := <-t.queue:
			if take(c) {
				open--
			}
		case <-t.finish:
			for {
				select {
				case c := <-t.queue:
					take(c)
				default:
					split[validate.FromClient].flush()
					split[validate.FromServer].flush()
					return
				}
			}
		}
	}
}

// tapWriter passes what the server writes on to w after queueing it.
type tapWriter struct {
	tap *stdioTap
	w   io.Writer
}

func (w tapWriter) Write(p []byte) (int, error) {
	w.tap.put(validate.FromServer, p, false)
	return w.w.Write(p)
}

// lockedWriter serialises writes to a writer shared by the reporter and the
// server's stderr.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// runProxyStdio runs the command of cfg with its stdin and stdout spliced
// to stdin and stdout, checks the traffic, and returns the exit status to
// forward: the server's, or 1 when it could not be started.
func runProxyStdio(cfg proxyConfig, mon *monitor, stdin io.Reader, stdout, stderr io.Writer) int {
	tap := newStdioTap(mon)
	cmd := exec.Command(cfg.command[0], cfg.command[1:]...)
	cmd.Stdout = tapWriter{tap: tap, w: stdout}
	cmd.Stderr = stderr
	childIn, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintf(stderr, "rpcgen proxy: %v\n", err)
		return exitFail
	}
	// Signals are caught from before the server starts, so that none
	// meant for it ends the proxy instead; they wait in the channel until
	// there is a server to pass them to.
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer func() {
		signal.Stop(signals)
		close(signals)
	}()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "rpcgen proxy: starting the server: %v\n", err)
		return exitFail
	}
	go func() {
		for s := range signals {
			_ = cmd.Process.Signal(s)
		}
	}()
	go tap.run()

	go forwardClient(tap, stdin, childIn)

	waitErr := cmd.Wait()
	tap.put(validate.FromServer, nil, true)
	close(tap.finish)
	<-tap.done
	return exitStatus(waitErr, stderr)
}

// forwardClient copies the client's bytes to the server, queueing each
// piece for the checker first, and closes the server's stdin when the
// client's input ends.
func forwardClient(tap *stdioTap, stdin io.Reader, childIn io.WriteCloser) {
	defer childIn.Close()
	buf := make([]byte, readSize)
	for {
		n, err := stdin.Read(buf)
		if n > 0 {
			tap.put(validate.FromClient, buf[:n], false)
			if _, werr := childIn.Write(buf[:n]); werr != nil {
				// The server is gone; its exit ends the proxy.
				tap.put(validate.FromClient, nil, true)
				return
			}
		}
		if err != nil {
			tap.put(validate.FromClient, nil, true)
			return
		}
	}
}

// exitStatus turns the end of the server into the proxy's exit status, as
// a shell reports it: its exit code, or 128+N when signal N killed it.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	fmt.Fprintf(stderr, "rpcgen proxy: waiting for the server: %v\n", err)
	return exitFail
}
