package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// awkwardTraffic is traffic meant to trip a proxy that re-encodes or
// re-frames: valid messages, invalid JSON, CRLF, blank lines, a 1 MiB line,
// bytes that are not UTF-8, and a last line without a newline.
func awkwardTraffic(method string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":%q}\n", method)
	b.WriteString("{ \"jsonrpc\" : \"2.0\" , \"method\" : \"spaced\" }\r\n")
	b.WriteString("\n\r\n   \n")
	b.WriteString("this is not JSON\n")
	b.WriteString("\xff\xfe\x00 binary\n")
	fmt.Fprintf(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"big\",\"params\":{\"s\":%q}}\n", strings.Repeat("x", 1<<20))
	b.WriteString(`[{"jsonrpc":"2.0","method":"in-a-batch"}]` + "\n")
	b.WriteString(`{"jsonrpc":"2.0","method":"last","params":{"no":"newline"}}`)
	return b.Bytes()
}

func TestProxyStdioForwardsEveryByteUnchanged(t *testing.T) {
	tests := []struct {
		name       string
		maxMessage string
		wantReport []string
	}{
		{"with the default bound", "", []string{
			"client: message 3 (invalid from the client): -32700",
			"server: message 3 (invalid from the server): -32700",
		}},
		{"with a bound below the big line", "65536", []string{
			"client: message 5 (invalid from the client): -32700 parse error: a message longer than 65536 bytes",
			"server: message 5 (invalid from the server): -32700 parse error: a message longer than 65536 bytes",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			sent := awkwardTraffic("from-client")
			reply := awkwardTraffic("from-server")
			replyFile := writeFile(t, dir, "reply", string(reply))
			recorded := filepath.Join(dir, "recorded")
			report := filepath.Join(dir, "report.txt")
			args := []string{"--report", report}
			if tt.maxMessage != "" {
				args = append(args, "--max-message-size", tt.maxMessage)
			}
			args = append(append(args, "--"), childCommand(t, "record="+recorded, "reply="+replyFile)...)

			p := startProxy(t, args...)
			out, code := p.exchange(sent)
			require.Equal(t, 0, code, p.stderr.String())

			got, err := os.ReadFile(recorded)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(sent, got), "the server got other bytes than the client sent (%d vs %d bytes)", len(got), len(sent))
			assert.True(t, bytes.Equal(reply, out), "the client got other bytes than the server wrote (%d vs %d bytes)", len(out), len(reply))

			rep, err := os.ReadFile(report)
			require.NoError(t, err)
			for _, want := range tt.wantReport {
				assert.Contains(t, string(rep), want)
			}
			assert.Contains(t, string(rep), "14 messages in 2 inputs checked")
		})
	}
}

// mcpStdioClient drives a proxied MCP server one line at a time.
type mcpStdioClient struct {
	t   *testing.T
	p   *proxyProcess
	out *bufio.Reader
}

// call sends line and returns the server's line that answers id, skipping
// what comes before it.
func (c *mcpStdioClient) call(id int, line string) map[string]any {
	c.t.Helper()
	_, err := fmt.Fprintln(c.p.stdin, line)
	require.NoError(c.t, err)
	type result struct {
		msg map[string]any
		err error
	}
	got := make(chan result, 1)
	go func() {
		for range 100 {
			b, err := c.out.ReadBytes('\n')
			if err != nil {
				got <- result{err: err}
				return
			}
			var m map[string]any
			if json.Unmarshal(b, &m) == nil && m["id"] == float64(id) {
				got <- result{msg: m}
				return
			}
		}
		got <- result{err: fmt.Errorf("no answer to id %d in 100 lines", id)}
	}()
	select {
	case r := <-got:
		require.NoError(c.t, r.err, "stderr:\n%s", c.p.stderr)
		return r.msg
	case <-time.After(20 * time.Second):
		c.t.Fatalf("no answer to id %d; stderr:\n%s", id, c.p.stderr)
		return nil
	}
}

