package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// user is the test's client side: how it answers the form, what it saw.
type user struct {
	action string // the elicitation answer's action
	mu     sync.Mutex
	logs   []string
	asked  []string // the sampling prompts
}

func (u *user) elicit(_ context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	if u.action != "accept" {
		return &mcp.ElicitResult{Action: mcp.ElicitResultAction(u.action)}, nil
	}
	// The budget is left out: the client fills in the form's default.
	return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{
		"nights": {Value: mcp.ElicitResultContentValueNumber(3)},
	}}, nil
}

func (u *user) sample(_ context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	t, _ := p.Messages[0].Content.AsText()
	u.mu.Lock()
	u.asked = append(u.asked, t.Text)
	u.mu.Unlock()
	return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: mcp.CreateMessageResultContent{Value: mcp.TextContent{Text: "Walk along the canals."}}}, nil
}

func (u *user) log(_ context.Context, p *mcp.LoggingMessageNotificationParams) {
	u.mu.Lock()
	u.logs = append(u.logs, string(p.Data))
	u.mu.Unlock()
}

func (u *user) seen() (logs, asked []string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.logs...), append([]string(nil), u.asked...)
}

// dial serves a fresh ask server over transport ("stdio" or "http") and connects a
// client speaking only version with opts to it.
func dial(t *testing.T, version, transport string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	s, err := newServer(slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	var ct mcp.ClientTransport
	if transport == "stdio" {
		toServer, fromClient := io.Pipe()
		toClient, fromServer := io.Pipe()
		go s.Serve(ctx, rpc.NewStreamTransport(toServer, fromServer))
		t.Cleanup(func() {
			fromClient.Close()
			toClient.Close()
		})
		ct = &mcp.StreamTransport{Transport: rpc.NewStreamTransport(toClient, fromClient)}
	} else {
		h := mcp.NewStreamableHTTPHandler(s, nil)
		ts := httptest.NewServer(h)
		t.Cleanup(func() {
			h.Close()
			ts.Close()
		})
		ct = &mcp.StreamableHTTPTransport{URL: ts.URL}
	}
	opts.ProtocolVersions = []string{version}
	opts.Logger = slog.New(slog.DiscardHandler)
	session, err := mcp.NewClient(&mcp.Implementation{Name: "ask-test", Version: "1"}, opts).Connect(ctx, ct)
	require.NoError(t, err)
	t.Cleanup(func() { session.Close() })
	require.Equal(t, version, session.ProtocolVersion())
	return session
}

// eachEra runs f in both eras over both transports.
func eachEra(t *testing.T, f func(t *testing.T, version, transport string)) {
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(version+"/"+transport, func(t *testing.T) { f(t, version, transport) })
		}
	}
}

// planTripCall calls plan_trip to Amsterdam.
func planTripCall(t *testing.T, s *mcp.ClientSession) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "plan_trip", Arguments: json.RawMessage(`{"destination":"Amsterdam"}`)})
}

// text is the text of a result's only block.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].AsText()
	require.True(t, ok)
	return tc.Text
}

// The one tool, written once, asks the user and the model and logs, in both eras over
// both transports: the answers reach it at the right step, the budget default filled in
// by the client.
func TestPlanTripAsksTheUserAndTheModelInBothEras(t *testing.T) {
	eachEra(t, func(t *testing.T, version, transport string) {
		u := &user{action: "accept"}
		s := dial(t, version, transport, &mcp.ClientOptions{Elicit: u.elicit, CreateMessage: u.sample, OnLog: u.log})
		require.NoError(t, s.SetLoggingLevel(context.Background(), "info"))
		res, err := planTripCall(t, s)
		require.NoError(t, err)
		assert.Equal(t, "Trip to Amsterdam: 3 nights, medium budget. Idea: Walk along the canals.", text(t, res))
		require.Eventually(t, func() bool {
			logs, _ := u.seen()
			return len(logs) > 0 && logs[len(logs)-1] == `"trip planned"`
		}, 10*time.Second, 10*time.Millisecond)
		logs, asked := u.seen()
		assert.Contains(t, logs, `"planning a trip to Amsterdam"`)
		assert.Equal(t, []string{"Suggest one thing to do in Amsterdam during 3 nights on a medium budget."}, asked)
	})
}

// A user who declines gets no trip, and the model is never asked.
func TestPlanTripStopsWhenTheUserDeclines(t *testing.T) {
	eachEra(t, func(t *testing.T, version, transport string) {
		u := &user{action: "decline"}
		s := dial(t, version, transport, &mcp.ClientOptions{Elicit: u.elicit, CreateMessage: u.sample})
		res, err := planTripCall(t, s)
		require.NoError(t, err)
		assert.Equal(t, "No trip planned: the user chose to decline.", text(t, res))
		_, asked := u.seen()
		assert.Empty(t, asked)
	})
}

// A client without sampling learns that it lacks it: a tool error in a session, -32021
// naming sampling in a stateless request.
func TestPlanTripSaysWhatAClientWithoutSamplingLacks(t *testing.T) {
	eachEra(t, func(t *testing.T, version, transport string) {
		u := &user{action: "accept"}
		s := dial(t, version, transport, &mcp.ClientOptions{Elicit: u.elicit})
		res, err := planTripCall(t, s)
		if version == mcp.Version20251125 {
			require.NoError(t, err)
			assert.True(t, res.IsError != nil && *res.IsError)
			assert.Equal(t, "mcp: the client did not declare this capability: sampling", text(t, res))
			return
		}
		var rerr *rpc.Error
		require.ErrorAs(t, err, &rerr)
		assert.Equal(t, mcp.CodeMissingCapability, rerr.Code)
		assert.JSONEq(t, `{"requiredCapabilities":{"sampling":{}}}`, string(rerr.Data))
	})
}

func TestRunRefusesBadFlags(t *testing.T) {
	var stderr bytes.Buffer
	require.Error(t, run([]string{"-nope"}, &stderr))
	assert.Contains(t, stderr.String(), "-nope")
}

func TestRunRefusesStrayArguments(t *testing.T) {
	err := run([]string{"serve"}, &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unexpected arguments")
}
