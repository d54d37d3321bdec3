package stackroom_test

import (
	"testing"
	"unsafe"

	"github.com/schemarpc/schemarpc/internal/stackroom"
	"github.com/schemarpc/schemarpc/internal/stackroom/stackroomtest"
)

// depth is how deep the tests' call goes: most of the room.
const depth = stackroom.Room>>10 - 4

// movesOnAFreshGoroutine reports whether a call depth KiB deep, made in a
// new goroutine after first (if not nil), copied the goroutine's stack.
func movesOnAFreshGoroutine(first func()) bool {
	moved := make(chan bool)
	go func() {
		if first != nil {
			first()
		}
		moved <- stackroomtest.DeepCallMoves(depth)
	}()
	return <-moved
}

func TestADeepCallAfterReserveDoesNotMoveTheStack(t *testing.T) {
	stackroomtest.NoCollection(t)
	if movesOnAFreshGoroutine(stackroom.Reserve) {
		t.Fatalf("a call of %d KiB after Reserve grew the stack", depth)
	}
}

func TestADeepCallWithoutReserveMovesTheStack(t *testing.T) {
	stackroomtest.NoCollection(t)
	// The control: the measure sees a growth when there is one (a new
	// goroutine's stack is smaller than Room).
	if !movesOnAFreshGoroutine(nil) {
		t.Fatal("a deep call in a new goroutine did not grow its stack: the measure cannot see a growth")
	}
}

func TestADeeperCallThanTheRoomMovesTheStack(t *testing.T) {
	stackroomtest.NoCollection(t)
	moved := make(chan bool)
	go func() {
		stackroom.Reserve()
		moved <- stackroomtest.DeepCallMoves(2 * stackroom.Room >> 10)
	}()
	if !<-moved {
		t.Fatal("a call twice as deep as the room did not grow the stack: Reserve made more room than it says")
	}
}

func TestReserveOnAGoroutineWithRoomAlreadyKeepsItsStack(t *testing.T) {
	stackroomtest.NoCollection(t)
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
