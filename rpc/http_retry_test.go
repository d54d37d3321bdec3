package rpc_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// limitedService answers "limited" with a refusal asking for a wait of
// 1.2 s, "busy" with a -32000 without a retry hint, "ok" with true.
func limitedService() rpc.Handler {
	r := rpc.NewRouter()
	r.Register("limited", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) {
		return nil, rpc.RateLimited(1200*time.Millisecond, "limited per client")
	}})
	r.Register("busy", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) {
		return nil, rpc.ServerError(rpc.CodeServerBusy, "busy")
	}})
	r.Register("ok", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) {
		return true, nil
	}})
	return r
}

func postJSON(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

func TestHTTPAnswersALoneRefusedRequestWith429(t *testing.T) {
	srv := httptest.NewServer(rpc.NewHTTPHandler(limitedService()))
	defer srv.Close()
	cases := []struct {
		name, body string
		status     int
		retryAfter string
	}{
		{"refused with a retry hint", `{"jsonrpc":"2.0","id":1,"method":"limited"}`, http.StatusTooManyRequests, "2"},
		{"busy without a hint", `{"jsonrpc":"2.0","id":1,"method":"busy"}`, http.StatusOK, ""},
		{"a result", `{"jsonrpc":"2.0","id":1,"method":"ok"}`, http.StatusOK, ""},
		{"a refusal in a batch", `[{"jsonrpc":"2.0","id":1,"method":"limited"},{"jsonrpc":"2.0","id":2,"method":"ok"}]`, http.StatusOK, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := postJSON(t, srv.URL, c.body)
			assert.Equal(t, c.status, resp.StatusCode)
			assert.Equal(t, c.retryAfter, resp.Header.Get("Retry-After"))
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			assert.True(t, json.Valid([]byte(body)), body)
		})
	}
	resp, body := postJSON(t, srv.URL, `{"jsonrpc":"2.0","id":"x","method":"limited"}`)
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":"x","error":{"code":-32000,"message":"rate limit exceeded","data":{"retryAfterMs":1200,"limit":"limited per client"}}}`, body)
}

func TestHTTPClientReturnsA429RefusalAsItsError(t *testing.T) {
	srv := httptest.NewServer(rpc.NewHTTPHandler(limitedService()))
	defer srv.Close()
	err := rpc.NewHTTPClient(srv.URL, nil).Call(context.Background(), "limited", nil, nil)
	var e *rpc.Error
	require.ErrorAs(t, err, &e)
	wait, ok := rpc.RetryAfter(err)
	assert.True(t, ok)
	assert.Equal(t, 1200*time.Millisecond, wait)
}

func TestHTTPClientReportsA429WithoutARefusalAsAStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "slow down", http.StatusTooManyRequests)
	}))
	defer srv.Close()
	err := rpc.NewHTTPClient(srv.URL, nil).Call(context.Background(), "ok", nil, nil)
	var he *rpc.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, http.StatusTooManyRequests, he.StatusCode)
	assert.Equal(t, "slow down", he.Body)
}

func TestSetRetryAfterRoundsUpToWholeSeconds(t *testing.T) {
	cases := []struct {
		wait time.Duration
		want string
	}{
		{0, "1"},
		{time.Millisecond, "1"},
		{time.Second, "1"},
		{time.Second + time.Millisecond, "2"},
		{90 * time.Second, "90"},
	}
	for _, c := range cases {
		h := http.Header{}
		rpc.SetRetryAfter(h, c.wait)
		assert.Equal(t, c.want, h.Get("Retry-After"), c.wait)
	}
}

func TestResponseRetryAfterReadsOnlyARefusal(t *testing.T) {
	refusal := `{"code":-32000,"message":"rate limit exceeded","data":{"retryAfterMs":250}}`
	cases := []struct {
		name, msg string
		wait      time.Duration
		ok        bool
	}{
		{"encoded by this module", `{"jsonrpc":"2.0","id":7,"error":` + refusal + `}`, 250 * time.Millisecond, true},
		{"members in another order", `{"error":` + refusal + `,"id":7,"jsonrpc":"2.0"}`, 250 * time.Millisecond, true},
		{"a result", `{"jsonrpc":"2.0","id":7,"result":{"error":` + refusal + `}}`, 0, false},
		{"another error", `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"internal error"}}`, 0, false},
		{"busy without a hint", `{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"busy"}}`, 0, false},
		{"a batch", `[{"jsonrpc":"2.0","id":7,"error":` + refusal + `}]`, 0, false},
		{"malformed error", `{"jsonrpc":"2.0","id":7,"error":{"code":"x"}}`, 0, false},
		{"truncated", `{"jsonrpc":"2.0","id":7,"error":{"code":`, 0, false},
		{"truncated id", `{"jsonrpc":"2.0","id":"7`, 0, false},
		{"not JSON", `slow down`, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wait, ok := rpc.ResponseRetryAfter([]byte(c.msg))
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.wait, wait)
		})
	}
}

func TestResponseRetryAfterCostsAResultNoAllocation(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":"abc","result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 1000) + `"}]}}`)
	allocs := testing.AllocsPerRun(100, func() { rpc.ResponseRetryAfter(msg) })
	assert.Zero(t, allocs)
}
