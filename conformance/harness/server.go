package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// FreeAddr returns a 127.0.0.1 address with a port that was free a moment ago.
func FreeAddr() (string, error) {
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

// Process is a started server. Its stderr is kept (up to a limit) for diagnostics.
type Process struct {
	cmd    *exec.Cmd
	stderr *limitedBuffer
	done   chan struct{}
	err    error
}

// stopGrace is how long Stop waits after an interrupt before it kills.
const stopGrace = 3 * time.Second

// Start runs binary with args. The process ends when ctx ends or Stop is called.
func Start(ctx context.Context, binary string, args ...string) (*Process, error) {
	cmd := exec.CommandContext(ctx, binary, args...)
	p := &Process{cmd: cmd, stderr: &limitedBuffer{limit: 1 << 20}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = stopGrace
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Exited reports whether the process has ended.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Stop ends the process by its pid: an interrupt first, a kill after a grace period. It
// returns once the process is gone.
func (p *Process) Stop() {
	if p.Exited() {
		return
	}
	_ = p.cmd.Process.Signal(interrupt)
	select {
	case <-p.done:
	case <-time.After(stopGrace):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// Stderr returns what the process wrote to stderr so far.
func (p *Process) Stderr() string { return p.stderr.String() }

// ErrNeverAnswered reports a server that did not answer HTTP before the deadline.
var ErrNeverAnswered = errors.New("server never answered")

// WaitHTTP polls url until the server answers with any HTTP status, the process exits,
// or ctx ends. A POST without a body is enough: the point is that something listens.
func WaitHTTP(ctx context.Context, p *Process, url string) error {
	client := &http.Client{Timeout: time.Second}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(""))
		if err != nil {
			return fmt.Errorf("polling %s: %w", url, err)
		}
		resp, err := client.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w at %s: %v", ErrNeverAnswered, url, err)
		case <-p.done:
			return fmt.Errorf("%w at %s: the process exited (%v); stderr:\n%s", ErrNeverAnswered, url, p.err, p.Stderr())
		case <-tick.C:
		}
	}
}

// limitedBuffer keeps the first limit bytes written to it and drops the rest.
type limitedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.limit - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
