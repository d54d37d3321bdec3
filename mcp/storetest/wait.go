package storetest

import (
	"testing"
	"time"
)

// expiryBound is how long a suite waits for something with a short ttl to
// expire; expiryTTL is the ttl it uses.
const (
	expiryBound = 2 * time.Second
	expiryTTL   = 150 * time.Millisecond
)

// deliveryBound is how long a suite waits for a message or a condition
// that needs no expiry: a bound against hangs, not a timing assertion.
const deliveryBound = 5 * time.Second

// eventually polls cond until it holds or within has passed, and fails the
// test with msg if it never did.
func eventually(t *testing.T, within time.Duration, cond func() bool, msg string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s (waited %s)", msg, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
