package serve_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
)

func TestParseReadsTheCommandLine(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    serve.Flags
		wantErr bool
	}{
		{"stdio by default", nil, serve.Flags{}, false},
		{"http", []string{"-http", "127.0.0.1:3001"}, serve.Flags{HTTP: "127.0.0.1:3001"}, false},
		{"stateless http", []string{"-http", "127.0.0.1:3001", "-stateless"}, serve.Flags{HTTP: "127.0.0.1:3001", Stateless: true}, false},
		{"unknown flag", []string{"-port", "1"}, serve.Flags{}, true},
		{"stray argument", []string{"extra"}, serve.Flags{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := serve.Parse("test", tt.args, io.Discard)
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// okProgram serves 200 on HTTP and, on stdio, waits for ctx.
var okProgram = serve.Program{
	Name: "ok",
	Stdio: func(ctx context.Context, _ io.ReadCloser, _ io.WriteCloser) error {
		<-ctx.Done()
		return ctx.Err()
	},
	HTTP: func(serve.Flags) (http.Handler, func()) {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}), nil
	},
}

func TestRunFailsOnAnAddressItCannotListenOn(t *testing.T) {
	err := serve.Run(context.Background(), okProgram, serve.Flags{HTTP: "256.0.0.1:1"}, io.Discard)
	assert.Error(t, err)
}

func TestRunEndsWithoutErrorWhenStopped(t *testing.T) {
	for _, f := range []serve.Flags{{}, {HTTP: "127.0.0.1:0"}} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- serve.Run(ctx, okProgram, f, io.Discard) }()
		time.Sleep(50 * time.Millisecond)
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err, "%+v", f)
		case <-time.After(5 * time.Second):
			t.Fatalf("Run(%+v) did not end", f)
		}
	}
}

func TestShutdownEndsTheSessions(t *testing.T) {
	closed := make(chan struct{})
	p := okProgram
	p.HTTP = func(serve.Flags) (http.Handler, func()) {
		return http.NotFoundHandler(), func() { close(closed) }
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	announce, announced := io.Pipe()
	go func() { done <- serve.Run(ctx, p, serve.Flags{HTTP: "127.0.0.1:0"}, announced) }()
	readAnnounce(t, announce)
	cancel()
	require.NoError(t, <-done)
	select {
	case <-closed:
	default:
		t.Fatal("the sessions were not ended")
	}
}

// readAnnounce waits for the line a server writes once it listens and
// returns the URL it names.
func readAnnounce(t *testing.T, r io.Reader) string {
	t.Helper()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		url, ok := strings.CutPrefix(strings.TrimSuffix(s, "\n"), serve.AnnouncePrefix)
		require.True(t, ok, "the announcement %q starts with %q", s, serve.AnnouncePrefix)
		return url
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not announce its address")
		return ""
	}
}

func TestRunAnnouncesTheURLItListensAt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	announce, announced := io.Pipe()
	go func() { done <- serve.Run(ctx, okProgram, serve.Flags{HTTP: "127.0.0.1:0"}, announced) }()
	url := readAnnounce(t, announce)
	assert.Regexp(t, `^http://127\.0\.0\.1:[1-9][0-9]*/mcp$`, url)
	resp, err := http.Get(url)
	require.NoError(t, err, "the announced URL is served")
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	cancel()
	require.NoError(t, <-done)
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestRunFailsWhenItCannotAnnounceItsAddress(t *testing.T) {
	err := serve.Run(context.Background(), okProgram, serve.Flags{HTTP: "127.0.0.1:0"}, failingWriter{})
	assert.ErrorContains(t, err, "announcing the address")
}
