// Package stackroomtest tells tests whether a deep call grows the calling
// goroutine's stack: the measure the tests of stackroom.Reserve and of the
// goroutines that call it share.
package stackroomtest

import (
	"runtime/debug"
	"testing"
	"unsafe"
)

// DeepCallMoves reports whether a call kib KiB deep copied the calling
// goroutine's stack: a local's address changes when its frame is copied
// to a new stack.
func DeepCallMoves(kib int) bool {
	var local byte
	before := uintptr(unsafe.Pointer(&local))
	deep(kib)
	return uintptr(unsafe.Pointer(&local)) != before
}

// deep calls itself depth times with a frame of about 1 KiB each.
//
//go:noinline
func deep(depth int) byte {
	var pad [1 << 10]byte
	pad[depth%len(pad)] = byte(depth)
	if depth == 0 {
		return pad[0]
	}
	return deep(depth-1) + pad[(depth+1)%len(pad)]
}

// NoCollection turns the garbage collector off until tb ends: a collection
// halves the stack of a goroutine that waits while it uses less than a
// quarter of it, which takes back the room Reserve made (as it may in a
// server; the tests measure the room itself).
func NoCollection(tb testing.TB) {
	old := debug.SetGCPercent(-1) // waits for a collection under way to end
	tb.Cleanup(func() { debug.SetGCPercent(old) })
}
