package rpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gateTransport records what is written; the first Write blocks until
// release is closed, so the writers behind it queue up.
type gateTransport struct {
	mu      sync.Mutex
	writes  [][]string // one entry per operation
	release chan struct{}
	entered chan struct{}
	once    sync.Once
	fail    error
	batches bool
}

func (g *gateTransport) Read(context.Context) ([]byte, error) { return nil, errors.New("unused") }
func (g *gateTransport) Close() error                         { return nil }

func (g *gateTransport) Write(_ context.Context, msg []byte) error {
	return g.op([][]byte{msg})
}

func (g *gateTransport) op(msgs [][]byte) error {
	g.once.Do(func() {
		close(g.entered)
		<-g.release
	})
	g.mu.Lock()
	defer g.mu.Unlock()
	var op []string
	for _, m := range msgs {
		op = append(op, string(m))
	}
	g.writes = append(g.writes, op)
	return g.fail
}

// batchingGate also takes several messages per operation.
type batchingGate struct{ *gateTransport }

func (b batchingGate) WriteMessages(_ context.Context, msgs [][]byte) error { return b.op(msgs) }

func newGate() *gateTransport {
	return &gateTransport{release: make(chan struct{}), entered: make(chan struct{})}
}

// queueBehindGate starts one write that blocks in the transport, then n
// more that must queue behind it, and returns once they are all queued.
func queueBehindGate(t *testing.T, w *coalescer, g *gateTransport, n int) (wait func() []error) {
	errs := make([]error, n+1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); errs[0] = w.write(context.Background(), []byte("first")) }()
	<-g.entered
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = w.write(context.Background(), fmt.Appendf(nil, "m%d", i)) }()
	}
	require.Eventually(t, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.queued == uint64(n+1)
	}, 5*time.Second, time.Millisecond)
	return func() []error {
		close(g.release)
		wg.Wait()
		return errs
	}
}

func TestWritesQueuedBehindASlowWriteGoOutInOneOperation(t *testing.T) {
	g := newGate()
	w := newCoalescer(batchingGate{g})
	errs := queueBehindGate(t, w, g, 5)()
	for _, err := range errs {
		assert.NoError(t, err)
	}
	require.Len(t, g.writes, 2, "the first write, then the five queued behind it together")
	assert.Equal(t, []string{"first"}, g.writes[0])
	assert.Len(t, g.writes[1], 5)
}

func TestWithoutBatchingTheQueueIsWrittenOneByOne(t *testing.T) {
	g := newGate()
	w := newCoalescer(g)
	queueBehindGate(t, w, g, 4)()
	assert.Len(t, g.writes, 5)
}

func TestEachWriterKeepsItsOrder(t *testing.T) {
	g := newGate()
	close(g.release)
	w := newCoalescer(batchingGate{g})
	var wg sync.WaitGroup
	for wr := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				require.NoError(t, w.write(context.Background(), fmt.Appendf(nil, "%d:%d", wr, i)))
			}
		}()
	}
	wg.Wait()
	next := map[int]int{}
	total := 0
	for _, op := range g.writes {
		for _, m := range op {
			var wr, i int
			fmt.Sscanf(m, "%d:%d", &wr, &i)
			require.Equal(t, next[wr], i, "writer %d out of order", wr)
			next[wr]++
			total++
		}
	}
	assert.Equal(t, 800, total)
}

func TestAFailedWriteFailsEveryMessageItCarriedAndTheRest(t *testing.T) {
	g := newGate()
	g.fail = errors.New("broken pipe")
	w := newCoalescer(batchingGate{g})
	for _, err := range queueBehindGate(t, w, g, 3)() {
		assert.EqualError(t, err, "broken pipe")
	}
	assert.EqualError(t, w.write(context.Background(), []byte("later")), "broken pipe")
}

func TestStreamTransportWritesManyMessagesWithOneWrite(t *testing.T) {
	var w countingWriter
	st := NewStreamTransport(nil, &w)
	require.NoError(t, st.WriteMessages(context.Background(), [][]byte{[]byte(`{"a":1}`), []byte(`{"b":2}`)}))
	assert.Equal(t, 1, w.calls)
	assert.Equal(t, "{\"a\":1}\n{\"b\":2}\n", w.buf.String())
}

type countingWriter struct {
	buf   bytes.Buffer
	calls int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.calls++
	return c.buf.Write(p)
}

type writerKey struct{}

// ctxTransport takes one message at a time and records, for each, the
// writer named by the context it was written with; a message whose context
// has ended fails as a transport honouring it would.
type ctxTransport struct {
	*gateTransport
	mu  sync.Mutex
	who map[string]any
}

func (c *ctxTransport) Write(ctx context.Context, msg []byte) error {
	if err := c.gateTransport.Write(ctx, msg); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.who[string(msg)] = ctx.Value(writerKey{})
	return ctx.Err()
}

// On a transport that takes one message at a time, the message a writer
// queued is written with that writer's context, not with the context of
// whoever writes the queue; one whose context ended fails alone.
func TestQueuedMessagesAreWrittenWithTheirOwnContext(t *testing.T) {
	g := newGate()
	tr := &ctxTransport{gateTransport: g, who: map[string]any{}}
	w := newCoalescer(tr)
	errs := make([]error, 5)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		errs[0] = w.write(context.WithValue(context.Background(), writerKey{}, "w0"), []byte("m0"))
	}()
	<-g.entered
	for i := 1; i < 5; i++ {
		ctx := context.WithValue(context.Background(), writerKey{}, fmt.Sprintf("w%d", i))
		if i == 2 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			cancel() // this writer's context ends while its message waits
		}
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = w.write(ctx, fmt.Appendf(nil, "m%d", i)) }()
	}
	require.Eventually(t, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.queued == 5
	}, 5*time.Second, time.Millisecond)
	close(g.release)
	wg.Wait()
	for i, err := range errs {
		if i == 2 {
			assert.ErrorIs(t, err, context.Canceled, "its own context ended")
			continue
		}
		assert.NoError(t, err, "writer %d", i)
		assert.Equal(t, fmt.Sprintf("w%d", i), tr.who[fmt.Sprintf("m%d", i)], "message %d written with its writer's context", i)
	}
	assert.NoError(t, w.write(context.Background(), []byte("later")), "nothing sticks")
	assert.Empty(t, w.alone, "every outcome was taken")
}
