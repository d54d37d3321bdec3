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
