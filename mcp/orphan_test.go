package mcp_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// retryFast makes the grace before a gone client's calls are cancelled
// (ten reconnection delays) a tenth of a second.
var retryFast = &mcp.HTTPOptions{RetryInterval: 10 * time.Millisecond}

// startHold starts a hold call in a session and reads the sampling
// request it sends the client; it returns that request's id and a hang-up
// of the call's stream.
func startHold(t *testing.T, hs *holdServer, session string) (string, func()) {
	t.Helper()
	resp, hangUp := postOpen(t, hs.f, session, holdCall(10, 10))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	r := newSSE(t, resp)
	for {
		ev, err := r.next()
		require.NoError(t, err)
		if ev.Data == "" {
			continue
		}
		m := decode(t, ev.Data)
		if m.Method == "sampling/createMessage" {
			return string(m.ID), hangUp
		}
	}
}

// holdAndHangUp starts a hold call in a session, reads the sampling
// request it sends the client, and hangs up; it returns that request's id.
func holdAndHangUp(t *testing.T, hs *holdServer, session string) string {
	t.Helper()
	id, hangUp := startHold(t, hs, session)
	hangUp()
	return id
}

// A call waiting for the answer of a client that hung up, and whose
// session has no HTTP request in progress, is cancelled after ten
// reconnection delays, not at the session's idle timeout.
func TestACallAwaitingAClientThatLeftIsCancelled(t *testing.T) {
	hs := newHoldServer(t, nil, retryFast)
	session := hs.f.initialize(mcp.Version20251125)
	holdAndHangUp(t, hs, session)
	select {
	case <-hs.cancelled:
	case <-time.After(20 * time.Second):
		t.Fatal("the call was not cancelled")
	}
	waitFor(t, "the call returns", func() bool { return hs.held.Load() == 0 })
}

// A call waiting for a client that keeps a stream open (here the GET
// stream, when the call's own stream breaks) is not cancelled, and ends
// with the client's answer. The GET stream is open before the break: a
// reconnection after it would race the tenth of a second of grace on a
// busy machine.
func TestACallAwaitingAClientWithAStreamOpenGoesOn(t *testing.T) {
	hs := newHoldServer(t, nil, retryFast)
	f := hs.f
	session := f.initialize(mcp.Version20251125)
	id, hangUp := startHold(t, hs, session)
	get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session})
	require.Equal(t, http.StatusOK, get.StatusCode)
	hangUp()
	// Many times the grace, with the GET stream open all along.
	time.Sleep(3 * 10 * retryFast.RetryInterval)
	assert.Empty(t, hs.cancelled, "the call goes on")
	require.Equal(t, int64(1), hs.held.Load())

	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}}`, id)
	require.Equal(t, http.StatusAccepted, f.post(session, answer).StatusCode)
	waitFor(t, "the answered call returns", func() bool { return hs.held.Load() == 0 })
	assert.Empty(t, hs.cancelled, "it ended with the answer")
}

// One timer watches both deadlines of an idle session, whichever comes
// first: after the orphan grace has cancelled a gone client's call the
// session still ends at its idle timeout, and an idle timeout shorter
// than the grace ends the session (and so the call) without waiting for
// the grace.
func TestAnIdleSessionMeetsBothItsDeadlines(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts *mcp.HTTPOptions
	}{
		{"grace first", &mcp.HTTPOptions{RetryInterval: 10 * time.Millisecond, SessionTimeout: time.Second}},
		{"timeout first", &mcp.HTTPOptions{RetryInterval: time.Minute, SessionTimeout: 100 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := newHoldServer(t, nil, tc.opts)
			session := hs.f.initialize(mcp.Version20251125)
			holdAndHangUp(t, hs, session)
			select {
			case <-hs.cancelled:
			case <-time.After(20 * time.Second):
				t.Fatal("the call was not cancelled")
			}
			require.Eventually(t, func() bool { return mcp.SessionCountForTest(hs.f.h) == 0 }, 20*time.Second, 10*time.Millisecond,
				"the session did not time out")
			waitFor(t, "the call returns", func() bool { return hs.held.Load() == 0 })
		})
	}
}
