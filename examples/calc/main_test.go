package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/examples/calc/calcrpc"
	"github.com/schemarpc/schemarpc/rpc"
)

var calcBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "calc-test")
	if err != nil {
		panic(err)
	}
	calcBin = filepath.Join(dir, "calc")
	if out, err := exec.Command("go", "build", "-o", calcBin, ".").CombinedOutput(); err != nil {
		panic("building calc: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// start runs the calc binary with args and returns it with pipes attached.
func start(t *testing.T, args ...string) (cmd *exec.Cmd, stdin io.WriteCloser, stdout, stderr *bufio.Reader) {
	t.Helper()
	cmd = exec.Command(calcBin, args...)
	var err error
	stdin, err = cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	errPipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	return cmd, stdin, bufio.NewReader(out), bufio.NewReader(errPipe)
}

// listening starts calc with a listen flag on a free loopback port and
// returns the address it reports.
func listening(t *testing.T, flag string) string {
	t.Helper()
	addr, _ := listeningCmd(t, flag)
	return addr
}

// listeningCmd is listening that also returns the process.
func listeningCmd(t *testing.T, flag string) (string, *exec.Cmd) {
	t.Helper()
	cmd, _, _, stderr := start(t, flag, "127.0.0.1:0")
	re := regexp.MustCompile(`addr=(127\.0\.0\.1:\d+)`)
	lines := make(chan string)
	go func() {
		for {
			line, err := stderr.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- line
		}
	}()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case line, ok := <-lines:
			require.True(t, ok, "calc exited before listening")
			if m := re.FindStringSubmatch(line); m != nil {
				go func() {
					for range lines {
					}
				}()
				return m[1], cmd
			}
		case <-deadline:
			t.Fatal("calc did not report its address")
		}
	}
}

// exerciseClient drives every method through the generated typed client.
func exerciseClient(t *testing.T, c rpc.Caller) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	calc := calcrpc.NewCalcClient(c)

	sum, err := calc.Add(ctx, &calcrpc.AddParams{A: 40, B: 2})
	require.NoError(t, err)
	assert.Equal(t, 42.0, sum)

	got, err := calc.Echo(ctx, json.RawMessage(`{"n":123456789012345678901234567890,"list":[1e3,-0]}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"n":123456789012345678901234567890,"list":[1e3,-0]}`, string(got))
	assert.Contains(t, string(got), "123456789012345678901234567890", "numbers keep their exact text")

	got, err = calc.Echo(ctx, json.RawMessage(`["a",1]`))
	require.NoError(t, err)
	assert.JSONEq(t, `["a",1]`, string(got))

	got, err = calc.Echo(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, "null", string(got))

	_, err = calc.Fail(ctx)
	var e *rpc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, calcrpc.CodeDeliberate, e.Code)
	assert.Equal(t, "deliberate failure", e.Message)

	_, err = calc.Panic(ctx)
	require.ErrorAs(t, err, &e)
	assert.Equal(t, rpc.CodeInternalError, e.Code)
	assert.Equal(t, "internal error", e.Message, "the panic value never reaches the peer")

	require.NoError(t, calc.NotifyMe(ctx, json.RawMessage(`{"any":"thing"}`)))

	sum, err = calc.Add(ctx, &calcrpc.AddParams{A: 1, B: 1})
	require.NoError(t, err, "the server keeps serving after a panic")
	assert.Equal(t, 2.0, sum)

	// By position and bad params, through the untyped caller.
	require.NoError(t, c.Call(ctx, "add", []float64{1.5, 2.5}, &sum))
	assert.Equal(t, 4.0, sum)
	for params, location := range map[string]string{
		`{"a":1,"b":"x"}`:     "/b",
		`[1,"x"]`:             "/1 (b)", // by position and by name
		`{"a":1}`:             "",
		`{"a":1,"b":2,"c":3}`: "",
		`[1,2,3]`:             "",
	} {
		err := c.Call(ctx, "add", json.RawMessage(params), &sum)
		require.ErrorAs(t, err, &e, params)
		assert.Equal(t, rpc.CodeInvalidParams, e.Code, params)
		if location != "" {
			assert.Contains(t, e.Message, location+": ", params)
		}
	}
}

func TestCalcOverStdio(t *testing.T) {
	_, stdin, stdout, _ := start(t)
	client := rpc.NewConn(rpc.NewStreamTransport(stdout, stdin))
	defer client.Close()
	exerciseClient(t, client)
}

