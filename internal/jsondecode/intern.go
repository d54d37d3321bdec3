package jsondecode

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
)

// The short strings of messages repeat: method and tool names, protocol
// versions, enum values, client names, member names of maps. Unmarshal
// (and rpc.DecodeString) return them from a small shared table instead of
// allocating each one again.

const (
	internMinLen = 2  // shorter strings never allocate
	internMaxLen = 32 // longer ones are rarely repeated
	internSlots  = 256
)

// internTable holds the most recent string of each hash slot. A slot is
// replaced whole, atomically, so that readers on other goroutines see a
// complete string or none.
var internTable [internSlots]atomic.Pointer[string]

// Intern returns b as a string, from the table when the string is there
// and otherwise as a new string that then replaces its slot's.
func Intern(b []byte) string {
	if len(b) < internMinLen || len(b) > internMaxLen {
		return string(b)
	}
	slot := &internTable[internHash(b)%internSlots]
	if s := slot.Load(); s != nil && *s == string(b) {
		return *s
	}
	s := string(b)
	slot.Store(&s)
	return s
}

// internHash mixes the first and last bytes of b (at least two), so that
// hashing costs the same whatever the length.
func internHash(b []byte) uint32 {
	var lo, hi uint32
	switch {
	case len(b) >= 8:
		a, z := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[len(b)-8:])
		lo, hi = uint32(a)^uint32(z>>32), uint32(a>>32)^uint32(z)
	case len(b) >= 4:
		lo, hi = binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[len(b)-4:])
	default:
		lo, hi = uint32(binary.LittleEndian.Uint16(b)), uint32(binary.LittleEndian.Uint16(b[len(b)-2:]))
	}
	h := uint32(len(b))*0x9e3779b1 + lo*0x85ebca77
	h = bits.RotateLeft32(h, 13) * 0xc2b2ae3d
	h += hi * 0x85ebca77
	h = bits.RotateLeft32(h, 13) * 0x27d4eb2f
	return h ^ h>>16
}
