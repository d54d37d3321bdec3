package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func TestInspectSignsInWithClientCredentials(t *testing.T) {
	p := startInspect(t, "--oauth", "--oauth-client-credentials", "--oauth-client-id", "ci", "--oauth-client-secret", "s3cret", oauthServer(t))
	assert.Contains(t, string(p.api(t, "GET", "/api/tools", "")), `"secret"`)
}

// get fetches u and returns the status and body.
func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestLoopbackAuthorizeTakesTheOneRedirectAtItsPath(t *testing.T) {
	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	redirect := "http://" + addr + "/callback"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var shown string
	u, err := loopbackAuthorize(redirect, func(authURL string) {
		shown = authURL
		code, _ := get(t, "http://"+addr+"/elsewhere")
		assert.Equal(t, http.StatusNotFound, code)
		code, body := get(t, redirect+"?code=c1&state=s1")
		assert.Equal(t, http.StatusOK, code)
		assert.Contains(t, body, "signed in")
		code, _ = get(t, redirect+"?code=c2&state=s2")
		assert.Equal(t, http.StatusConflict, code, "a second redirect")
	})(ctx, "https://as.example/authorize?x=1")
	require.NoError(t, err)
	assert.Equal(t, "https://as.example/authorize?x=1", shown)
	assert.Equal(t, redirect+"?code=c1&state=s1", u.String())
}

// The browser that brings the redirect back gets the whole answer, though
// the sign-in ends (and its server with it) as soon as the redirect is
// taken: the server shuts down only once the answer is written.
func TestLoopbackAuthorizeAnswersTheBrowserBeforeItStops(t *testing.T) {
	for range 100 {
		addr, err := harness.FreeAddr()
		require.NoError(t, err)
		redirect := "http://" + addr + "/callback"
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		type answer struct {
			code int
			body string
			err  error
		}
		answered := make(chan answer, 1)
		_, err = loopbackAuthorize(redirect, func(string) {
			go func() { // the browser, on its own
				resp, err := http.Get(redirect + "?code=c1&state=s1")
				if err != nil {
					answered <- answer{err: err}
					return
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				answered <- answer{resp.StatusCode, string(b), err}
			}()
		})(ctx, "https://as.example/authorize")
		require.NoError(t, err)
		select {
		case a := <-answered:
			require.NoError(t, a.err, "the browser's request")
			assert.Equal(t, http.StatusOK, a.code)
			assert.Contains(t, a.body, "signed in")
		case <-ctx.Done():
			t.Fatal("the browser got no answer")
		}
		cancel()
	}
}

func TestLoopbackAuthorizeFailsWhenItCannotListenOrNobodySignsIn(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	_, err = loopbackAuthorize("http://"+taken.Addr().String()+"/cb", func(string) { t.Error("shown though not listening") })(context.Background(), "https://as.example/a")
	assert.ErrorContains(t, err, "listening for the redirect")

	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	_, err = loopbackAuthorize("http://"+addr+"/cb", func(string) { cancel() })(ctx, "https://as.example/a")
	assert.ErrorIs(t, err, context.Canceled)

	_, err = loopbackAuthorize("https://"+addr+"/cb", nil)(context.Background(), "https://as.example/a")
	assert.ErrorContains(t, err, "loopback address with a port")
}
