package mcp

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// HTTPLinkForTest is an open link of a client transport, for tests that
// run an rpc.Conn over it before the Client exists.
type HTTPLinkForTest struct {
	clientLink
	env *linkEnv
}

// DialHTTPLinkForTest dials t. Calls that cannot be answered are reported
// to the function given to SetFail.
func DialHTTPLinkForTest(ctx context.Context, t ClientTransport, logger *slog.Logger) (*HTTPLinkForTest, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	env := &linkEnv{logger: logger}
	l, err := t.dial(ctx, env)
	if err != nil {
		return nil, err
	}
	return &HTTPLinkForTest{clientLink: l, env: env}, nil
}

// SetFail sets the link's fail function; call it before the first Write.
func (l *HTTPLinkForTest) SetFail(f func(rpc.ID, error)) { l.env.fail = f }

// Cancel exposes cancel.
func (l *HTTPLinkForTest) Cancel(id rpc.ID) bool { return l.cancel(id) }

// Key exposes key.
func (l *HTTPLinkForTest) Key() string { return l.key() }

// IsHTTP exposes isHTTP.
func (l *HTTPLinkForTest) IsHTTP() bool { return l.isHTTP() }

// SSERecordForTest is one block the client's SSE reader returned.
type SSERecordForTest struct {
	Event, Data, ID string
	HasID, Dispatch bool
	Retry           time.Duration
}

// ReadSSEForTest reads every block of an event stream with the client's
// reader, bounded by max bytes a block, and the error that ended it.
func ReadSSEForTest(r io.Reader, max int) ([]SSERecordForTest, error) {
	rd := newSSEReader(r, max)
	var out []SSERecordForTest
	for range 10000 {
		rec, err := rd.next()
		if err != nil {
			return out, err
		}
		out = append(out, SSERecordForTest{Event: rec.Type, Data: string(rec.Data), ID: rec.ID,
			HasID: rec.HasID, Dispatch: rec.HasData, Retry: rec.Retry})
	}
	return out, nil
}
