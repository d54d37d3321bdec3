package soak

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// newClient returns an MCP client that speaks only version.
func newClient(version string) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "soak", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{version}})
}

// httpTransport is a Streamable HTTP client transport to the soak server.
func (w *worker) httpTransport() *mcp.StreamableHTTPTransport {
	return &mcp.StreamableHTTPTransport{URL: w.env.url, HTTPClient: w.env.hc, DisableSSEFallback: true}
}

// echo calls the echo tool and checks its answer.
func echo(ctx context.Context, cs *mcp.ClientSession, text string) error {
	res, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"` + text + `"}`)})
	if err != nil {
		return err
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return echoResult(text)(raw)
}

// rpcCode returns the JSON-RPC error code in err, or 0.
func rpcCode(err error) int {
	var re *rpc.Error
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

// sdkSession connects an MCP client over HTTP in one era and makes the
// calls an application makes, valid and not, then closes.
func (w *worker) sdkSession(ctx context.Context, version string) {
	kind := "client-" + version
	cs, err := newClient(version).Connect(ctx, w.httpTransport())
	if err == nil && cs.ProtocolVersion() != version {
		err = fmt.Errorf("negotiated %q, want %q", cs.ProtocolVersion(), version)
	}
	w.record(kind+"/connect", err)
	if cs == nil {
		return
	}
	defer cs.Close()
	if err != nil {
		return
	}
	for range 1 + w.rnd.IntN(4) {
		switch w.rnd.IntN(4) {
		case 0:
			w.record(kind+"/echo", echo(ctx, cs, "sdk"))
		case 1:
			_, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "nope", Arguments: json.RawMessage(`{}`)})
			if c := rpcCode(err); c != -32602 {
				err = fmt.Errorf("unknown tool: %v, want -32602", err)
			} else {
				err = nil
			}
			w.record(kind+"/unknown-tool", err)
		case 2:
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "soak://static"})
			if err == nil && (len(res.Contents) != 1) {
				err = fmt.Errorf("read %d contents, want 1", len(res.Contents))
			}
			w.record(kind+"/resource", err)
		case 3:
			res, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "fail", Arguments: json.RawMessage(`{}`)})
			if err == nil && (res.IsError == nil || !*res.IsError) {
				err = errors.New("the fail tool's result lacks isError")
			}
			w.record(kind+"/tool-error", err)
		}
	}
}

// cancelled starts a slow call with a short deadline: the call must end
// with the deadline, and the session must answer the next call.
func (w *worker) cancelled(ctx context.Context, kind string, cs *mcp.ClientSession) {
	cctx, cancel := context.WithTimeout(ctx, time.Duration(5+w.rnd.IntN(40))*time.Millisecond)
	_, err := cs.CallTool(cctx, &mcp.CallToolRequestParams{Name: "slow", Arguments: json.RawMessage(`{"ms":5000}`)})
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("a call past its deadline returned %v, want the deadline", err)
	} else {
		err = nil
	}
	w.record(kind+"/cancelled", err)
	w.record(kind+"/after-cancel", echo(ctx, cs, "again"))
}

// sdkCancel connects over HTTP in one era and cancels a call.
func (w *worker) sdkCancel(ctx context.Context, version string) {
	kind := "client-" + version
	cs, err := newClient(version).Connect(ctx, w.httpTransport())
	w.record(kind+"/connect", err)
	if err != nil {
		return
	}
	defer cs.Close()
	w.cancelled(ctx, kind, cs)
}

// disconnect starts a slow call in a session by hand, reads the start of
// its SSE stream and hangs up. The session must go on answering; half the
// time the client then ends it, otherwise it is abandoned and expires.
func (w *worker) disconnect(ctx context.Context) {
	sid, ok := w.openSession(ctx)
	if !ok {
		return
	}
	rctx, cancel := context.WithCancel(ctx)
	req := request(rctx, http.MethodPost, w.env.url, call("tools/call", `{"name":"slow","arguments":{"ms":`+fmt.Sprint(100+w.rnd.IntN(900))+`}}`)("5"), sessionHeaders(sid)...)
	resp, err := w.env.hc.Do(req)
	if err == nil {
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			err = fmt.Errorf("a slow call: status %d %s, want an SSE stream", resp.StatusCode, resp.Header.Get("Content-Type"))
		} else {
			// The priming event arrives at once; the response does not.
			_, err = bufio.NewReader(resp.Body).ReadString('\n')
		}
		cancel()
		resp.Body.Close()
	}
	cancel()
	w.record("disconnect/mid-stream", err)
	w.runCase(ctx, sessionCases[0], "6", sessionHeaders(sid)...)
	if w.rnd.IntN(2) == 0 {
		w.deleteSession(ctx, sid)
	} else {
		w.record("disconnect/abandoned", nil)
	}
}

// statelessHangUp sends a slow stateless call and gives up on it before the
// answer: on this protocol closing the request cancels it.
func (w *worker) statelessHangUp(ctx context.Context) {
	rctx, cancel := context.WithTimeout(ctx, time.Duration(5+w.rnd.IntN(40))*time.Millisecond)
	defer cancel()
	req := request(rctx, http.MethodPost, w.env.url, statelessCall("tools/call", `"name":"slow","arguments":{"ms":3000}`)("1"), statelessHeaders("tools/call", "slow")...)
	_, err := exchange(w.env.hc, req)
	if !errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("a stateless call abandoned by its client: %v, want the deadline", err)
	} else {
		err = nil
	}
	w.record("stateless/hang-up", err)
}
