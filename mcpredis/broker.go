package mcpredis

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// broker is an mcp.Broker on Redis pub/sub. All subscriptions of one
// broker share one pub/sub connection, opened with the first and closed
// with the last; every topic is a channel, subscribed to while it has
// subscribers. Each subscriber has a queue and a goroutine of its own, so
// that a slow one loses messages rather than holding up the others.
//
// When the connection breaks, go-redis reconnects and subscribes again;
// messages published meanwhile are lost, as the at-most-once delivery of
// mcp.Broker allows.
type broker struct {
	rdb              redis.UniversalClient
	prefix           string
	subscribeTimeout time.Duration

	mu   sync.Mutex
	conn *pubsubConn // nil while nothing is subscribed
}

// pubsubConn is the shared pub/sub connection and the topics on it.
type pubsubConn struct {
	ps     *redis.PubSub
	topics map[string]*topic // by channel name
	// pending counts, per channel, the SUBSCRIBE commands Redis has not
	// confirmed yet: a topic is ready when the last one was, not at the
	// confirmation of an earlier SUBSCRIBE undone since.
	pending map[string]int
}

// topic is one subscribed channel.
type topic struct {
	subs  map[*subscriber]struct{}
	ready chan struct{} // closed once Redis confirmed the subscription
}

// subscriberQueue bounds the messages waiting for one subscriber; past it,
// new messages to that subscriber are dropped.
const subscriberQueue = 1024

// subscriber is one Subscribe call.
type subscriber struct {
	fn    func([]byte)
	queue chan []byte
	stop  chan struct{}
	once  sync.Once
}

// newBroker returns a broker whose channels are named prefix+topic.
func newBroker(rdb redis.UniversalClient, prefix string, subscribeTimeout time.Duration) *broker {
	return &broker{rdb: rdb, prefix: prefix, subscribeTimeout: subscribeTimeout}
}

// Publish sends msg with PUBLISH.
func (b *broker) Publish(ctx context.Context, topic string, msg []byte) error {
	if err := b.rdb.Publish(ctx, b.prefix+topic, msg).Err(); err != nil {
		return fmt.Errorf("mcpredis: publishing on %q: %w", topic, err)
	}
	return nil
}

// errSubscribeTimeout reports a subscription Redis did not confirm within
// Options.SubscribeTimeout.
var errSubscribeTimeout = errors.New("mcpredis: Redis did not confirm the subscription in time")

// Subscribe adds a subscriber to topic and returns once Redis confirmed
// that the channel is subscribed, so that every message published after
// it returned reaches fn.
func (b *broker) Subscribe(ctx context.Context, topicName string, fn func(msg []byte)) (func(), error) {
	channel := b.prefix + topicName
	s := &subscriber{fn: fn, queue: make(chan []byte, subscriberQueue), stop: make(chan struct{})}
	t, err := b.add(ctx, channel, s)
	if err != nil {
		return nil, fmt.Errorf("mcpredis: subscribing to %q: %w", topicName, err)
	}
	unsubscribe := func() {
		s.once.Do(func() {
			close(s.stop)
			b.remove(channel, t, s)
		})
	}
	timer := time.NewTimer(b.subscribeTimeout)
	defer timer.Stop()
	select {
	case <-t.ready:
	case <-ctx.Done():
		unsubscribe()
		return nil, fmt.Errorf("mcpredis: subscribing to %q: %w", topicName, ctx.Err())
	case <-timer.C:
		unsubscribe()
		return nil, fmt.Errorf("%w (topic %q, after %s)", errSubscribeTimeout, topicName, b.subscribeTimeout)
	}
	go s.run(ctx, unsubscribe)
	return unsubscribe, nil
}

// add registers s on channel, subscribing to the channel, and opening the
// connection, if s is the first.
func (b *broker) add(ctx context.Context, channel string, s *subscriber) (*topic, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.conn
	if c == nil {
		c = &pubsubConn{
			ps:      b.rdb.Subscribe(context.WithoutCancel(ctx)),
			topics:  map[string]*topic{},
			pending: map[string]int{},
		}
		b.conn = c
		go b.dispatch(c, c.ps.ChannelWithSubscriptions(redis.WithChannelSize(subscriberQueue)))
	}
	t := c.topics[channel]
	if t == nil {
		if err := c.ps.Subscribe(ctx, channel); err != nil {
			// Not to be subscribed again when go-redis reconnects.
			_ = c.ps.Unsubscribe(context.WithoutCancel(ctx), channel)
			b.closeIfIdleLocked()
			return nil, err
		}
		c.pending[channel]++
		t = &topic{subs: map[*subscriber]struct{}{}, ready: make(chan struct{})}
		c.topics[channel] = t
	}
	t.subs[s] = struct{}{}
	return t, nil
}

// remove drops s from channel's topic t, unsubscribing from the channel,
// and closing the connection, if s was the last.
func (b *broker) remove(channel string, t *topic, s *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.conn
	if c == nil || c.topics[channel] != t {
		return
	}
	delete(t.subs, s)
	if len(t.subs) > 0 {
		return
	}
	delete(c.topics, channel)
	if !b.closeIfIdleLocked() {
		ctx, cancel := context.WithTimeout(context.Background(), b.subscribeTimeout)
		defer cancel()
		// On failure the connection is broken, and go-redis does not
		// subscribe again to a channel it was asked to unsubscribe from.
		_ = c.ps.Unsubscribe(ctx, channel)
	}
}

// closeIfIdleLocked closes the connection if no topic is left on it and
// reports whether it did.
func (b *broker) closeIfIdleLocked() bool {
	if b.conn == nil || len(b.conn.topics) > 0 {
		return false
	}
	_ = b.conn.ps.Close()
	b.conn = nil
	return true
}

// dispatch hands what arrives on c to the subscribers of its topics until
// c is closed.
func (b *broker) dispatch(c *pubsubConn, in <-chan any) {
	for v := range in {
		switch m := v.(type) {
		case *redis.Subscription:
			if m.Kind == "subscribe" {
				b.confirm(c, m.Channel)
			}
		case *redis.Message:
			b.deliver(c, m.Channel, m.Payload)
		}
	}
}

// confirm marks channel's topic ready once Redis confirmed its last
// SUBSCRIBE, or one that go-redis sent again after reconnecting.
func (b *broker) confirm(c *pubsubConn, channel string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.pending[channel] > 0 {
		c.pending[channel]--
	}
	if c.pending[channel] > 0 {
		return
	}
	delete(c.pending, channel)
	if t := c.topics[channel]; t != nil && b.conn == c {
		select {
		case <-t.ready:
		default:
			close(t.ready)
		}
	}
}

// deliver queues a copy of payload for every subscriber of channel whose
// queue has room.
func (b *broker) deliver(c *pubsubConn, channel, payload string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := c.topics[channel]
	if t == nil || b.conn != c {
		return
	}
	for s := range t.subs {
		select {
		case s.queue <- []byte(payload):
		default:
		}
	}
}

// run calls fn for each queued message until the subscriber stops or ctx
// ends.
func (s *subscriber) run(ctx context.Context, unsubscribe func()) {
	for {
		select {
		case msg := <-s.queue:
			select {
			case <-s.stop:
				return
			default:
			}
			s.fn(msg)
		case <-s.stop:
			return
		case <-ctx.Done():
			unsubscribe()
			return
		}
	}
}
