package stackroom_test

import (
	"testing"
	"unsafe"

	"github.com/schemarpc/schemarpc/internal/stackroom"
)

// frame is a function with a frame of about 1 KiB that calls itself depth
// times: a deep call of depth KiB.
//
//go:noinline
func frame(depth int) byte {
	var pad [1 << 10]byte
	pad[depth%len(pad)] = byte(depth)
	if depth == 0 {
		return pad[0]
	}
	return frame(depth-1) + pad[(depth+1)%len(pad)]
}

// moves reports whether a call of depth KiB, made in a new goroutine after
// first (if not nil), copied the goroutine's stack: a local's address
// changes when its frame is copied.
func moves(first func(), depth int) bool {
	moved := make(chan bool)
	go func() {
		if first != nil {
			first()
		}
		var local byte
		before := uintptr(unsafe.Pointer(&local))
		frame(depth)
		moved <- uintptr(unsafe.Pointer(&local)) != before
	}()
	return <-moved
}

func TestADeepCallAfterReserveDoesNotMoveTheStack(t *testing.T) {
	if moves(stackroom.Reserve, stackroom.Room>>10-4) {
		t.Fatalf("a call of %d KiB after Reserve grew the stack", stackroom.Room>>10-4)
	}
}

func TestADeepCallWithoutReserveMovesTheStack(t *testing.T) {
	// The control: the measure sees a growth when there is one (a new
	// goroutine's stack is smaller than Room).
	if !moves(nil, stackroom.Room>>10-4) {
		t.Fatal("a deep call in a new goroutine did not grow its stack: the measure cannot see a growth")
	}
}

func TestReserveOnAGoroutineWithRoomAlreadyKeepsItsStack(t *testing.T) {
	moved := make(chan bool)
	go func() {
		stackroom.Reserve()
		var local byte
		before := uintptr(unsafe.Pointer(&local))
		stackroom.Reserve()
		moved <- uintptr(unsafe.Pointer(&local)) != before
	}()
	if <-moved {
		t.Fatal("a second Reserve moved the stack")
	}
}

func BenchmarkReserveWithRoom(b *testing.B) {
	stackroom.Reserve()
	for b.Loop() {
		stackroom.Reserve()
	}
}
