package scale

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Bounds on starting and stopping a process.
const (
	startTimeout = 15 * time.Second
	stopGrace    = 3 * time.Second
)

// proc is one started program that listens on addr.
type proc struct {
	name   string
	addr   string
	cmd    *exec.Cmd
	stderr *tail
	exited chan struct{}
	err    error
}

// start runs program with args and waits until addr accepts connections.
func start(name, addr, program string, args ...string) (*proc, error) {
	p := &proc{name: name, addr: addr, stderr: &tail{}, exited: make(chan struct{})}
	p.cmd = exec.Command(program, args...)
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	deadline := time.Now().Add(startTimeout)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return p, nil
		}
		select {
		case <-p.exited:
			return nil, fmt.Errorf("%s exited before listening on %s: %v%s", name, addr, p.err, p.stderr.suffix())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("%s did not listen on %s within %v%s", name, addr, startTimeout, p.stderr.suffix())
		}
	}
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

// alive returns an error when the process has exited.
func (p *proc) alive() error {
	select {
	case <-p.exited:
		return fmt.Errorf("%s exited: %v%s", p.name, p.err, p.stderr.suffix())
	default:
		return nil
	}
}

// stop ends the process: SIGTERM, then SIGKILL after a grace period.
func (p *proc) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(stopGrace):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// freeAddr returns a 127.0.0.1 address whose port was free a moment ago.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// tail keeps the last few KiB a process wrote to stderr.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 4 << 10

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailBytes {
		t.buf = t.buf[len(t.buf)-tailBytes:]
	}
	return len(b), nil
}

// suffix is the tail as the end of an error message, "" when empty.
func (t *tail) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := bytes.TrimSpace(t.buf)
	if len(s) == 0 {
		return ""
	}
	return "; its stderr ends: " + string(s)
}

// ping waits until the Redis at addr answers PING, within ctx.
func ping(ctx context.Context, addr string) error {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			conn.SetDeadline(time.Now().Add(time.Second))
			_, err = conn.Write([]byte("PING\r\n"))
			buf := make([]byte, 16)
			var n int
			if err == nil {
				n, err = conn.Read(buf)
			}
			conn.Close()
			if err == nil && bytes.HasPrefix(buf[:n], []byte("+PONG")) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return errors.New("redis-server did not answer PING")
		case <-time.After(20 * time.Millisecond):
		}
	}
}
