package load

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// startTimeout bounds the wait for a server to listen; a variable so that a
// test can wait less for a server that never does.
var startTimeout = 15 * time.Second

// stopTimeout bounds the wait for a server to exit once told to.
const stopTimeout = 3 * time.Second

// buildServers compiles servers/<name> of the bench module at dir into
// outDir, one program per name not already in prebuilt, and returns every
// program's path by name.
func buildServers(ctx context.Context, dir, outDir string, names []string, prebuilt map[string]string) (map[string]string, error) {
	paths := map[string]string{}
	for _, name := range names {
		if p, ok := prebuilt[name]; ok {
			paths[name] = p
			continue
		}
		src := filepath.Join(dir, "servers", name)
		if st, err := os.Stat(src); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("server %q: no directory %s (run from the bench module or pass its directory)", name, src)
		}
		out := filepath.Join(outDir, name)
		cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./servers/"+name)
		cmd.Dir = dir
		if msg, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building server %q: %v\n%s", name, err, msg)
		}
		paths[name] = out
	}
	return paths, nil
}

// process is one running server program.
type process struct {
	name   string
	cmd    *exec.Cmd
	stderr *tailBuffer

	// stdin and stdout are the driver's ends of the stdio pipes (stdio only).
	stdin  *os.File
	stdout *bufio.Reader
	outR   *os.File
	// url is the Streamable HTTP endpoint (HTTP only).
	url string

	exited  chan struct{}
	waitErr error
	stopped bool
	mu      sync.Mutex
}

// startStdio starts program with its stdin and stdout connected to the driver.
func startStdio(name, program string) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	p := &process{name: name, stdin: inW, outR: outR, stdout: bufio.NewReaderSize(outR, 64<<10)}
	p.cmd = exec.Command(program)
	p.cmd.Stdin, p.cmd.Stdout = inR, outW
	err = p.start()
	// The child holds its own copies of these ends now.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	return p, nil
}

// announcePrefix starts the line a benchmark server writes on stdout once
// it listens over HTTP (bench/servers/internal/serve.Announce); the rest of
// the line is its endpoint's URL.
const announcePrefix = "listening on "

// startHTTP starts program serving Streamable HTTP on a port the kernel
// chooses (-http 127.0.0.1:0) and waits for the line in which it announces
// its URL: no port can be taken in between, and the wait ends the moment
// the server listens.
func startHTTP(name, program string, stateless bool) (*process, error) {
	args := []string{"-http", "127.0.0.1:0"}
	if stateless {
		args = append(args, "-stateless")
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p := &process{name: name, outR: outR}
	p.cmd = exec.Command(program, args...)
	p.cmd.Stdout = outW
	err = p.start()
	outW.Close() // the child holds its own copy
	if err != nil {
		outR.Close()
		return nil, err
	}
	line := make(chan string, 1)
	go func() {
		br := bufio.NewReader(outR)
		s, _ := br.ReadString('\n')
		line <- s
		_, _ = io.Copy(io.Discard, br) // until the server exits or stop closes outR
	}()
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case s := <-line:
		if p.url, err = parseAnnounce(s); err != nil {
			p.stop()
			if dead := p.alive(); dead != nil {
				return nil, fmt.Errorf("%w (%v)", err, dead)
			}
			return nil, fmt.Errorf("server %s: %w%s", name, err, p.stderr.suffix())
		}
		return p, nil
	case <-timer.C:
		p.stop()
		return nil, fmt.Errorf("server %s did not announce its address within %v%s", name, startTimeout, p.stderr.suffix())
	}
}

// parseAnnounce returns the URL of a server's announcement line.
func parseAnnounce(line string) (string, error) {
	if line == "" {
		return "", errors.New("ended its output without announcing its address")
	}
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), announcePrefix)
	if u, err := url.Parse(rest); !ok || err != nil || u.Scheme != "http" || u.Host == "" {
		return "", fmt.Errorf("announced %q, not %q and its URL", quote([]byte(line)), announcePrefix)
	}
	return rest, nil
}

// startListening starts program with args and waits until addr, where it
// was told to listen, accepts connections.
func startListening(name, program, addr string, args ...string) (*process, error) {
	p := &process{name: name}
	p.cmd = exec.Command(program, args...)
	if err := p.start(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(startTimeout)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return p, nil
		}
		select {
		case <-p.exited:
			return nil, fmt.Errorf("server %s exited before listening on %s: %v%s", name, addr, p.waitErr, p.stderr.suffix())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.kill()
			return nil, fmt.Errorf("server %s did not listen on %s within %v%s", name, addr, startTimeout, p.stderr.suffix())
		}
	}
}

// freeLocalAddr returns a 127.0.0.1 address whose port was free a moment ago.
func freeLocalAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func (p *process) start() error {
	p.stderr = &tailBuffer{}
	p.cmd.Stderr = p.stderr
	p.exited = make(chan struct{})
	if err := p.cmd.Start(); err != nil {
		return fmt.Errorf("starting server %s: %w", p.name, err)
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.exited)
	}()
	return nil
}

// pid is the server's process id.
func (p *process) pid() int { return p.cmd.Process.Pid }

// alive returns an error when the server has exited.
func (p *process) alive() error {
	select {
	case <-p.exited:
		return fmt.Errorf("server %s exited: %v%s", p.name, p.waitErr, p.stderr.suffix())
	default:
		return nil
	}
}

// kill ends the process at once; safe to call more than once.
func (p *process) kill() {
	_ = p.cmd.Process.Kill()
}

// stop ends the server the way a client would: closing stdin (stdio) or
// sending SIGTERM (HTTP), then killing it if it is still running after a
// few seconds. It releases the driver's pipe ends.
func (p *process) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.stopped = true
	if p.stdin != nil {
		p.stdin.Close()
	} else {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-p.exited:
	case <-time.After(stopTimeout):
		p.kill()
		<-p.exited
	}
	if p.outR != nil {
		p.outR.Close()
	}
}

// tailBuffer keeps the last few kilobytes written to it: a server's stderr,
// quoted when it fails.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 4 << 10

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(b), nil
}

// suffix is "; stderr: …" with the kept text, or "" when there is none.
func (t *tailBuffer) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) == 0 {
		return ""
	}
	return "; stderr: " + strconv.Quote(string(t.buf))
}

var errStopped = errors.New("server stopped")
