package soak

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// stdioSession serves one session of s over an in-memory pipe and connects
// a client speaking version to it. close ends both and waits for the
// server.
func stdioSession(ctx context.Context, s *mcp.Server, version string) (cs *mcp.ClientSession, closeAll func(), err error) {
	clientEnd, serverEnd := rpc.NewPipe()
	served := make(chan error, 1)
	go func() { served <- s.Serve(context.WithoutCancel(ctx), serverEnd) }()
	cs, err = newClient(version).Connect(ctx, &mcp.StreamTransport{Transport: clientEnd})
	closeAll = func() {
		if cs != nil {
			cs.Close()
		}
		clientEnd.Close()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
		}
	}
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	return cs, closeAll, nil
}

// stdioShared uses one of the long-lived stdio sessions that every worker
// shares: a call, or a cancelled call.
func (w *worker) stdioShared(ctx context.Context) {
	version, cs := versionHandshake, w.env.stdioHandshake
	if w.rnd.IntN(2) == 0 {
		version, cs = versionStateless, w.env.stdioStateless
	}
	kind := "stdio-" + version
	if w.rnd.IntN(4) == 0 {
		w.cancelled(ctx, kind, cs)
		return
	}
	w.record(kind+"/echo", echo(ctx, cs, "stdio"))
}

// A stdioCase is one line sent on a raw stdio session and what it
// deserves; want.id "" with a request means the id the case was sent with.
type stdioCase struct {
	name string
	line func(id string) string
	want expect
}

func line(method, params string) func(string) string {
	return func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`
	}
}

func fixedLine(s string) func(string) string { return func(string) string { return s } }

// stdioCases are the lines of a raw stdio session, valid and not.
var stdioCases = []stdioCase{
	{name: "stdio-raw/echo", line: line("tools/call", `{"name":"echo","arguments":{"text":"line"}}`), want: expect{check: echoResult("line")}},
	{name: "stdio-raw/stateless-echo", line: line("tools/call", `{"name":"echo","arguments":{"text":"line"},`+statelessMeta+`}`), want: expect{check: echoResult("line")}},
	{name: "stdio-raw/tool-error", line: line("tools/call", `{"name":"fail","arguments":{}}`), want: expect{check: toolError("the tool failed on purpose")}},
	{name: "stdio-raw/unknown-tool", line: line("tools/call", `{"name":"nope","arguments":{}}`), want: expect{code: -32602}},
	{name: "stdio-raw/wrong-params", line: line("tools/call", `{"name":["echo"]}`), want: expect{code: -32602}},
	{name: "stdio-raw/unknown-method", line: line("nope/nope", `{}`), want: expect{code: -32601}},
	{name: "stdio-raw/malformed", line: fixedLine(`{"jsonrpc":"2.0","id":7,"method":`), want: expect{code: -32700, id: "null"}},
	{name: "stdio-raw/not-a-request", line: fixedLine(`{"jsonrpc":"2.0","id":7}`), want: expect{code: -32600, id: "7"}},
	{name: "stdio-raw/oversized", line: func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping","params":{"pad":"` + strings.Repeat("x", maxBody) + `"}}`
	}, want: expect{code: -32600, id: "null"}},
}

// stdioRaw serves a fresh session over io.Pipe and talks to it line by
// line: initialize, then a few of stdioCases (an unknown notification
// before each, which must get no answer), then the end of input, after
// which the server must return.
func (w *worker) stdioRaw(ctx context.Context) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- w.env.server.Serve(context.WithoutCancel(ctx), rpc.NewStreamTransport(inR, outW, rpc.WithMaxMessageSize(maxBody)))
	}()
	lines := make(chan string, 4)
	go func() {
		defer close(lines)
		r := bufio.NewReaderSize(outR, 64<<10)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- l
		}
	}()
	exchange := func(name, send string, want expect) {
		err := writeLine(ctx, inW, send)
		if err == nil {
			var got reply
			got, err = readLine(ctx, lines)
			if err == nil {
				err = want.verify(got)
			}
		}
		w.record(name, err)
	}
	exchange("stdio-raw/initialize", strings.Replace(initBody, `"id":1`, `"id":"init"`, 1),
		expect{id: `"init"`, check: containsText(versionHandshake)})
	for i := range 2 + w.rnd.IntN(5) {
		c := pick(w.rnd, stdioCases)
		id := fmt.Sprint(100 + i)
		want := c.want
		if want.id == "" {
			want.id = id
		}
		if err := writeLine(ctx, inW, `{"jsonrpc":"2.0","method":"notifications/nope"}`); err != nil {
			w.record(c.name, err)
			break
		}
		exchange(c.name, c.line(id), want)
	}
	inW.Close()
	select {
	case err := <-served:
		w.record("stdio-raw/end-of-input", err)
	case <-time.After(10 * time.Second):
		w.record("stdio-raw/end-of-input", errors.New("the server did not return 10 s after the end of its input"))
	}
	for range lines { // the server closed its output; drain what is left
	}
}

// writeLine writes one line within ctx.
func writeLine(ctx context.Context, w io.Writer, s string) error {
	done := make(chan error, 1)
	go func() { _, err := io.WriteString(w, s+"\n"); done <- err }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Second):
		return errors.New("the server did not read a line for 10 s")
	}
}

// readLine reads the next response line within 10 s.
func readLine(ctx context.Context, lines <-chan string) (reply, error) {
	select {
	case l, ok := <-lines:
		if !ok {
			return reply{}, errors.New("the server closed its output")
		}
		m := new(message)
		if err := json.Unmarshal([]byte(l), m); err != nil {
			return reply{}, fmt.Errorf("the line is not a JSON-RPC message: %w: %q", err, l)
		}
		return reply{msg: m}, nil
	case <-ctx.Done():
		return reply{}, ctx.Err()
	case <-time.After(10 * time.Second):
		return reply{}, errors.New("no answer for 10 s")
	}
}