// notify sends a line that gets no answer.
func (c *mcpStdioClient) notify(line string) {
	_, err := fmt.Fprintln(c.p.stdin, line)
	require.NoError(c.t, err)
}

// end closes the client's side and returns the proxy's exit status.
func (c *mcpStdioClient) end() int {
	require.NoError(c.t, c.p.stdin.Close())
	go func() { _, _ = c.out.WriteTo(io.Discard) }()
	return c.p.wait()
}

// everythingSession starts examples/everything behind the proxy with
// the extra proxy flags and runs a clean 2025-11-25 session: initialize,
// tools/list, tools/call, resources/read, prompts/get.
func everythingSession(t *testing.T, flags ...string) *mcpStdioClient {
	t.Helper()
	server := everythingBinary(t)
	args := append(append([]string{"--schema", "mcp/2025-11-25"}, flags...), "--", server)
	p := startProxy(t, append(args, quietEverything...)...)
	c := &mcpStdioClient{t: t, p: p, out: bufio.NewReader(p.stdout)}
	init := c.call(1, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"proxy-test","version":"1"}}}`)
	require.Contains(t, init, "result")
	c.notify(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, line := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"test://static-text"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"test_simple_prompt"}}`,
	} {
		require.Contains(t, c.call(i+2, line), "result", line)
	}
	return c
}

func TestProxyStdioSessionWithEverythingHasNoFindings(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "report.txt")
	c := everythingSession(t, "--report", report, "--fail-on-findings")
	require.Equal(t, 0, c.end(), c.p.stderr.String())
	rep, err := os.ReadFile(report)
	require.NoError(t, err)
	assert.Equal(t, "11 messages in 2 inputs checked, 0 findings\n", string(rep))
}

func TestProxyStdioReportsABadClientMessageAndPassesTheServersAnswer(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	transcript := filepath.Join(dir, "session.jsonl")
	c := everythingSession(t, "--report", report, "--format", "json", "--transcript", transcript, "--fail-on-findings")
	answer := c.call(6, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":5}}`)
	require.Equal(t, exitFail, c.end(), "--fail-on-findings with a finding")

	require.Contains(t, answer, "error", "the server's error answer reaches the client")
	assert.Equal(t, float64(-32602), answer["error"].(map[string]any)["code"])

	rep, err := os.ReadFile(report)
	require.NoError(t, err)
	assert.Contains(t, string(rep), `"code":-32602`)
	assert.Contains(t, string(rep), `"pointer":"/params/name"`)
	assert.Equal(t, 1, strings.Count(string(rep), `"code":`), "one finding: the server's answer is fine")

	// The transcript holds what travelled, the answer byte for byte.
	tr, err := os.ReadFile(transcript)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(tr), "\n"), "\n")
	require.Len(t, lines, 13)
	want, err := json.Marshal(answer)
	require.NoError(t, err)
	var last struct {
		From    string
		Message json.RawMessage
	}
	require.NoError(t, json.Unmarshal([]byte(lines[12]), &last))
	assert.Equal(t, "server", last.From)
	assert.JSONEq(t, string(want), string(last.Message))
}

func TestProxyStdioTranscriptRevalidatesClean(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "session.jsonl")
	c := everythingSession(t, "--transcript", transcript, "--report", filepath.Join(dir, "r.txt"))
	require.Equal(t, 0, c.end())
	messages, findings := recheck(t, "mcp/2025-11-25", transcript)
	assert.Equal(t, 11, messages)
	assert.Empty(t, findings)
}

func TestProxyStdioTranscriptLeavesOutWhatIsNotJSON(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "t.jsonl")
	p := startProxy(t, append([]string{"--transcript", transcript, "--report", filepath.Join(dir, "r.txt"), "--"}, childCommand(t, "echo")...)...)
	_, code := p.exchange([]byte("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\nnot JSON\r\n[1,\n"))
	require.Equal(t, 0, code)
	tr, err := os.ReadFile(transcript)
	require.NoError(t, err)
	assert.Equal(t,
		`{"from":"client","message":{"jsonrpc":"2.0","method":"a"}}`+"\n"+
			`{"from":"server","message":{"jsonrpc":"2.0","method":"a"}}`+"\n",
		string(tr))
}

