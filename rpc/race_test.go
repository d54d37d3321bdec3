//go:build race

package rpc_test

// raceEnabled is true under the race detector, which makes sync.Pool drop
// items at random (so allocation counts mean nothing).
const raceEnabled = true
