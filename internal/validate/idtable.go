package validate

// idTable maps request ids to requests, keeping at most max entries: past
// it, the oldest entry is evicted.
type idTable struct {
	max   int
	byID  map[string]request
	order []string // insertion order, for eviction; may hold removed keys
	head  int      // index of the oldest entry of order still relevant
}

func newIDTable(max int) *idTable {
	return &idTable{max: max, byID: map[string]request{}}
}

func (t *idTable) len() int { return len(t.byID) }

func (t *idTable) get(id string) (request, bool) {
	r, ok := t.byID[id]
	return r, ok
}

// put adds or replaces an entry and reports whether one was evicted.
func (t *idTable) put(id string, r request) bool {
	if _, ok := t.byID[id]; ok {
		t.byID[id] = r
		return false
	}
	evicted := false
	for len(t.byID) >= t.max && t.head < len(t.order) {
		old := t.order[t.head]
		t.head++
		if _, ok := t.byID[old]; ok {
			delete(t.byID, old)
			evicted = true
		}
	}
	t.byID[id] = r
	t.order = append(t.order, id)
	t.compact()
	return evicted
}

func (t *idTable) remove(id string) {
	delete(t.byID, id)
	t.compact()
}

// compact drops the consumed prefix of order once it dominates, and the
// whole order when the table is empty, so order stays proportional to the
// table's size.
func (t *idTable) compact() {
	switch {
	case len(t.byID) == 0:
		t.order, t.head = t.order[:0], 0
	case t.head > len(t.order)/2 && t.head > 64:
		t.order = append(t.order[:0], t.order[t.head:]...)
		t.head = 0
	case len(t.order) > 4*len(t.byID)+64:
		kept := t.order[:0]
		for _, k := range t.order[t.head:] {
			if _, ok := t.byID[k]; ok {
				kept = append(kept, k)
			}
		}
		t.order, t.head = kept, 0
	}
}
