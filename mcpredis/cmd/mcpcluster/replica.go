package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// replicaStartTimeout bounds the wait for a replica to answer HTTP.
const replicaStartTimeout = 15 * time.Second

// replicaStopGrace is how long stop waits after SIGTERM before it kills: short enough
// that the whole cluster stops within the three seconds a conformance run grants.
const replicaStopGrace = 2 * time.Second

// replica is a running everything-redis process.
type replica struct {
	n    int
	addr string
	cmd  *exec.Cmd
	done chan struct{}
	err  error // how it exited, once done is closed
}

// startReplica runs binary as replica n on a free loopback port with args, its stderr
// written line by line to log with a "replica N: " prefix, and returns once it answers
// HTTP.
func startReplica(ctx context.Context, n int, binary string, args []string, log *lineLog) (*replica, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binary, append([]string{"-http", addr}, args...)...)
	w := log.writer(fmt.Sprintf("replica %d: ", n))
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = childAttr()
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting replica %d: %w", n, err)
	}
	r := &replica{n: n, addr: addr, cmd: cmd, done: make(chan struct{})}
	go func() {
		r.err = cmd.Wait()
		w.flush()
		close(r.done)
	}()
	if err := r.waitHTTP(ctx); err != nil {
		r.stop()
		return nil, err
	}
	return r, nil
}

// url is where the replica serves.
func (r *replica) url() string { return "http://" + r.addr }

// waitHTTP polls the replica until it answers HTTP, exits, or the bound or ctx ends.
func (r *replica) waitHTTP(ctx context.Context) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.NewTimer(replicaStartTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url()+"/mcp", nil)
		if err != nil {
			return err
		}
		if resp, err := client.Do(req); err == nil {
			_ = resp.Body.Close()
			return nil
		}
		select {
		case <-r.done:
			return fmt.Errorf("replica %d exited before it answered at %s: %v", r.n, r.addr, r.err)
		case <-ctx.Done():
			return fmt.Errorf("waiting for replica %d: %w", r.n, ctx.Err())
		case <-deadline.C:
			return fmt.Errorf("replica %d did not answer at %s within %s", r.n, r.addr, replicaStartTimeout)
		case <-tick.C:
		}
	}
}

// stop asks the replica to exit (SIGTERM), kills it when it has not after
// replicaStopGrace, and returns once it is gone.
func (r *replica) stop() {
	select {
	case <-r.done:
		return
	default:
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(replicaStopGrace):
		_ = r.cmd.Process.Kill()
		<-r.done
	}
}

// freeAddr returns a loopback address with a port nothing listened on a moment ago.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	return addr, nil
}

// lineLog writes whole lines from several sources to one writer, one line at a time.
type lineLog struct {
	mu  sync.Mutex
	out io.Writer
}

// writer returns a writer whose lines go to the log with prefix.
func (l *lineLog) writer(prefix string) *prefixWriter {
	return &prefixWriter{log: l, prefix: prefix}
}

// prefixWriter collects what one source writes and passes each complete line on.
type prefixWriter struct {
	log    *lineLog
	prefix string
	mu     sync.Mutex
	buf    []byte
}

func (w *prefixWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.emit(w.buf[:i+1])
		w.buf = w.buf[i+1:]
	}
}

// flush passes on a last line without its newline.
func (w *prefixWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.emit(append(w.buf, '\n'))
		w.buf = nil
	}
}

func (w *prefixWriter) emit(line []byte) {
	w.log.mu.Lock()
	defer w.log.mu.Unlock()
	_, _ = io.WriteString(w.log.out, w.prefix)
	_, _ = w.log.out.Write(line)
}
