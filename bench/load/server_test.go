package load

import (
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStartHTTPLearnsTheAddressTheServerAnnounces(t *testing.T) {
	t.Setenv(fakeServerEnv, fakeGood)
	exe, err := os.Executable()
	require.NoError(t, err)
	p, err := startHTTP("fake", exe, false)
	require.NoError(t, err)
	defer p.stop()
	assert.Regexp(t, `^http://127\.0\.0\.1:[1-9][0-9]*/mcp$`, p.url)
	resp, err := http.Post(p.url, "application/json", nil)
	require.NoError(t, err, "the announced address is where the server listens")
	resp.Body.Close()
}

func TestAnHTTPServerThatDoesNotAnnounceItsAddressFailsToStart(t *testing.T) {
	saved := startTimeout
	startTimeout = 500 * time.Millisecond
	t.Cleanup(func() { startTimeout = saved })
	exe, err := os.Executable()
	require.NoError(t, err)
	tests := []struct {
		fault, want string
	}{
		{fakeMute, "did not announce its address within 500ms"},
		{fakeGarbled, `announced "ready", not "listening on " and its URL`},
		{fakeDead, "ended its output without announcing its address (server fake exited: exit status 4; stderr: \"fake: dying at start as told\\n\")"},
	}
	for _, tt := range tests {
		t.Run(tt.fault, func(t *testing.T) {
			t.Setenv(fakeServerEnv, tt.fault)
			p, err := startHTTP("fake", exe, false)
			if err == nil {
				p.stop()
			}
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func TestParseAnnounceTakesTheURL(t *testing.T) {
	u, err := parseAnnounce("listening on http://127.0.0.1:4000/mcp\r\n")
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:4000/mcp", u)
	for _, bad := range []string{"listening on ftp://x/mcp\n", "listening on http:///mcp\n", "listening on \n"} {
		_, err := parseAnnounce(bad)
		assert.Error(t, err, bad)
	}
}
