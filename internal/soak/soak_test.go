package soak

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// The soak test's shape.
const (
	defaultDuration = 10 * time.Second
	workers         = 24
	maxIterations   = 10_000_000 // per worker; the duration ends the loop first
	requestTimeout  = 15 * time.Second
	// Plateau margins: the last quarter's peak may exceed the second
	// quarter's by this factor plus this slack.
	heapFactor      = 1.5
	heapSlack       = 8 << 20
	goroutineFactor = 1.5
	goroutineSlack  = 64
	// After the clients stop, the goroutines must come back to within this
	// many of the count before they started, within settleTime.
	goroutineRest = 4
	settleTime    = 15 * time.Second
)

// env is what the workers share: the server, its HTTP endpoint and the two
// long-lived stdio sessions.
type env struct {
	server         *mcp.Server
	url            string
	hc             *http.Client
	stdioHandshake *mcp.ClientSession
	stdioStateless *mcp.ClientSession
	stats          *stats
}

// stats counts the checked exchanges per kind and keeps the first failures.
type stats struct {
	mu       sync.Mutex
	counts   map[string]int
	failures int
	first    []string
}

func (s *stats) record(kind string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[kind]++
	if err != nil {
		s.failures++
		if len(s.first) < 20 {
			s.first = append(s.first, kind+": "+err.Error())
		}
	}
}

func (s *stats) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}

// worker is one client goroutine with its own random stream.
type worker struct {
	env *env
	rnd *mrand.Rand
}

func (w *worker) record(kind string, err error) { w.env.stats.record(kind, err) }

// kinds are the traffic a worker chooses from, with weights.
var kinds = []struct {
	weight int
	run    func(w *worker, ctx context.Context)
}{
	{6, (*worker).rawSession},
	{8, (*worker).rawStateless},
	{2, (*worker).unknownSession},
	{2, func(w *worker, ctx context.Context) { w.sdkSession(ctx, versionHandshake) }},
	{2, func(w *worker, ctx context.Context) { w.sdkSession(ctx, versionStateless) }},
	{1, func(w *worker, ctx context.Context) { w.sdkCancel(ctx, versionHandshake) }},
	{1, func(w *worker, ctx context.Context) { w.sdkCancel(ctx, versionStateless) }},
	{1, (*worker).disconnect},
	{1, (*worker).statelessHangUp},
	{6, (*worker).stdioShared},
	{3, (*worker).stdioRaw},
}

func (w *worker) loop(deadline time.Time) {
	total := 0
	for _, k := range kinds {
		total += k.weight
	}
	for range maxIterations {
		if !time.Now().Before(deadline) {
			return
		}
		n := w.rnd.IntN(total)
		for _, k := range kinds {
			if n -= k.weight; n < 0 {
				ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
				k.run(w, ctx)
				cancel()
				break
			}
		}
	}
}

// sample is one reading of the process: heap in use after a collection,
// and goroutines.
type sample struct {
	at         time.Duration
	heap       uint64
	goroutines int
}

func measure(start time.Time) sample {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return sample{at: time.Since(start), heap: m.HeapInuse, goroutines: runtime.NumGoroutine()}
}

// monitor samples every interval until stop is closed.
func monitor(start time.Time, interval time.Duration, stop <-chan struct{}) <-chan []sample {
	out := make(chan []sample, 1)
	go func() {
		var samples []sample
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				out <- samples
				return
			case <-t.C:
				samples = append(samples, measure(start))
			}
		}
	}()
	return out
}

// quarterPeaks returns the peak heap and goroutines of the second and the
// last quarter of the samples.
func quarterPeaks(samples []sample) (heap2, heap4 uint64, g2, g4 int) {
	n := len(samples)
	q2, q4 := samples[n/4:n/2], samples[3*n/4:]
	for _, s := range q2 {
		heap2, g2 = max(heap2, s.heap), max(g2, s.goroutines)
	}
	for _, s := range q4 {
		heap4, g4 = max(heap4, s.heap), max(g4, s.goroutines)
	}
	return
}

// soakDuration reads SCHEMARPC_SOAK.
func soakDuration(t *testing.T) time.Duration {
	v := os.Getenv("SCHEMARPC_SOAK")
	if v == "" {
		if testing.Short() {
			return 3 * time.Second
		}
		return defaultDuration
	}
	d, err := time.ParseDuration(v)
	require.NoError(t, err, "SCHEMARPC_SOAK must be a duration such as 5m")
	require.Positive(t, d, "SCHEMARPC_SOAK")
	return d
}

