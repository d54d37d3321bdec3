package programs_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
)

// stdio is a program serving one stdio session over pipes.
type stdio struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
	stop context.CancelFunc
}

func serveStdio(t *testing.T, p serve.Program) *stdio {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdio{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1), stop: cancel}
	go func() {
		s.done <- p.Stdio(ctx, inR, outW)
		outW.Close()
	}()
	return s
}

// send writes msg; for a request it returns the reply, skipping any
// notification.
func (s *stdio) send(t *testing.T, msg string) *reply {
	t.Helper()
	_, err := io.WriteString(s.in, msg+"\n")
	require.NoError(t, err)
	if !strings.Contains(msg, `"id"`) {
		return nil
	}
	for {
		line, err := s.out.ReadBytes('\n')
		require.NoError(t, err)
		var r reply
		require.NoError(t, json.Unmarshal(line, &r), "%s", line)
		if !strings.Contains(string(line), `"method"`) {
			return &r
		}
	}
}

// end closes stdin and checks that the session ends.
func (s *stdio) end(t *testing.T) {
	t.Helper()
	s.in.Close()
	defer s.stop()
	go io.Copy(io.Discard, s.out)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the session did not end after stdin closed")
	}
}

func TestEveryProgramServesBothErasOverStdio(t *testing.T) {
	for _, p := range all {
		t.Run(p.Name+"/2025-11-25", func(t *testing.T) {
			s := serveStdio(t, p)
			defer s.end(t)
			r := s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			require.Nil(t, r.Error)
			assert.Equal(t, "2025-11-25", r.Result.ProtocolVersion)
			s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			for i, c := range calls {
				checkCall(t, s.send(t, callBody(strconv.Itoa(i+2), c.tool, c.args, "")), i+2, c.text, c.sum)
			}
		})
		t.Run(p.Name+"/2026-07-28", func(t *testing.T) {
			s := serveStdio(t, p)
			defer s.end(t)
			for i, c := range calls {
				r := s.send(t, callBody(strconv.Itoa(i+1), c.tool, c.args, statelessMeta))
				checkCall(t, r, i+1, c.text, c.sum)
				assert.Equal(t, "complete", r.Result.ResultType)
			}
		})
	}
}
