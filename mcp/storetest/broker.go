package storetest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// Broker runs the conformance suite for an mcp.Broker. newBroker returns
// a fresh broker for each subtest, sharing nothing with the brokers of
// other subtests; it may register cleanups on the t it is given.
func Broker(t *testing.T, newBroker func(t *testing.T) mcp.Broker) {
	t.Helper()
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, b mcp.Broker)
	}{
		{"SubscriberReceivesInPublicationOrder", brokerOrder},
		{"MessagesAreByteExact", brokerByteExact},
		{"EverySubscriberOfATopicReceives", brokerFanOut},
		{"TopicsAreIsolated", brokerTopicIsolation},
		{"AnyTopicWorks", brokerAnyTopic},
		{"PublishWithoutSubscribersIsNotAnError", brokerNoSubscribers},
		{"MutatingAPublishedMessageChangesNothingDelivered", brokerPublishCopies},
		{"MutatingADeliveredMessageChangesNothingForOtherSubscribers", brokerDeliveryCopies},
		{"FnIsCalledFromOneGoroutineAtATime", brokerOneAtATime},
		{"UnsubscribeStopsDelivery", brokerUnsubscribe},
		{"UnsubscribeTwiceIsHarmless", brokerUnsubscribeTwice},
		{"UnsubscribeFromFnIsHarmless", brokerUnsubscribeFromFn},
		{"ContextCancellationEndsTheSubscription", brokerContextEnds},
		{"ConcurrentPublishersKeepTheirOrder", brokerConcurrent},
		{"ConcurrentSubscribeAndUnsubscribe", brokerChurn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.run(t, newBroker(t))
		})
	}
}

// inbox collects what a subscription delivers.
type inbox struct {
	mu   sync.Mutex
	msgs [][]byte
}

func (in *inbox) add(msg []byte) {
	in.mu.Lock()
	in.msgs = append(in.msgs, append([]byte(nil), msg...))
	in.mu.Unlock()
}

// strings returns what was delivered so far.
func (in *inbox) strings() []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make([]string, len(in.msgs))
	for i, m := range in.msgs {
		out[i] = string(m)
	}
	return out
}

func (in *inbox) len() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.msgs)
}

// waitFor waits until the inbox holds n messages.
func (in *inbox) waitFor(t *testing.T, n int) {
	t.Helper()
	eventually(t, deliveryBound, func() bool { return in.len() >= n },
		fmt.Sprintf("expected %d messages", n))
}

// subscribe subscribes a new inbox to topic; the subscription ends with
// the test.
func subscribe(t *testing.T, b mcp.Broker, topic string) (*inbox, func()) {
	t.Helper()
	in := &inbox{}
	unsubscribe, err := b.Subscribe(t.Context(), topic, in.add)
	require.NoError(t, err)
	t.Cleanup(unsubscribe)
	return in, unsubscribe
}

func publish(t *testing.T, b mcp.Broker, topic string, msgs ...string) {
	t.Helper()
	for _, m := range msgs {
		require.NoError(t, b.Publish(t.Context(), topic, []byte(m)))
	}
}

// numbered returns n messages "<prefix><i>".
func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(prefix, i)
	}
	return out
}

func brokerOrder(t *testing.T, b mcp.Broker) {
	in, _ := subscribe(t, b, "t")
	want := numbered("m", 200)
	publish(t, b, "t", want...)
	in.waitFor(t, len(want))
	assert.Equal(t, want, in.strings(), "a subscriber receives its own messages, in order")
}

func brokerByteExact(t *testing.T, b mcp.Broker) {
	in, _ := subscribe(t, b, "t")
	binary := make([]byte, 0, 256)
	for i := range 256 {
		binary = append(binary, byte(i))
	}
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	msgs := [][]byte{binary, {}, []byte("\xff\xfe not UTF-8"), big}
	for _, m := range msgs {
		require.NoError(t, b.Publish(t.Context(), "t", m))
	}
	in.waitFor(t, len(msgs))
	in.mu.Lock()
	defer in.mu.Unlock()
	for i, m := range msgs {
		assert.True(t, bytes.Equal(m, in.msgs[i]), "message %d differs: %d bytes sent, %d received", i, len(m), len(in.msgs[i]))
	}
}

func brokerFanOut(t *testing.T, b mcp.Broker) {
	ins := make([]*inbox, 3)
	for i := range ins {
		ins[i], _ = subscribe(t, b, "t")
	}
	want := numbered("m", 20)
	publish(t, b, "t", want...)
	for i, in := range ins {
		in.waitFor(t, len(want))
		assert.Equal(t, want, in.strings(), "subscriber %d", i)
	}
}

