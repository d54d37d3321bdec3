package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/internal/validate"
)

// The proxy is tested as users run it: the test binary re-executes itself
// as rpcgen (proxyRoleEnv set) and, under it, as a fake server (its first
// argument childArg), so that the bytes on every pipe are real.
const (
	proxyRoleEnv = "RPCGEN_PROXY_TEST_ROLE"
	childArg     = "proxy-test-child"
)

func init() {
	if os.Getenv(proxyRoleEnv) != "rpcgen" {
		return
	}
	if len(os.Args) > 1 && os.Args[1] == childArg {
		os.Exit(fakeServer(os.Args[2:]))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// fakeServer is a server whose bytes the tests know. Its arguments:
// record=FILE copies stdin to FILE; reply=FILE writes FILE to stdout;
// echo copies stdin to stdout; answer answers each request line with an
// empty result; wait writes a line and waits for a signal or the end of
// stdin; exit=N exits with N once stdin has ended.
func fakeServer(args []string) int {
	code := 0
	var record, reply string
	var echo, answer, wait bool
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "record":
			record = v
		case "reply":
			reply = v
		case "echo":
			echo = true
		case "answer":
			answer = true
		case "wait":
			wait = true
		case "exit":
			code, _ = strconv.Atoi(v)
		}
	}
	if wait {
		// Until a signal ends it, or the proxy's end closes stdin.
		fmt.Println(`{"jsonrpc":"2.0","method":"ready"}`)
		_, _ = io.Copy(io.Discard, os.Stdin)
		return 0
	}
	var wg sync.WaitGroup
	if reply != "" {
		wg.Go(func() {
			b, _ := os.ReadFile(reply)
			os.Stdout.Write(b)
		})
	}
	var in io.Reader = os.Stdin
	switch {
	case record != "":
		f, err := os.Create(record)
		if err != nil {
			return 100
		}
		defer f.Close()
		_, _ = io.Copy(f, in)
	case echo:
		_, _ = io.Copy(os.Stdout, in)
	case answer:
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			var m struct{ ID json.RawMessage }
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.ID != nil {
				fmt.Printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}\n", m.ID)
			}
		}
	default:
		_, _ = io.Copy(io.Discard, in)
	}
	wg.Wait()
	return code
}

// proxyProcess is a running "rpcgen proxy".
type proxyProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.Reader
	stderr *syncbuf.Buffer
	done   chan struct{}
}

// testBinary is this test binary, which plays rpcgen and the fake server.
func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	return exe
}

// childCommand is the command line of the fake server.
func childCommand(t *testing.T, args ...string) []string {
	return append([]string{testBinary(t), childArg}, args...)
}

// startProxy runs "rpcgen proxy args..." with piped stdin and stdout.
func startProxy(t *testing.T, args ...string) *proxyProcess {
	t.Helper()
	cmd := exec.Command(testBinary(t), append([]string{"proxy"}, args...)...)
	cmd.Env = append(os.Environ(), proxyRoleEnv+"=rpcgen")
	p := &proxyProcess{t: t, cmd: cmd, stderr: &syncbuf.Buffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	var err error
	p.stdin, err = cmd.StdinPipe()
	require.NoError(t, err)
	p.stdout, err = cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = cmd.Process.Kill()
		}
	})
	return p
}

// wait waits for the proxy to exit, after stdout has been read, and
// returns its exit status.
func (p *proxyProcess) wait() int {
	p.t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- p.cmd.Wait() }()
	select {
	case err := <-errc:
		close(p.done)
		if err == nil {
			return 0
		}
		var ee *exec.ExitError
		require.ErrorAs(p.t, err, &ee)
		return ee.ExitCode()
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		p.t.Fatalf("the proxy did not exit; stderr:\n%s", p.stderr)
		return -1
	}
}

// exchange writes input, closes stdin, reads stdout to its end and waits:
// the whole life of a proxy that is given all its input at once.
func (p *proxyProcess) exchange(input []byte) (stdout []byte, code int) {
	p.t.Helper()
	outc := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(p.stdout)
		outc <- b
	}()
	go func() {
		_, _ = p.stdin.Write(input)
		_ = p.stdin.Close()
	}()
	select {
	case stdout = <-outc:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		p.t.Fatalf("the proxy's stdout did not end; stderr:\n%s", p.stderr)
	}
	return stdout, p.wait()
}

// recheck re-validates a transcript as "rpcgen validate" reads one and
// returns the number of messages and the findings.
func recheck(t *testing.T, set, path string) (messages int, findings []validate.Finding) {
	t.Helper()
	s, err := validate.Open(set)
	require.NoError(t, err)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	c := s.NewChecker()
	require.NoError(t, validate.Read(f, path, validate.JSONLines, 0, func(it validate.Item) error {
		messages++
		findings = append(findings, c.CheckItem(it, validate.Unknown)...)
		return nil
	}))
	return messages, findings
}

// everything is examples/everything, built once per test binary.
var everything = &harness.BuildOnce{Pkg: harness.EverythingPackage}

// everythingBinary returns examples/everything built.
func everythingBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds examples/everything; skipped with -short")
	}
	path, err := everything.Path()
	require.NoError(t, err)
	return path
}

// quietEverything are the flags that keep examples/everything from sending
// anything nobody asked for.
var quietEverything = []string{"-dynamic-after", "0", "-watch-interval", "0", "-log-level", "error"}

func TestProxyRejectsBadUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no command and no listen", []string{"--schema", "jsonrpc"}, exitUsage, "no COMMAND"},
		{"listen without upstream", []string{"--listen", "127.0.0.1:0"}, exitUsage, "--listen needs --upstream"},
		{"upstream without listen", []string{"--upstream", "http://127.0.0.1:1", "--", "x"}, exitUsage, "--upstream needs --listen"},
		{"listen and a command", []string{"--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1", "--", "x"}, exitUsage, "not both"},
		{"an upstream that is not an http URL", []string{"--listen", "127.0.0.1:0", "--upstream", "ftp://h/x"}, exitUsage, "not an http or https URL"},
		{"an unknown format", []string{"--format", "xml", "--", "x"}, exitUsage, `--format "xml"`},
		{"a bound that is not positive", []string{"--max-message-size", "0", "--", "x"}, exitUsage, "--max-message-size"},
		{"an unknown flag", []string{"--nope", "--", "x"}, exitUsage, "nope"},
		{"an unknown schema set", []string{"--schema", "mcp/1999-01-01", "--", "x"}, exitUsage, "--schema"},
		{"a report that cannot be created", []string{"--report", filepath.Join(dir, "no", "such", "dir", "r.txt"), "--", "x"}, exitFail, "--report"},
		{"a transcript that cannot be created", []string{"--transcript", filepath.Join(dir, "no", "t.jsonl"), "--", "x"}, exitFail, "--transcript"},
		{"a server that does not exist", []string{"--", filepath.Join(dir, "no-such-server")}, exitFail, "starting the server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := rpcgen(append([]string{"proxy"}, tt.args...)...)
			assert.Equal(t, tt.code, code, stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

func TestProxyHelpNamesBothModesAndEveryFlag(t *testing.T) {
	code, stdout, _ := rpcgen("help", "proxy")
	assert.Equal(t, exitOK, code)
	for _, want := range []string{"-- COMMAND", "--listen ADDR --upstream URL", "-schema", "-format", "-report", "-transcript", "-fail-on-findings", "-max-message-size", "mcp/2025-11-25"} {
		assert.Contains(t, stdout, want)
	}
}
