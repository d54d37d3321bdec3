package rpc_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestHTTPRefusesWhatIsNotJSONRPC(t *testing.T) {
	srv := httptest.NewServer(rpc.NewHTTPHandler(testService(t)))
	defer srv.Close()
	body := `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`
	cases := []struct {
		name, method, contentType string
		status                    int
	}{
		{"GET", http.MethodGet, "application/json", http.StatusMethodNotAllowed},
		{"PUT", http.MethodPut, "application/json", http.StatusMethodNotAllowed},
		{"text/plain", http.MethodPost, "text/plain", http.StatusUnsupportedMediaType},
		{"no content type", http.MethodPost, "", http.StatusUnsupportedMediaType},
		{"form", http.MethodPost, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"charset parameter", http.MethodPost, "application/json; charset=utf-8", http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, srv.URL, strings.NewReader(body))
			require.NoError(t, err)
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, c.status, resp.StatusCode)
			if c.status == http.StatusMethodNotAllowed {
				assert.Equal(t, "POST", resp.Header.Get("Allow"))
			}
		})
	}
}

func TestHTTPRefusesAnOversizedChunkedBody(t *testing.T) {
	srv := httptest.NewServer(rpc.NewHTTPHandler(testService(t), rpc.WithMaxMessageSize(1024)))
	defer srv.Close()
	// No Content-Length: the limit must hold while reading.
	body := `{"jsonrpc":"2.0","method":"echo","params":["` + strings.Repeat("x", 2048) + `"],"id":1}`
	req, err := http.NewRequest(http.MethodPost, srv.URL, struct{ *strings.Reader }{strings.NewReader(body)})
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
}

func TestHTTPClient(t *testing.T) {
	srv := httptest.NewServer(rpc.NewHTTPHandler(testService(t)))
	defer srv.Close()
	c := rpc.NewHTTPClient(srv.URL, nil)
	ctx := context.Background()

	var sum float64
	require.NoError(t, c.Call(ctx, "add", []int{1, 2}, &sum))
	assert.Equal(t, 3.0, sum)
	assert.ErrorIs(t, c.Call(ctx, "nope", nil, nil), rpc.MethodNotFound(""))
	require.NoError(t, c.Notify(ctx, "tick", nil))

	calls := []*rpc.BatchCall{
		{Method: "add", Params: []int{2, 2}, Result: &sum},
		{Method: "tick", Notify: true},
		{Method: "fail"},
	}
	require.NoError(t, c.Batch(ctx, calls))
	assert.NoError(t, calls[0].Err)
	assert.Equal(t, 4.0, sum)
	assert.ErrorIs(t, calls[2].Err, rpc.NewError(42, ""))
}

func TestHTTPClientSpreadsAWholeBatchErrorToEveryCall(t *testing.T) {
	srv := httptest.NewServer(rpc.NewHTTPHandler(testService(t), rpc.WithMaxBatch(1)))
	defer srv.Close()
	c := rpc.NewHTTPClient(srv.URL, nil)
	calls := []*rpc.BatchCall{{Method: "add", Params: []int{1, 1}}, {Method: "add", Params: []int{1, 1}}}
	require.NoError(t, c.Batch(context.Background(), calls))
	for _, call := range calls {
		assert.ErrorIs(t, call.Err, rpc.InvalidRequest(""))
	}
}

func TestHTTPClientReportsUnexpectedStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "teapot here", http.StatusTeapot)
	}))
	defer srv.Close()
	err := rpc.NewHTTPClient(srv.URL, nil).Call(context.Background(), "x", nil, nil)
	var he *rpc.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, http.StatusTeapot, he.StatusCode)
	assert.Equal(t, "teapot here", he.Body)
}

func TestHTTPClientRejectsMalformedResponses(t *testing.T) {
	cases := map[string]string{
		"not JSON":        `nope`,
		"wrong id":        `{"jsonrpc":"2.0","id":99,"result":1}`,
		"not a response":  `{"jsonrpc":"2.0","method":"x","id":1}`,
		"bad envelope":    `{"jsonrpc":"1.0","id":1,"result":1}`,
		"two responses":   `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":1,"result":1}]`,
		"empty 200 body":  ``,
		"oversized reply": `{"jsonrpc":"2.0","id":1,"result":"` + strings.Repeat("x", 2048) + `"}`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(body))
			}))
			defer srv.Close()
			err := rpc.NewHTTPClient(srv.URL, nil, rpc.WithMaxMessageSize(1024)).Call(context.Background(), "x", nil, nil)
			assert.Error(t, err)
		})
	}
}

func TestHTTPClientSendsHeaders(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Authorization")
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	require.NoError(t, rpc.NewHTTPClient(srv.URL, nil, rpc.WithHeader("Authorization", "Bearer t")).Notify(context.Background(), "x", nil))
	assert.Equal(t, "Bearer t", got)
}

// brokenBody fails partway through.
type brokenBody struct{ sent bool }

func (b *brokenBody) Read(p []byte) (int, error) {
	if b.sent {
		return 0, errors.New("connection reset")
	}
	b.sent = true
	return copy(p, `{"jsonrpc":"2.0",`), nil
}

func TestHTTPAnswers400WhenTheBodyCannotBeRead(t *testing.T) {
	req := httptest.NewRequest(http.MethodPost, "http://localhost/", &brokenBody{})
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	rpc.NewHTTPHandler(testService(t)).ServeHTTP(rec, req)
	assert.Equal(t, http.StatusBadRequest, rec.Code)
}

func TestHTTPClientReportsTransportErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	assert.Error(t, rpc.NewHTTPClient(url, nil).Call(context.Background(), "x", nil, nil))
	assert.Error(t, rpc.NewHTTPClient("http://[::1", nil).Notify(context.Background(), "x", nil), "a malformed URL")
}

func TestHTTPClientAcceptsAcceptedForNotifications(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	assert.NoError(t, rpc.NewHTTPClient(srv.URL, nil).Notify(context.Background(), "x", nil))
	assert.ErrorContains(t, rpc.NewHTTPClient(srv.URL, nil).Call(context.Background(), "x", nil, nil), "no response to a request")
}
