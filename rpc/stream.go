package rpc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"
)

// StreamTransport carries newline-delimited JSON over a byte stream, such as
// a process's stdin and stdout. Each message is one line; blank lines (JSON
// whitespace only: spaces, tabs, carriage returns) are skipped; a final
// line without a newline is still read. A line longer
// than the size limit is skipped without being buffered and Read reports
// ErrMessageTooLarge (a [Conn] answers it with -32600 and id null).
type StreamTransport struct {
	r       *bufio.Reader
	w       io.Writer
	closers []io.Closer
	limit   int
	once    sync.Once
	err     error
}

// NewStreamTransport reads messages from r and writes them to w. Close
// closes r and w when they are io.Closers. Options: [WithMaxMessageSize].
func NewStreamTransport(r io.Reader, w io.Writer, opts ...Option) *StreamTransport {
	o := buildOptions(opts)
	t := &StreamTransport{r: bufio.NewReaderSize(r, 64<<10), w: w, limit: o.maxMessageSize}
	for _, x := range []any{r, w} {
		if c, ok := x.(io.Closer); ok {
			t.closers = append(t.closers, c)
		}
	}
	return t
}

// Read returns the next non-blank line, without its line ending.
func (t *StreamTransport) Read(ctx context.Context) ([]byte, error) {
	for {
		line, err := t.line()
		if err != nil {
			return nil, err
		}
		// Only JSON's whitespace makes a line blank: a line of, say,
		// U+00A0 is a message, which the peer gets -32700 for.
		if len(bytes.Trim(line, " \t\r\n")) > 0 {
			return line, nil
		}
	}
}

// InputPending reports whether a message (or part of one) has been read
// ahead and is waiting (rpc.PendingReader). It is called by the goroutine
// that reads.
func (t *StreamTransport) InputPending() bool { return t.r.Buffered() > 0 }

// line reads one line of at most t.limit bytes (not counting "\n" or "\r\n").
func (t *StreamTransport) line() ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := t.r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > t.limit+2 { // room for "\r\n"
				tooLong = true
				buf = nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return nil, &MessageTooLargeError{Limit: t.limit}
			}
			buf = bytes.TrimSuffix(buf[:len(buf)-1], []byte{'\r'})
			if len(buf) > t.limit {
				return nil, &MessageTooLargeError{Limit: t.limit}
			}
			return buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if tooLong {
				return nil, &MessageTooLargeError{Limit: t.limit}
			}
			if len(buf) > 0 {
				if len(buf) > t.limit {
					return nil, &MessageTooLargeError{Limit: t.limit}
				}
				return buf, nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

// Write writes msg and a newline in one write. msg must not contain a raw
// newline; JSON produced by this package never does.
func (t *StreamTransport) Write(ctx context.Context, msg []byte) error {
	out := make([]byte, 0, len(msg)+1)
	out = append(append(out, msg...), '\n')
	_, err := t.w.Write(out)
	return err
}

// WriteMessages writes several messages, each followed by a newline, with
// one write to the underlying writer.
func (t *StreamTransport) WriteMessages(ctx context.Context, msgs [][]byte) error {
	n := 0
	for _, m := range msgs {
		n += len(m) + 1
	}
	out := make([]byte, 0, n)
	for _, m := range msgs {
		out = append(append(out, m...), '\n')
	}
	_, err := t.w.Write(out)
	return err
}

// Close closes the underlying reader and writer where they can be closed.
// It is safe to call more than once, from any goroutine.
func (t *StreamTransport) Close() error {
	t.once.Do(func() {
		var errs []error
		for _, c := range t.closers {
			if err := c.Close(); err != nil && !errors.Is(err, io.ErrClosedPipe) && !errors.Is(err, os.ErrClosed) {
				errs = append(errs, err)
			}
		}
		t.err = errors.Join(errs...)
	})
	return t.err
}
