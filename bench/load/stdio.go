package load

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"
)

// stdioClient talks newline-delimited JSON-RPC to one server process. It is
// used by one goroutine, which both writes and reads: with at most Depth
// small requests in flight neither pipe can fill, so it cannot deadlock.
type stdioClient struct {
	protocol string
	w        *os.File
	r        *bufio.Reader
	buf      []byte
}

func newStdioClient(p *process, protocol string) *stdioClient {
	return &stdioClient{protocol: protocol, w: p.stdin, r: p.stdout}
}

// handshake runs initialize and notifications/initialized for 2025-11-25;
// the stateless protocol has none.
func (c *stdioClient) handshake() error {
	if c.protocol != Protocol20251125 {
		return nil
	}
	if err := c.writeLine(initializeRequest()); err != nil {
		return err
	}
	r, err := c.readReply()
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if err := r.checkInitialize(); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	return c.writeLine(initializedNotification())
}

func (c *stdioClient) writeLine(msg []byte) error {
	c.buf = append(append(c.buf[:0], msg...), '\n')
	_, err := c.w.Write(c.buf)
	return err
}

// readReply reads messages until one that is not a notification.
func (c *stdioClient) readReply() (*reply, error) {
	for {
		line, err := readLine(c.r)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
				return nil, errNoReply
			}
			return nil, err
		}
		if len(line) == 0 {
			continue
		}
		r, err := parseReply(line)
		if err != nil {
			return nil, err
		}
		if !r.isNotification() {
			return r, nil
		}
	}
}

// outstanding is a call written and not yet answered.
type outstanding struct {
	call  Call
	start time.Time
}

// run makes calls next+1, next+2, … (ids equal to call numbers), keeping up
// to depth in flight, until lim.calls have been written or lim.deadline has
// passed, then waits for the remaining replies. Depth 1 is sequential.
func (c *stdioClient) run(depth int, next *int64, lim limits) (phase, error) {
	pending := make(map[int64]outstanding, depth)
	ph := phase{latencies: make([]time.Duration, 0, 1024)}
	start := time.Now()
	var written int64
	for {
		for len(pending) < depth && written < lim.calls && time.Now().Before(lim.deadline) {
			*next++
			id := *next
			call := CallAt(id)
			c.buf = appendToolsCall(c.buf[:0], c.protocol, id, call)
			c.buf = append(c.buf, '\n')
			pending[id] = outstanding{call: call, start: time.Now()}
			if _, err := c.w.Write(c.buf); err != nil {
				return ph, fmt.Errorf("writing call %d: %w", id, err)
			}
			written++
		}
		if len(pending) == 0 {
			break
		}
		r, err := c.readReply()
		if err != nil {
			return ph, fmt.Errorf("waiting for %d outstanding replies: %w", len(pending), err)
		}
		id, err := r.intID()
		if err != nil {
			return ph, err
		}
		o, ok := pending[id]
		if !ok {
			return ph, replyErrorf(r.raw, "response id %d matches no outstanding call (%s)", id, outstandingIDs(pending))
		}
		if err := r.checkCall(id, o.call); err != nil {
			return ph, fmt.Errorf("call %d (%s): %w", id, o.call.Tool, err)
		}
		ph.latencies = append(ph.latencies, time.Since(o.start))
		delete(pending, id)
	}
	ph.wall = time.Since(start)
	return ph, nil
}

// outstandingIDs describes the ids in pending for an error message.
func outstandingIDs(pending map[int64]outstanding) string {
	ids := slices.Sorted(maps.Keys(pending))
	if len(ids) > 4 {
		return fmt.Sprintf("%d outstanding, from id %d", len(ids), ids[0])
	}
	return fmt.Sprintf("outstanding: %v", ids)
}
