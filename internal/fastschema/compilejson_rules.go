package fastschema

import (
	"math/big"
	"sort"
)

// The builders below turn the keywords of one schema, already compiled to
// nodes and plain values, into the rules a node checks. Both compilers use
// them: Compile from a *jsonschema.Schema, CompileJSON from the documents.

// objectSpec is what the object keywords of one schema say.
type objectSpec struct {
	minProps, maxProps int // -1 when absent
	props              map[string]*node
	required           []string
	patterns           []patternRule // in any order
	addlFalse          bool
	addl, propNames    *node
	deps               []depSpec // in the order their names are numbered
}

// depSpec is one dependency before its names are numbered: the names
// required when the trigger is present, or the schema then applied.
type depSpec struct {
	trigger           string
	required          []string
	node              *node
	dependentRequired bool // from dependentRequired, not dependencies
}

// empty reports whether the spec asserts nothing.
func (sp *objectSpec) empty() bool {
	return sp.minProps < 0 && sp.maxProps < 0 && len(sp.required) == 0 && len(sp.props) == 0 &&
		len(sp.patterns) == 0 && !sp.addlFalse && sp.addl == nil && sp.propNames == nil &&
		len(sp.deps) == 0
}

// build returns the object rules of the spec, nil when it asserts nothing,
// marking n unsupported for objects when it has too many patterns.
func (sp *objectSpec) build(n *node) *objectRules {
	if sp.empty() {
		return nil
	}
	o := &objectRules{minProps: sp.minProps, maxProps: sp.maxProps, addlFalse: sp.addlFalse, addl: sp.addl, propNames: sp.propNames}
	pos := map[string]int32{}
	name := func(s string) int32 {
		if i, ok := pos[s]; ok {
			return i
		}
		i := int32(len(o.names))
		pos[s] = i
		o.names = append(o.names, nameEntry{name: s})
		return i
	}
	for _, p := range sortedKeys(sp.props) {
		o.names[name(p)].prop = sp.props[p]
	}
	for _, r := range sp.required {
		o.required = append(o.required, name(r))
	}
	for _, d := range sp.deps {
		rule := depRule{trigger: name(d.trigger), node: d.node, dependentRequired: d.dependentRequired}
		if d.node != nil {
			o.depSchemas = append(o.depSchemas, rule)
			continue
		}
		for _, r := range d.required {
			rule.required = append(rule.required, name(r))
		}
		o.depRequired = append(o.depRequired, rule)
	}
	if len(o.names) > smallNames {
		o.index = pos
	}
	o.nwords = (len(o.names) + 63) / 64
	if len(sp.patterns) > maxPatterns {
		n.unsupported(kObject, tooManyPatterns)
	}
	o.patterns = append([]patternRule(nil), sp.patterns...)
	sort.Slice(o.patterns, func(i, j int) bool { return o.patterns[i].re.String() < o.patterns[j].re.String() })
	return o
}

// tooManyPatterns is why a node with more than maxPatterns
// patternProperties answers Unknown for objects.
const tooManyPatterns = "too many patternProperties"

// newNumberRules returns the rules of the number keywords, nil when there
// are none. Absent keywords are nil.
func newNumberRules(minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf *big.Rat) *numberRules {
	nr := &numberRules{multipleOf: multipleOf}
	add := func(r *big.Rat, op boundOp) {
		if r == nil {
			return
		}
		b := bound{rat: r, op: op}
		b.dec, b.exact = ratDecimal(r)
		nr.bounds = append(nr.bounds, b)
	}
	add(minimum, opMinimum)
	add(maximum, opMaximum)
	add(exclusiveMinimum, opExclusiveMinimum)
	add(exclusiveMaximum, opExclusiveMaximum)
	if nr.multipleOf != nil && nr.multipleOf.IsInt() && nr.multipleOf.Num().IsInt64() && nr.multipleOf.Sign() > 0 {
		nr.multInt = nr.multipleOf.Num().Int64()
	}
	if len(nr.bounds) == 0 && nr.multipleOf == nil {
		return nil
	}
	return nr
}

// kindOfType returns the kind a "type" name stands for, 0 for none.
func kindOfType(name string) kindMask {
	switch name {
	case "null":
		return kNull
	case "boolean":
		return kBool
	case "number":
		return kNumber
	case "integer":
		return kInteger
	case "string":
		return kString
	case "array":
		return kArray
	case "object":
		return kObject
	}
	return 0
}
