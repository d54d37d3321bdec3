package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// CommandTransport connects a client to a server it spawns (stdio): one
// JSON-RPC message per line on the process's stdin and stdout. The
// server's stderr is the caller's (Stderr) or kept, the last 64 KiB of it,
// for StderrOutput. Closing the session closes the server's stdin, waits
// CloseTimeout for it to exit, then sends SIGTERM, waits again, then kills
// it.
//
// A CommandTransport spawns one process; connect again with a new one.
type CommandTransport struct {
	// Command is the server to run; its Stdin, Stdout and (unless Stderr
	// is set) Stderr must be unset.
	Command *exec.Cmd
	// Stderr receives what the server writes to its stderr; nil keeps it
	// in a bounded buffer (StderrOutput).
	Stderr io.Writer
	// CloseTimeout is how long each step of closing waits for the process
	// to exit; 0 means 5 seconds.
	CloseTimeout time.Duration

	mu     sync.Mutex
	stderr *tailBuffer
	exited chan struct{} // closed when the process has exited
	err    error         // how it exited
}

// stderrKept is how much of a server's stderr a CommandTransport keeps.
const stderrKept = 64 << 10

func (t *CommandTransport) dial(ctx context.Context, env *linkEnv) (clientLink, error) {
	if t.Command == nil {
		return nil, errors.New("mcp: CommandTransport without a Command")
	}
	cmd := t.Command
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.exited != nil || cmd.Process != nil {
		return nil, errors.New("mcp: CommandTransport: the command was already started")
	}
	if cmd.Stdin != nil || cmd.Stdout != nil {
		return nil, errors.New("mcp: CommandTransport: the Command's Stdin and Stdout must be unset")
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Our own pipe for stdout: Wait leaves it alone, so the client reads
	// what the server wrote before it exited even after Wait returned.
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	if cmd.Stderr == nil {
		if t.Stderr != nil {
			cmd.Stderr = t.Stderr
		} else {
			t.stderr = &tailBuffer{limit: stderrKept}
			cmd.Stderr = t.stderr
		}
	}
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = t.closeTimeout()
	}
	if err := cmd.Start(); err != nil {
		stdout.Close()
		w.Close()
		return nil, fmt.Errorf("mcp: starting %s: %w", cmd.Path, err)
	}
	w.Close()
	t.exited = make(chan struct{})
	go func() {
		err := cmd.Wait()
		t.mu.Lock()
		t.err = err
		t.mu.Unlock()
		close(t.exited)
	}()
	l := &commandLink{t: t, stdout: stdout, name: "command:" + strings.Join(cmd.Args, " ")}
	l.StreamTransport = rpc.NewStreamTransport(stdout, stdin)
	return l, nil
}

func (t *CommandTransport) closeTimeout() time.Duration {
	if t.CloseTimeout > 0 {
		return t.CloseTimeout
	}
	return 5 * time.Second
}

// StderrOutput returns the end of what the server wrote to its stderr (at
// most 64 KiB), when Stderr is nil.
func (t *CommandTransport) StderrOutput() string {
	t.mu.Lock()
	b := t.stderr
	t.mu.Unlock()
	if b == nil {
		return ""
	}
	return b.String()
}

// Exited reports whether the server process has exited, and how: nil
// for a zero exit status, an *exec.ExitError otherwise.
func (t *CommandTransport) Exited() (bool, error) {
	t.mu.Lock()
	done := t.exited
	t.mu.Unlock()
	if done == nil {
		return false, nil
	}
	select {
	case <-done:
		t.mu.Lock()
		defer t.mu.Unlock()
		return true, t.err
	default:
		return false, nil
	}
}

// stop ends the process: stdin closed, then SIGTERM, then SIGKILL, each
// given CloseTimeout to work.
func (t *CommandTransport) stop(stdinClosed error) error {
	wait := func() bool {
		select {
		case <-t.exited:
			return true
		case <-time.After(t.closeTimeout()):
			return false
		}
	}
	if stdinClosed != nil || !wait() {
		if err := t.Command.Process.Signal(syscall.SIGTERM); err != nil || !wait() {
			_ = t.Command.Process.Kill()
			<-t.exited
		}
	}
	_, err := t.Exited()
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		// How the server ended is for Exited; closing it worked.
		return nil
	}
	return err
}

// commandLink is the link to a spawned server.
type commandLink struct {
	*rpc.StreamTransport
	t      *CommandTransport
	stdout *os.File
	name   string

	once sync.Once
	err  error
}

func (l *commandLink) isHTTP() bool       { return false }
func (l *commandLink) key() string        { return l.name }
func (l *commandLink) cancel(rpc.ID) bool { return false }

// Close stops the server (see CommandTransport) and releases the pipes.
func (l *commandLink) Close() error {
	l.once.Do(func() {
		// Closing the transport closes stdin (and our end of stdout,
		// which only matters once the process is gone).
		stdinErr := l.StreamTransport.Close()
		l.err = l.t.stop(stdinErr)
	})
	return l.err
}

// tailBuffer keeps the last limit bytes written to it.
type tailBuffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.limit; over > 0 {
		b.buf = append(b.buf[:0:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
