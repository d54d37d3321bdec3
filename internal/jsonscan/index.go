package jsonscan

import "math"

// maxIndexed is how many members an Index holds: more than the params of
// any method of the protocols the project speaks.
const maxIndexed = 8

// Index locates the top-level members of one object as a strict walk
// checked it (Members.Indexing), so that a reader who needs a few of them
// later finds them without walking the object again: each member's name
// (its raw content, between the quotes) and value, as 16-bit offsets from
// the object's opening brace, so that it adds little to what holds it. It
// is complete only when the walk reached the object's end having recorded
// every member; an object with more members than it holds, one whose
// members reach past 64 KiB, one stepped over as known, or one that failed
// leaves it incomplete, and it then locates nothing.
type Index struct {
	n        uint8
	complete bool
	members  [maxIndexed]indexedMember
}

// indexedMember is one member of an Index: the extents of its name and
// value, from the object's opening brace.
type indexedMember struct {
	nameStart, nameEnd, valueStart, valueEnd uint16
}

// Len returns how many members a complete index locates, and whether it is
// complete.
func (x *Index) Len() (int, bool) {
	if x == nil || !x.complete {
		return 0, false
	}
	return int(x.n), true
}

// Member returns the i-th member of obj, the object the index was made
// of (from its opening brace): its name as raw string content and its
// value, both slices of obj. i must be below Len's count.
func (x *Index) Member(obj []byte, i int) (name, value []byte) {
	m := &x.members[i]
	return obj[m.nameStart:m.nameEnd], obj[m.valueStart:m.valueEnd]
}

// indexer records the members of the object a strict walk is checking
// into an Index, once the walk is inside it.
type indexer struct {
	x     *Index
	start int // the object's opening brace in the text walked
}

// open starts recording the object whose brace is at start.
func (x *Index) open(start int) indexer {
	x.n, x.complete = 0, false // members past n are never read
	return indexer{x: x, start: start}
}

// add records a member whose name lies at name and value at [vstart, vend)
// of the text walked; past maxIndexed members, or offsets beyond 16 bits,
// the index stays incomplete.
func (r *indexer) add(name span, vstart, vend int) {
	x := r.x
	if x == nil {
		return
	}
	if int(x.n) == maxIndexed || vend-r.start > math.MaxUint16 {
		r.x = nil // incomplete: it is not closed
		return
	}
	x.members[x.n] = indexedMember{uint16(name.start - r.start), uint16(name.end - r.start), uint16(vstart - r.start), uint16(vend - r.start)}
	x.n++
}

// close marks the index complete at the object's closing brace.
func (r *indexer) close() {
	if r.x != nil {
		r.x.complete = true
	}
}
