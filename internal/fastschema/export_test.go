package fastschema

// ProgramMagic starts every program of this version.
const ProgramMagic = programMagic

// Reasons lists why parts of v's schema answer Unknown, one entry per
// unsupported node reachable from the root.
func Reasons(v *Validator) []string {
	var out []string
	seen := map[*node]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if n.unsup != 0 {
			out = append(out, n.why)
		}
		for _, c := range n.children() {
			walk(c)
		}
	}
	walk(v.root)
	return out
}

// DecodedNodes returns how many of p's nodes its roots have decoded so
// far, and how many it has.
func DecodedNodes(p *Program) (decoded, all int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range p.nodes {
		if n != nil && n.shell.Load() == nil {
			decoded++
		}
	}
	return decoded, len(p.nodes)
}

// MaxDepth is the nesting the checker follows.
const MaxDepth = maxDepth

// Recalled returns the recurring value v remembers, nil when none.
func Recalled(v *Validator) []byte {
	if m := v.recalled.Load(); m != nil {
		return m.text
	}
	return nil
}
