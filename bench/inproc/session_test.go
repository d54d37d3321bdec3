package inproc_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"testing"
	"time"
)

// closeWait bounds how long a closed session may take to end.
const closeWait = 5 * time.Second

// session is one stdio session of a server over in-memory pipes: the test
// writes lines to its stdin and reads lines from its stdout.
type session struct {
	stdin  *io.PipeWriter
	stdout *bufio.Reader
	outR   *io.PipeReader
	done   chan error
	cancel context.CancelFunc
}

func startSession(tb testing.TB, serve stdioServer) *session {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{stdin: inW, stdout: bufio.NewReaderSize(outR, 64<<10), outR: outR, done: make(chan error, 1), cancel: cancel}
	go func() {
		err := serve(ctx, inR, outW)
		outW.Close()
		s.done <- err
	}()
	return s
}

// send writes one message line (msg must end with a newline).
func (s *session) send(tb testing.TB, msg []byte) {
	if _, err := s.stdin.Write(msg); err != nil {
		tb.Fatalf("write: %v", err)
	}
}

// recv reads the next line that is not a notification; it is valid until
// the next recv.
func (s *session) recv(tb testing.TB) []byte {
	for {
		line, err := s.stdout.ReadSlice('\n')
		if err != nil {
			tb.Fatalf("read: %v", err)
		}
		if !isNotification(line) {
			return line
		}
	}
}

// close ends the session: stdin closed, the server given closeWait to end.
func (s *session) close(tb testing.TB) {
	s.stdin.Close()
	defer s.cancel()
	go io.Copy(io.Discard, s.stdout) // let a server flush what it still writes
	select {
	case err := <-s.done:
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) && !errors.Is(err, io.ErrClosedPipe) {
			tb.Errorf("server ended with %v", err)
		}
	case <-time.After(closeWait):
		tb.Fatalf("server still running %v after its stdin closed", closeWait)
	}
}
