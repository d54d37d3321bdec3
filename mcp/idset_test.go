package mcp

import (
	"slices"
	"testing"
)

func TestIDSetHoldsOneIDOrABatch(t *testing.T) {
	var s idSet
	if s.len() != 0 || len(s.list()) != 0 {
		t.Fatalf("empty set: len %d, list %v", s.len(), s.list())
	}
	if !s.add("1") || s.add("1") {
		t.Fatal("add: a new id is added once, then refused")
	}
	if s.many != nil {
		t.Fatal("one id took a map")
	}
	for _, id := range []string{"2", `"a"`} {
		if !s.add(id) {
			t.Fatalf("add %s refused", id)
		}
	}
	if s.add("2") || s.add("1") {
		t.Fatal("a duplicate in a batch was accepted")
	}
	got := s.list()
	slices.Sort(got)
	if !slices.Equal(got, []string{`"a"`, "1", "2"}) || s.len() != 3 {
		t.Fatalf("list %v, len %d", got, s.len())
	}
	s.remove("1")
	s.remove("missing")
	if s.len() != 2 || !s.add("1") {
		t.Fatalf("after removing 1: len %d, and 1 must be addable again", s.len())
	}
	for _, id := range []string{"1", "2", `"a"`} {
		s.remove(id)
	}
	if s.len() != 0 || len(s.list()) != 0 {
		t.Fatalf("emptied set: len %d, list %v", s.len(), s.list())
	}
}