func brokerTopicIsolation(t *testing.T, b mcp.Broker) {
	a, _ := subscribe(t, b, "a")
	ab, _ := subscribe(t, b, "a.b")
	publish(t, b, "a.b", "to a.b")
	publish(t, b, "b", "to b")
	publish(t, b, "a", "to a")
	a.waitFor(t, 1)
	ab.waitFor(t, 1)
	publish(t, b, "a", "last")
	a.waitFor(t, 2)
	assert.Equal(t, []string{"to a", "last"}, a.strings())
	assert.Equal(t, []string{"to a.b"}, ab.strings())
}

func brokerAnyTopic(t *testing.T, b mcp.Broker) {
	// Topics that look like patterns match nothing but themselves.
	topics := []string{"", "*", "a?", "[ab]", "é space\x00", "{tag}"}
	ins := make([]*inbox, len(topics))
	for i, topic := range topics {
		ins[i], _ = subscribe(t, b, topic)
	}
	for _, round := range []string{"first", "second"} {
		for _, topic := range topics {
			publish(t, b, topic, round+" to "+topic)
		}
	}
	for i, topic := range topics {
		ins[i].waitFor(t, 2)
		assert.Equal(t, []string{"first to " + topic, "second to " + topic}, ins[i].strings(), "topic %q", topic)
	}
}

func brokerNoSubscribers(t *testing.T, b mcp.Broker) {
	assert.NoError(t, b.Publish(t.Context(), "nobody", []byte("x")))
	in, unsubscribe := subscribe(t, b, "t")
	unsubscribe()
	assert.NoError(t, b.Publish(t.Context(), "t", []byte("x")), "publishing after the last subscriber left")
	assert.Zero(t, in.len())
}

func brokerPublishCopies(t *testing.T, b mcp.Broker) {
	in, _ := subscribe(t, b, "t")
	msg := []byte("original")
	require.NoError(t, b.Publish(t.Context(), "t", msg))
	copy(msg, "MUTATED!")
	in.waitFor(t, 1)
	assert.Equal(t, []string{"original"}, in.strings())
}

// brokerDeliveryCopies has one subscriber overwrite the message it was
// given before a second subscriber looks at its own.
func brokerDeliveryCopies(t *testing.T, b mcp.Broker) {
	mutated := make(chan struct{})
	_, err := b.Subscribe(t.Context(), "t", func(msg []byte) {
		copy(msg, "MUTATED!")
		close(mutated)
	})
	require.NoError(t, err)
	seen := make(chan string, 1)
	_, err = b.Subscribe(t.Context(), "t", func(msg []byte) {
		select {
		case <-mutated:
		case <-time.After(deliveryBound):
		}
		seen <- string(msg)
	})
	require.NoError(t, err)
	publish(t, b, "t", "original")
	select {
	case got := <-seen:
		assert.Equal(t, "original", got)
	case <-time.After(2 * deliveryBound):
		t.Fatal("the second subscriber received nothing")
	}
}

func brokerOneAtATime(t *testing.T, b mcp.Broker) {
	var running, overlaps atomic.Int32
	var count atomic.Int32
	unsubscribe, err := b.Subscribe(t.Context(), "t", func([]byte) {
		if running.Add(1) > 1 {
			overlaps.Add(1)
		}
		time.Sleep(time.Millisecond)
		running.Add(-1)
		count.Add(1)
	})
	require.NoError(t, err)
	t.Cleanup(unsubscribe)
	var wg sync.WaitGroup
	for p := range 4 {
		wg.Go(func() {
			for i := range 25 {
				assert.NoError(t, b.Publish(t.Context(), "t", fmt.Append(nil, p, i)))
			}
		})
	}
	wg.Wait()
	eventually(t, deliveryBound, func() bool { return count.Load() == 100 }, "expected 100 messages")
	assert.Zero(t, overlaps.Load(), "fn ran on two goroutines at once")
}

// waitQuiet publishes a marker on topic and waits until witness received
// it, so that whatever was published before has had its chance to arrive
// everywhere, then gives deliveries on other goroutines a moment more.
func waitQuiet(t *testing.T, b mcp.Broker, topic string, witness *inbox) {
	t.Helper()
	n := witness.len()
	publish(t, b, topic, "marker")
	witness.waitFor(t, n+1)
	time.Sleep(50 * time.Millisecond)
}