func TestProxyStdioChecksEachRequestBeforeTheAnswerItCaused(t *testing.T) {
	// The checker matches answers with requests: were the server's answer
	// checked before the request it answers, it would be reported as an
	// answer to an unknown id.
	var in bytes.Buffer
	for i := range 2000 {
		fmt.Fprintf(&in, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"m\"}\n", i)
	}
	report := filepath.Join(t.TempDir(), "r.txt")
	p := startProxy(t, append([]string{"--schema", "jsonrpc", "--report", report, "--fail-on-findings", "--"}, childCommand(t, "answer")...)...)
	out, code := p.exchange(in.Bytes())
	rep, _ := os.ReadFile(report)
	require.Equal(t, 0, code, string(rep))
	assert.Equal(t, 2000, bytes.Count(out, []byte("\n")))
	assert.Equal(t, "4000 messages in 2 inputs checked, 0 findings\n", string(rep))
}

func TestProxyStdioExitsWithTheServersStatus(t *testing.T) {
	tests := []struct {
		name  string
		exit  string
		fail  bool
		input string
		want  int
	}{
		{"success", "0", false, "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n", 0},
		{"failure", "3", false, "", 3},
		{"findings alone do not fail", "0", false, "garbage\n", 0},
		{"findings fail with --fail-on-findings", "0", true, "garbage\n", exitFail},
		{"no findings pass with --fail-on-findings", "0", true, "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n", 0},
		{"the server's failure wins over findings", "3", true, "garbage\n", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"--schema", "jsonrpc", "--report", filepath.Join(t.TempDir(), "r.txt")}
			if tt.fail {
				args = append(args, "--fail-on-findings")
			}
			p := startProxy(t, append(append(args, "--"), childCommand(t, "exit="+tt.exit)...)...)
			_, code := p.exchange([]byte(tt.input))
			assert.Equal(t, tt.want, code, p.stderr.String())
		})
	}
}

func TestProxyStdioWritesFindingsToStderrByDefault(t *testing.T) {
	p := startProxy(t, append([]string{"--"}, childCommand(t)...)...)
	_, code := p.exchange([]byte("garbage\n"))
	require.Equal(t, 0, code)
	assert.Contains(t, p.stderr.String(), "client: message 1 (invalid from the client): -32700")
	assert.Contains(t, p.stderr.String(), "1 message in 2 inputs checked, 1 finding")
}

func TestProxyStdioPassesSignalsOnAndReportsDeathBySignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to send on Windows")
	}
	p := startProxy(t, append([]string{"--report", filepath.Join(t.TempDir(), "r.txt"), "--"}, childCommand(t, "wait")...)...)
	ready := make(chan error, 1)
	go func() {
		_, err := bufio.NewReader(p.stdout).ReadString('\n')
		ready <- err
	}()
	select {
	case err := <-ready:
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatalf("the server never said it was ready; stderr:\n%s", p.stderr)
	}
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 128+int(syscall.SIGTERM), p.wait(), "the server died of the SIGTERM passed on; stderr:\n%s", p.stderr)
}

func TestProxyStdioFailsWhenTheReportOrTranscriptCannotBeWritten(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full to fail writes")
	}
	tests := []struct {
		name string
		flag string
		want string
	}{
		{"the report", "--report", "writing the report"},
		{"the transcript", "--transcript", "writing the transcript"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{tt.flag, "/dev/full"}
			if tt.flag != "--report" {
				args = append(args, "--report", filepath.Join(t.TempDir(), "r.txt"))
			}
			p := startProxy(t, append(append(args, "--"), childCommand(t)...)...)
			_, code := p.exchange([]byte("{\"jsonrpc\":\"1.0\",\"method\":\"a\"}\n"))
			assert.Equal(t, exitFail, code, "the server succeeded, the proxy did not")
			assert.Contains(t, p.stderr.String(), tt.want)
		})
	}
}
