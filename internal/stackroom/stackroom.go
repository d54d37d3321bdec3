// Package stackroom gives a goroutine, while its stack is still shallow,
// the room its deepest work needs, so that the work never grows the stack.
//
// A goroutine starts with a small stack and the runtime grows it by copying:
// each copy walks every frame on the stack and reads, for each function in
// it, its entry in the executable's function tables (.gopclntab: the function
// table, the pc-value tables and the stack maps). Those reads are page faults
// on the executable, and the kernel maps the pages around each one as well;
// the first request a server answers runs deep (decoding, validating,
// encoding), so its growths reach the tables of dozens of functions spread
// over the whole binary. Measured on the benchmark server, the growths of a
// session's first call held 0.6 MiB of the executable resident, about 6 %
// of the process. A goroutine that asks for its room first grows once, with one
// or two frames on its stack, and its first call then copies nothing.
package stackroom

// Room is how many bytes of stack [Reserve] leaves free below its caller at
// least: more than a call of this module's servers uses (a tools/call with
// validation, a tool's schema compiled, an error explained).
const Room = 40 << 10

// Reserve grows the calling goroutine's stack, if it must, so that Room
// bytes are free below the caller. It costs a comparison when the room is
// there already. Call it first thing in a goroutine that will serve
// requests, or before deep work on a goroutine that is still shallow.
//
// The room is the stack the runtime gives the goroutine, not memory the
// process holds: pages of it that no frame reaches are never touched. A
// garbage collection may shrink an idle goroutine's stack again; the next
// deep call then grows it, as it would have without Reserve.
func Reserve() { reserve(0) }

// reserve has a frame of Room bytes: its prologue's stack check is what
// grows the stack. n is always 0, so the frame is never written; the branch
// keeps the compiler from dropping the array.
//
//go:noinline
func reserve(n int) byte {
	if n > 0 {
		var room [Room]byte
		room[n%Room] = byte(n)
		return room[(n+1)%Room]
	}
	return 0
}
