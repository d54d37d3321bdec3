package rpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/rpc"
)

// The conn-level fuzz targets run a real rpc.Conn with a Router over a
// newline-delimited stream: the input is every line at once, the Conn reads
// to the end, lets the calls in flight finish, and stops; the test then
// reads every reply it wrote. Nothing depends on timing.

// fzProbe is the last line of every run: its exact reply proves the
// connection still served calls after the fuzzed input.
const (
	fzProbe      = `{"jsonrpc":"2.0","method":"echo","params":["fz-probe"],"id":"fz-probe"}`
	fzProbeReply = `{"jsonrpc":"2.0","id":"fz-probe","result":["fz-probe"]}`
	fzMaxBatch   = 8
)

// fzCalls records the calls that reached the router's methods.
type fzCalls struct {
	mu    sync.Mutex
	calls []string // method + " " + params
}

func (c *fzCalls) add(req *rpc.Request) {
	c.mu.Lock()
	c.calls = append(c.calls, req.Method+" "+string(req.Params))
	c.mu.Unlock()
}

func (c *fzCalls) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.calls)
}

// fzRouter serves: echo (its params back, null when absent), note (a
// notification method), fail (an application error) and boom (a panic).
// Every call that reaches a method is recorded.
func fzRouter(calls *fzCalls) *rpc.Router {
	r := rpc.NewRouter()
	r.Use(func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			calls.add(req)
			return next.Handle(ctx, req)
		})
	})
	r.Register("echo", rpc.Method{Handler: func(_ context.Context, req *rpc.Request) (any, error) {
		if req.Params == nil {
			return nil, nil
		}
		return req.Params, nil
	}})
	r.Register("note", rpc.Method{Notification: true, Handler: func(context.Context, *rpc.Request) (any, error) {
		return nil, nil
	}})
	r.Register("fail", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) {
		return nil, rpc.NewError(1234, "failed on purpose")
	}})
	r.Register("boom", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) {
		panic("boom on purpose")
	}})
	return r
}

// fzServe feeds lines, then the probe, to a Conn serving fzRouter, and
// returns the replies other than the probe's, which it checks, and the
// calls that reached a method (the probe's left out).
func fzServe(t *testing.T, lines ...[]byte) (replies []string, calls []string) {
	t.Helper()
	var in bytes.Buffer
	for _, l := range lines {
		in.Write(l)
		in.WriteByte('\n')
	}
	in.WriteString(fzProbe + "\n")
	var out syncbuf.Buffer
	rec := &fzCalls{}
	conn := rpc.NewConn(rpc.NewStreamTransport(&in, &out), rpc.WithHandler(fzRouter(rec)), rpc.WithMaxBatch(fzMaxBatch))
	select {
	case <-conn.Done():
	case <-time.After(10 * time.Second):
		conn.Close()
		t.Fatalf("the connection did not finish within 10s of the end of its input %q", lines)
	}
	text := out.String()
	probes := 0
	for l := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
		if l == fzProbeReply {
			probes++
			continue
		}
		if l != "" {
			replies = append(replies, l)
		}
	}
	if probes != 1 {
		t.Fatalf("the probe was answered %d times after %q; output %q", probes, lines, text)
	}
	for _, c := range rec.list() {
		if c != `echo ["fz-probe"]` {
			calls = append(calls, c)
		}
	}
	return replies, calls
}

// response is one decoded reply object, each member's raw bytes kept.
type response map[string]json.RawMessage

// wellFormed decodes one reply line: a response object or a non-empty
// array of them, each valid UTF-8 JSON with "jsonrpc":"2.0", an id, and
// exactly one of result and error (an error with an integer code and a
// string message), and nothing else. It returns the objects and whether
// the line was an array.
func wellFormed(t *testing.T, line string) ([]response, bool) {
	t.Helper()
	if !utf8.ValidString(line) || !json.Valid([]byte(line)) {
		t.Fatalf("reply is not valid UTF-8 JSON: %q", line)
	}
	var objs []response
	array := strings.HasPrefix(line, "[")
	if array {
		if err := json.Unmarshal([]byte(line), &objs); err != nil || len(objs) == 0 {
			t.Fatalf("reply array is empty or not of objects: %q", line)
		}
	} else {
		var one response
		if err := json.Unmarshal([]byte(line), &one); err != nil {
			t.Fatalf("reply is neither an object nor an array: %q", line)
		}
		objs = []response{one}
	}
	for _, o := range objs {
		_, hasResult := o["result"]
		_, hasError := o["error"]
		if string(o["jsonrpc"]) != `"2.0"` || o["id"] == nil || hasResult == hasError || len(o) != 3 {
			t.Fatalf("malformed response %s in %q", mustMarshal(t, o), line)
		}
		if hasError {
			var e struct {
				Code    *int    `json:"code"`
				Message *string `json:"message"`
			}
			if json.Unmarshal(o["error"], &e) != nil || e.Code == nil || e.Message == nil {
				t.Fatalf("malformed error object in %q", line)
			}
		}
	}
	return objs, array
}

// code is a reply's error code, 0 for a result.
func (r response) code() int {
	var e struct{ Code int }
	if r["error"] == nil || json.Unmarshal(r["error"], &e) != nil {
		return 0
	}
	return e.Code
}
