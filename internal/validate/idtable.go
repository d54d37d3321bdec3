package validate

// idTable maps request ids to requests, keeping at most max entries: past
// it, the oldest entry is evicted.
type idTable struct {
	max  int
	byID map[string]entry
	// order lists insertions, oldest first from head; an insertion whose
	// entry was removed or replaced since is skipped when evicting.
	order []insertion
	head  int
	seq   uint64 // insertions so far
}

type entry struct {
	r   request
	seq uint64 // the insertion that made it
}

type insertion struct {
	id  string
	seq uint64
}

func newIDTable(max int) *idTable {
	return &idTable{max: max, byID: map[string]entry{}}
}

func (t *idTable) len() int { return len(t.byID) }

func (t *idTable) get(id string) (request, bool) {
	e, ok := t.byID[id]
	return e.r, ok
}

// put adds or replaces an entry and reports whether an older one was
// evicted to make room.
func (t *idTable) put(id string, r request) bool {
	evicted := false
	if _, ok := t.byID[id]; !ok {
		for len(t.byID) >= t.max && t.head < len(t.order) {
			old := t.order[t.head]
			t.head++
			if e, ok := t.byID[old.id]; ok && e.seq == old.seq {
				delete(t.byID, old.id)
				evicted = true
			}
		}
	}
	t.seq++
	t.byID[id] = entry{r: r, seq: t.seq}
	t.order = append(t.order, insertion{id, t.seq})
	t.compact()
	return evicted
}

func (t *idTable) remove(id string) {
	delete(t.byID, id)
	t.compact()
}

// compact keeps order proportional to the table: it empties it with the
// table, and otherwise drops the stale insertions once they outnumber the
// live ones.
func (t *idTable) compact() {
	switch {
	case len(t.byID) == 0:
		t.order, t.head = t.order[:0], 0
	case t.head > len(t.order)/2:
		t.order, t.head = append(t.order[:0], t.order[t.head:]...), 0
	case len(t.order)-t.head > 2*len(t.byID)+64:
		kept := t.order[:0]
		for _, in := range t.order[t.head:] {
			if e, ok := t.byID[in.id]; ok && e.seq == in.seq {
				kept = append(kept, in)
			}
		}
		t.order, t.head = kept, 0
	}
}