// TestSoak runs mixed valid and invalid traffic from many clients against
// one server, over Streamable HTTP (sessions by hand and through the
// client, stateless 2026-07-28 requests) and stdio (long-lived client
// sessions and short raw ones), for SCHEMARPC_SOAK. It fails when any
// request gets an outcome other than the one it deserved, when the heap or
// the goroutines keep growing (the last quarter's peak above the second
// quarter's by more than the margins), or when the goroutines do not come
// back near where they started once the clients stop, or when a POST
// carrying a request is answered with a zero-length body (answerCheck).
func TestSoak(t *testing.T) {
	d := soakDuration(t)
	var logs logCounter
	s, err := newServer(slog.New(&logs))
	require.NoError(t, err)
	h := mcp.NewStreamableHTTPHandler(s, &mcp.HTTPOptions{MaxBodyBytes: maxBody, SessionTimeout: sessionTimeout})
	srv := httptest.NewServer(h) // 127.0.0.1
	defer srv.Close()
	defer h.Close()
	tr := &http.Transport{MaxIdleConns: 2 * workers, MaxIdleConnsPerHost: 2 * workers, IdleConnTimeout: 30 * time.Second}
	answers := &answerCheck{rt: tr, empty: map[string]int{}}
	e := &env{server: s, url: srv.URL + "/", hc: &http.Client{Transport: answers}, stats: &stats{counts: map[string]int{}}}

	start := time.Now()
	base := measure(start)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var closeHandshake, closeStateless func()
	e.stdioHandshake, closeHandshake, err = stdioSession(ctx, s, versionHandshake)
	require.NoError(t, err)
	e.stdioStateless, closeStateless, err = stdioSession(ctx, s, versionStateless)
	require.NoError(t, err)

	stop := make(chan struct{})
	samplesc := monitor(start, max(d/80, 100*time.Millisecond), stop)
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for i := range workers {
		w := &worker{env: e, rnd: mrand.New(mrand.NewPCG(uint64(start.UnixNano()), uint64(i)))}
		wg.Go(func() { w.loop(deadline) })
	}
	wg.Wait()
	ran := time.Since(start)
	close(stop)
	samples := <-samplesc

	closeHandshake()
	closeStateless()
	tr.CloseIdleConnections()
	// Sessions abandoned at the very end expire sessionTimeout later; then
	// the goroutines must come back.
	time.Sleep(sessionTimeout + 500*time.Millisecond)
	tr.CloseIdleConnections()
	rest := measure(start)
	for settle := time.Now().Add(settleTime); rest.goroutines > base.goroutines+goroutineRest && time.Now().Before(settle); {
		time.Sleep(200 * time.Millisecond)
		tr.CloseIdleConnections()
		rest = measure(start)
	}

	e.stats.mu.Lock()
	kindsSeen := slices.Collect(func(yield func(string) bool) {
		for k := range e.stats.counts {
			if !yield(k) {
				return
			}
		}
	})
	sort.Strings(kindsSeen)
	var b strings.Builder
	for _, k := range kindsSeen {
		fmt.Fprintf(&b, "  %-40s %d\n", k, e.stats.counts[k])
	}
	failures, first := e.stats.failures, e.stats.first
	e.stats.mu.Unlock()
	total := e.stats.total()
	require.GreaterOrEqual(t, len(samples), 8, "too few samples to judge a plateau")
	heap2, heap4, g2, g4 := quarterPeaks(samples)
	peakG := 0
	for _, s := range samples {
		peakG = max(peakG, s.goroutines)
	}
	if os.Getenv("SCHEMARPC_SOAK_STACKS") != "" { // a debugging aid: every stack at the end
		buf := make([]byte, 1<<20)
		t.Logf("%s", buf[:runtime.Stack(buf, true)])
	}
	t.Logf("soak: %s with %d workers, %d checked exchanges (%.0f/s), %d failures\n%s", ran.Round(time.Millisecond), workers, total, float64(total)/ran.Seconds(), failures, b.String())
	t.Logf("server log records by message: %v", logs.counts())
	t.Logf("heap in use after GC: start %.1f MiB, 2nd-quarter peak %.1f MiB, last-quarter peak %.1f MiB, after %.1f MiB",
		mib(base.heap), mib(heap2), mib(heap4), mib(rest.heap))
	t.Logf("goroutines: start %d, peak %d, 2nd-quarter peak %d, last-quarter peak %d, after the clients stopped %d (%s after the start)",
		base.goroutines, peakG, g2, g4, rest.goroutines, rest.at.Round(time.Millisecond))

	require.Zero(t, failures, "requests that did not get what they deserved (first %d):\n%s", len(first), strings.Join(first, "\n"))
	require.Empty(t, answers.emptyAnswers(), "requests answered with a zero-length body, by method")
	require.LessOrEqual(t, float64(heap4), float64(heap2)*heapFactor+heapSlack, "the heap kept growing")
	require.LessOrEqual(t, float64(g4), float64(g2)*goroutineFactor+goroutineSlack, "the goroutines kept growing")
	require.LessOrEqual(t, rest.goroutines, base.goroutines+goroutineRest, "goroutines left after the clients stopped")
}

// logCounter is a slog handler that counts the server's log records by
// message, so that the report shows what the server had to say (sessions
// that expired, writes that failed) next to the outcomes.
type logCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (l *logCounter) Enabled(context.Context, slog.Level) bool { return true }

func (l *logCounter) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == nil {
		l.n = map[string]int{}
	}
	key := r.Message
	if r.Level >= slog.LevelWarn {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "error" {
				key += ": " + a.Value.String()
			}
			return true
		})
	}
	l.n[key]++
	return nil
}

func (l *logCounter) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCounter) WithGroup(string) slog.Handler      { return l }

func (l *logCounter) counts() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.n)
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }
