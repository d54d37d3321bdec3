package fastschema

import "strconv"

// uneval holds the members and elements of a value that no keyword has
// evaluated yet, when a schema's unevaluatedProperties or unevaluatedItems
// (its own or an enclosing one's) needs to know. It follows the oracle:
// a schema applied in place that passes leaves unevaluated only what both
// it and its caller left.
type uneval struct {
	props map[string]struct{}
	items map[int]struct{}
}

// unevalFrom returns what of v is unevaluated before n applies, tracked
// only when n or its caller (callerNeeds) reads it: nil when nothing is.
func unevalFrom(v any, n *node, callerNeeds bool) *uneval {
	switch v := v.(type) {
	case *object:
		if !n.allProps && (callerNeeds || n.uneProps != nil) && len(v.names) > 0 {
			ue := &uneval{props: make(map[string]struct{}, len(v.names))}
			for _, name := range v.names {
				ue.props[name] = struct{}{}
			}
			return ue
		}
	case []any:
		first := 0
		if n.arr != nil {
			first = len(n.arr.prefix)
		}
		if !n.allItems && (callerNeeds || n.uneItems != nil) && first < len(v) {
			ue := &uneval{items: make(map[int]struct{}, len(v)-first)}
			for i := first; i < len(v); i++ {
				ue.items[i] = struct{}{}
			}
			return ue
		}
	}
	return nil
}

// merge keeps unevaluated only what other (nil: nothing) left unevaluated
// too.
func (ue *uneval) merge(other *uneval) {
	if ue == nil {
		return
	}
	if other == nil {
		other = &uneval{}
	}
	for k := range ue.props {
		if _, ok := other.props[k]; !ok {
			delete(ue.props, k)
		}
	}
	for i := range ue.items {
		if _, ok := other.items[i]; !ok {
			delete(ue.items, i)
		}
	}
}

// isEmpty reports whether nothing is left unevaluated (or tracked).
func (ue *uneval) isEmpty() bool { return ue == nil || (len(ue.props) == 0 && len(ue.items) == 0) }

// evaluated records that the member name, or the element i, is evaluated.
func (ue *uneval) evaluated(name string, i int) {
	if ue == nil {
		return
	}
	delete(ue.props, name)
	delete(ue.items, i)
}

// unevaluated applies unevaluatedProperties and unevaluatedItems to what
// the other keywords left, members in document order.
func (x *explainer) unevaluated(n *node, v any, ue *uneval, out []Failure) ([]Failure, error) {
	switch v := v.(type) {
	case *object:
		if n.uneProps == nil {
			return out, nil
		}
		for i, name := range v.names {
			if ue == nil {
				break
			}
			if _, ok := ue.props[name]; !ok {
				continue
			}
			f, err := x.child(n.uneProps, v.values[i], name)
			if err != nil {
				return nil, err
			}
			out = append(out, f...)
		}
		if ue != nil {
			ue.props = nil
		}
	case []any:
		if n.uneItems == nil {
			return out, nil
		}
		for i, e := range v {
			if ue == nil {
				break
			}
			if _, ok := ue.items[i]; !ok {
				continue
			}
			f, err := x.child(n.uneItems, e, strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out = append(out, f...)
		}
		if ue != nil {
			ue.items = nil
		}
	}
	return out, nil
}