func TestCalcOverStdioRawLines(t *testing.T) {
	_, stdin, stdout, _ := start(t)
	lines := []struct{ send, want string }{
		{`{"jsonrpc":"2.0","method":"notify_me","params":[1]}`, ""},
		{`{"jsonrpc":"2.0","method":"add","params":[1,2],"id":9007199254740993}`, `{"jsonrpc":"2.0","id":9007199254740993,"result":3}`},
		{`not json`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid literal at byte 0"}}`},
		{`{"jsonrpc":"2.0","method":"nope","id":"\u00e9"}`, `{"jsonrpc":"2.0","id":"\u00e9","error":{"code":-32601,"message":"method not found: \"nope\""}}`},
		{`{"jsonrpc":"2.0","method":"fail","id":1}`, `{"jsonrpc":"2.0","id":1,"error":{"code":42,"message":"deliberate failure"}}`},
	}
	for _, l := range lines {
		_, err := io.WriteString(stdin, l.send+"\n")
		require.NoError(t, err)
		if l.want == "" {
			continue
		}
		got, err := stdout.ReadString('\n')
		require.NoError(t, err)
		assert.Equal(t, l.want+"\n", got)
	}
	// End of input: the server finishes and exits cleanly.
	stdin.Close()
}

func TestCalcOverHTTP(t *testing.T) {
	addr := listening(t, "-http")
	exerciseClient(t, rpc.NewHTTPClient("http://"+addr+"/", nil))

	resp, err := http.Get("http://" + addr + "/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)

	resp, err = http.Post("http://"+addr+"/", "application/json", strings.NewReader(`{"jsonrpc":"2.0","method":"notify_me"}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
}

func TestCalcOverWebSocket(t *testing.T) {
	addr := listening(t, "-ws")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := rpc.DialWebSocket(ctx, "ws://"+addr+"/", nil)
	require.NoError(t, err)
	defer conn.Close()
	exerciseClient(t, conn)
}

// Over HTTP and WebSocket, calc answers only requests whose Host and
// Origin name this machine: a page of another site, or one that rebinds
// its own name to 127.0.0.1, gets 403.
func TestCalcRefusesAForeignHostOrOrigin(t *testing.T) {
	call := `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`
	for _, flag := range []string{"-http", "-ws"} {
		addr := listening(t, flag)
		for _, tc := range []struct {
			name, host, origin string
			want               int
		}{
			{"loopback", "", "", 0},
			{"loopback page", "", "http://localhost:3000", 0},
			{"foreign host", "evil.example.com", "", http.StatusForbidden},
			{"foreign origin", "", "http://evil.example.com", http.StatusForbidden},
		} {
			t.Run(flag+"/"+tc.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				hdr := http.Header{}
				if tc.origin != "" {
					hdr.Set("Origin", tc.origin)
				}
				if flag == "-ws" {
					ws, resp, err := websocket.Dial(ctx, "ws://"+addr+"/", &websocket.DialOptions{Host: tc.host, HTTPHeader: hdr})
					if tc.want == http.StatusForbidden {
						require.Error(t, err)
						require.NotNil(t, resp)
						assert.Equal(t, http.StatusForbidden, resp.StatusCode)
						return
					}
					require.NoError(t, err)
					defer ws.CloseNow()
					require.NoError(t, ws.Write(ctx, websocket.MessageText, []byte(call)))
					_, b, err := ws.Read(ctx)
					require.NoError(t, err)
					assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":3}`, string(b))
					return
				}
				req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/", strings.NewReader(call))
				require.NoError(t, err)
				req.Header = hdr
				req.Header.Set("Content-Type", "application/json")
				if tc.host != "" {
					req.Host = tc.host
				}
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				defer resp.Body.Close()
				if tc.want == http.StatusForbidden {
					assert.Equal(t, http.StatusForbidden, resp.StatusCode)
					return
				}
				b, err := io.ReadAll(resp.Body)
				require.NoError(t, err)
				assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":3}`, string(b))
			})
		}
	}
}

// On SIGINT, calc over HTTP shuts down gracefully and exits with status 0.
func TestCalcShutsDownCleanlyOnInterrupt(t *testing.T) {
	for _, flag := range []string{"-http", "-ws"} {
		t.Run(flag, func(t *testing.T) {
			_, cmd := listeningCmd(t, flag)
			require.NoError(t, cmd.Process.Signal(os.Interrupt))
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				assert.NoError(t, err, "exit status 0")
			case <-time.After(20 * time.Second):
				t.Fatal("calc did not exit")
			}
		})
	}
}

func TestCalcRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-http", "127.0.0.1:0", "-ws", "127.0.0.1:0"},
		{"-nope"},
		{"extra"},
		{"-http", "not an address"},
	} {
		out, err := exec.Command(calcBin, args...).CombinedOutput()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "args %v: %s", args, out)
		assert.NotZero(t, exit.ExitCode())
		assert.NotEmpty(t, out)
	}
}