func brokerUnsubscribe(t *testing.T, b mcp.Broker) {
	gone, unsubscribe := subscribe(t, b, "t")
	stays, _ := subscribe(t, b, "t")
	publish(t, b, "t", "before")
	gone.waitFor(t, 1)
	unsubscribe()
	publish(t, b, "t", "after")
	waitQuiet(t, b, "t", stays)
	assert.Equal(t, []string{"before"}, gone.strings())
	assert.Equal(t, []string{"before", "after", "marker"}, stays.strings())
}

func brokerUnsubscribeTwice(t *testing.T, b mcp.Broker) {
	_, unsubscribe := subscribe(t, b, "t")
	unsubscribe()
	unsubscribe()
	in, _ := subscribe(t, b, "t")
	publish(t, b, "t", "x")
	in.waitFor(t, 1)
	assert.Equal(t, []string{"x"}, in.strings(), "a topic can be subscribed to again")
}

func brokerUnsubscribeFromFn(t *testing.T, b mcp.Broker) {
	var unsubscribe func()
	var calls atomic.Int32
	ready := make(chan struct{})
	unsub, err := b.Subscribe(t.Context(), "t", func([]byte) {
		<-ready
		calls.Add(1)
		unsubscribe()
	})
	require.NoError(t, err)
	unsubscribe = unsub
	close(ready)
	witness, _ := subscribe(t, b, "t")
	publish(t, b, "t", "first")
	eventually(t, deliveryBound, func() bool { return calls.Load() == 1 }, "fn was not called")
	publish(t, b, "t", "second")
	waitQuiet(t, b, "t", witness)
	assert.Equal(t, int32(1), calls.Load(), "nothing is delivered after fn unsubscribed")
}

func brokerContextEnds(t *testing.T, b mcp.Broker) {
	ctx, cancel := context.WithCancel(t.Context())
	ended := &inbox{}
	_, err := b.Subscribe(ctx, "t", ended.add)
	require.NoError(t, err)
	witness, _ := subscribe(t, b, "t")
	publish(t, b, "t", "before")
	ended.waitFor(t, 1)
	cancel()
	// The end may take effect a little after cancel returns: wait until a
	// probe reaches the witness and not the cancelled subscription.
	deadline := time.Now().Add(expiryBound)
	for i := 0; ; i++ {
		require.False(t, time.Now().After(deadline), "the cancelled subscription kept receiving")
		n := ended.len()
		waitQuiet(t, b, "t", witness)
		if ended.len() == n {
			break
		}
	}
	n := ended.len()
	publish(t, b, "t", "after")
	waitQuiet(t, b, "t", witness)
	assert.Equal(t, n, ended.len(), "delivered after the context ended")
	assert.NotContains(t, ended.strings(), "after")
}

// brokerConcurrent has publishers on their own goroutines and checks that
// every subscriber receives each publisher's messages in its order.
func brokerConcurrent(t *testing.T, b mcp.Broker) {
	const publishers, each, subscribers = 4, 50, 3
	ins := make([]*inbox, subscribers)
	for i := range ins {
		ins[i], _ = subscribe(t, b, "t")
	}
	var wg sync.WaitGroup
	for p := range publishers {
		wg.Go(func() {
			for i := range each {
				assert.NoError(t, b.Publish(t.Context(), "t", fmt.Appendf(nil, "%d/%d", p, i)))
			}
		})
	}
	wg.Wait()
	for s, in := range ins {
		in.waitFor(t, publishers*each)
		next := make([]int, publishers)
		for _, m := range in.strings() {
			var p, i int
			_, err := fmt.Sscanf(m, "%d/%d", &p, &i)
			require.NoError(t, err)
			assert.Equal(t, next[p], i, "subscriber %d: publisher %d out of order", s, p)
			next[p] = i + 1
		}
	}
}

// brokerChurn subscribes and unsubscribes on goroutines while messages
// flow, then checks that a steady subscriber missed nothing.
func brokerChurn(t *testing.T, b mcp.Broker) {
	steady, _ := subscribe(t, b, "t")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			topic := []string{"t", fmt.Sprint("own-", g)}[g%2]
			for range 20 {
				unsubscribe, err := b.Subscribe(t.Context(), topic, func([]byte) {})
				if !assert.NoError(t, err) {
					return
				}
				assert.NoError(t, b.Publish(t.Context(), "t", []byte("churn")))
				unsubscribe()
			}
		})
	}
	wg.Wait()
	steady.waitFor(t, 80)
	publish(t, b, "t", "done")
	steady.waitFor(t, 81)
	assert.Len(t, steady.strings(), 81)
}
