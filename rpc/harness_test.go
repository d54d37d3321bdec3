package rpc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// peer sends raw bytes to a server. Every transport under test implements
// it.
type peer interface {
	// call sends raw and returns the one reply it must get.
	call(t *testing.T, raw string) string
	// silent sends raw and checks that nothing is answered.
	silent(t *testing.T, raw string)
}

// transports builds a server for h on each transport the black-box tests
// cover.
var transports = map[string]func(t *testing.T, h rpc.Handler, opts ...rpc.Option) peer{
	"stream": newStreamPeer,
	"http":   newHTTPPeer,
}

// forEachTransport runs f once per transport.
func forEachTransport(t *testing.T, h rpc.Handler, f func(t *testing.T, p peer), opts ...rpc.Option) {
	for name, mk := range transports {
		t.Run(name, func(t *testing.T) { f(t, mk(t, h, opts...)) })
	}
}

// streamPeer drives a Conn over a newline-delimited stream. To prove that
// nothing was answered, it follows each message with a probe request and
// checks that the probe's reply is the next line.
type streamPeer struct {
	in  *io.PipeWriter
	out *bufio.Reader
}

const probeMethod = "probe"

func newStreamPeer(t *testing.T, h rpc.Handler, opts ...rpc.Option) peer {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	conn := rpc.NewConn(rpc.NewStreamTransport(inR, outW, opts...), append(opts, rpc.WithHandler(withProbe(h)))...)
	t.Cleanup(func() {
		inW.Close()
		conn.Close()
		<-conn.Done()
	})
	return &streamPeer{in: inW, out: bufio.NewReaderSize(outR, 1<<20)}
}

// send writes raw as one line. The newlines of pretty-printed JSON are
// plain whitespace, so they become spaces. io.Pipe has no buffer: the write
// runs while the replies are read.
func (p *streamPeer) send(raw string) {
	go io.WriteString(p.in, strings.ReplaceAll(raw, "\n", " ")+"\n")
}

func (p *streamPeer) call(t *testing.T, raw string) string {
	t.Helper()
	p.send(raw)
	return p.readLine(t)
}

// silent follows raw with two probes, one after the other: any reply other
// than the probes' before the second probe is answered fails the test. A
// correct server can never fail it; a server that answers a notification
// is caught unless its reply is slower than two round trips.
func (p *streamPeer) silent(t *testing.T, raw string) {
	t.Helper()
	p.send(raw)
	for i := range 2 {
		id := fmt.Sprintf(`"probe-%d"`, i)
		p.send(`{"jsonrpc":"2.0","method":"probe","id":` + id + `}`)
		line := p.readLine(t)
		require.Contains(t, line, id, "nothing but the probe's reply was expected")
	}
}

func (p *streamPeer) readLine(t *testing.T) string {
	t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := p.out.ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case r := <-ch:
		require.NoError(t, r.err)
		return strings.TrimSuffix(r.s, "\n")
	case <-time.After(10 * time.Second):
		t.Fatal("no reply within 10s")
		return ""
	}
}

// withProbe answers the probe method and passes everything else to h.
func withProbe(h rpc.Handler) rpc.Handler {
	return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		if req.Method == probeMethod {
			return "ok", nil
		}
		return h.Handle(ctx, req)
	})
}

type httpPeer struct{ url string }

func newHTTPPeer(t *testing.T, h rpc.Handler, opts ...rpc.Option) peer {
	srv := httptest.NewServer(rpc.NewHTTPHandler(h, opts...))
	t.Cleanup(srv.Close)
	return &httpPeer{url: srv.URL}
}

func (p *httpPeer) post(t *testing.T, raw string) (int, string) {
	t.Helper()
	resp, err := http.Post(p.url, "application/json", strings.NewReader(raw))
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

func (p *httpPeer) call(t *testing.T, raw string) string {
	t.Helper()
	status, body := p.post(t, raw)
	require.Equal(t, http.StatusOK, status, "body: %s", body)
	return body
}

func (p *httpPeer) silent(t *testing.T, raw string) {
	t.Helper()
	status, body := p.post(t, raw)
	require.Equal(t, http.StatusNoContent, status, "body: %s", body)
	require.Empty(t, body)
}

// reply is a decoded response, for checks.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *rpc.Error      `json:"error"`
}

func decodeReply(t *testing.T, s string) reply {
	t.Helper()
	var r reply
	require.NoError(t, json.Unmarshal([]byte(s), &r), "reply: %s", s)
	require.Equal(t, "2.0", r.JSONRPC, "reply: %s", s)
	require.NotNil(t, r.ID, "every reply carries an id: %s", s)
	return r
}

func decodeBatchReply(t *testing.T, s string) []reply {
	t.Helper()
	var raws []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(s), &raws), "reply: %s", s)
	out := make([]reply, len(raws))
	for i, r := range raws {
		out[i] = decodeReply(t, string(r))
	}
	return out
}
