// Package stackroomtest tells tests whether a deep call grows the calling
// goroutine's stack: the measure the tests of stackroom.Reserve and of the
// goroutines that call it share.
package stackroomtest

import "unsafe"

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
