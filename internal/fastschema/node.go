package fastschema

import (
	"math/big"
	"regexp"
	"sort"
	"sync/atomic"

	"github.com/schemarpc/schemarpc/internal/jsonformat"
)

// smallNames is the number of member names up to which an object's names
// are looked up by scanning a slice rather than through a map.
const smallNames = 8

// maxPatterns bounds the patternProperties entries a node supports.
const maxPatterns = 64

// node is the compiled form of one schema.
type node struct {
	// shell is the program a node was made from while its text is not
	// decoded yet: a property's schema, decoded when a value first reaches
	// it (see Program). It is nil once the node is decoded, and always for
	// a node compiled from JSON.
	shell atomic.Pointer[Program]

	draft int
	loc   string // the schema's absolute location (URL#pointer); empty in a decoded program

	always bool     // accepts every well-formed value
	never  bool     // the false schema
	unsup  kindMask // kinds of value the node answers Unknown for
	why    string   // what makes the node unsupported, for tests and debugging

	types  kindMask // the "type" keyword; 0 when absent
	consts []*constant
	enum   []*constant
	format *jsonformat.Format

	ref     *node
	refOnly bool // draft-07 and older: $ref hides the keywords beside it

	allOf, anyOf, oneOf []*node
	anyUnion, oneUnion  *union
	not                 *node
	ifN, thenN, elseN   *node

	obj *objectRules
	arr *arrayRules
	str *stringRules
	num *numberRules

	// for Explain only (programs do not carry these)
	refuse             string // a feature Explain cannot evaluate here, "" when none
	uneProps, uneItems *node  // unevaluatedProperties, unevaluatedItems
	allProps           bool   // additionalProperties is present: every member is evaluated
	allItems           bool   // items (or additionalItems) covers every element

	// compile bookkeeping (Tarjan's strongly connected components)
	index, low int
	onStack    bool
}

// objectRules are the keywords that apply to objects.
type objectRules struct {
	minProps, maxProps int // -1 when absent
	names              []nameEntry
	index              map[string]int32 // name → position in names, when many
	nwords             int              // words of the presence bit set
	required           []int32
	patterns           []patternRule
	addlFalse          bool
	addl               *node
	propNames          *node
	depRequired        []depRule
	depSchemas         []depRule
}

// nameEntry is one member name the object keywords mention.
type nameEntry struct {
	name string
	prop *node // the "properties" schema, if any
}

// patternRule is one "patternProperties" entry.
type patternRule struct {
	re   regexpMatcher
	gore *regexp.Regexp // re itself when it is a Go regexp (matches bytes)
	node *node
}

// match reports whether the decoded name b matches.
func (p *patternRule) match(b []byte) bool { return matchRegexp(p.re, p.gore, b) }

// regexpMatcher is a compiled regular expression: Go's, in what CompileJSON
// and Decode make; the tests' compiler of the library's schemas may hold
// another engine's.
type regexpMatcher interface {
	MatchString(s string) bool
	String() string
}

// matchRegexp matches b with re, without copying b when re is a Go regexp.
func matchRegexp(re regexpMatcher, gore *regexp.Regexp, b []byte) bool {
	if gore != nil {
		return gore.Match(b)
	}
	return re.MatchString(string(b))
}

// depRule is a dependency: when the trigger name is present, the names in
// required must be present too, or the object must satisfy node.
type depRule struct {
	trigger  int32
	required []int32
	node     *node

	dependentRequired bool // from dependentRequired, not dependencies (Explain names it; programs do not carry it)
}

// arrayRules are the keywords that apply to arrays.
type arrayRules struct {
	minItems, maxItems int // -1 when absent
	prefix             []*node
	rest               *node // schema of the elements after prefix
	restFalse          bool  // no elements after prefix are allowed
	unique             bool
	contains           *node
	minContains        int  // 1 unless minContains says otherwise
	maxContains        int  // -1 when absent
	explicitMin        bool // minContains is present (Explain names it; programs do not carry it)
}

// stringRules are the keywords that apply to strings.
type stringRules struct {
	minLen, maxLen int // -1 when absent
	pattern        regexpMatcher
	gore           *regexp.Regexp
}

// numberRules are the keywords that apply to numbers.
type numberRules struct {
	bounds     []bound
	multipleOf *big.Rat
	multInt    int64 // multipleOf as an int64, when it is one (else 0)
}

// bound is one of minimum, maximum, exclusiveMinimum, exclusiveMaximum.
type bound struct {
	rat   *big.Rat
	dec   decimal
	exact bool // dec holds rat exactly
	op    boundOp
}

// boundOp says which keyword a bound is.
type boundOp uint8

const (
	opMinimum boundOp = iota
	opMaximum
	opExclusiveMinimum
	opExclusiveMaximum
)

// pass reports whether an instance comparing c (-1, 0, +1) to the bound
// satisfies it.
func (op boundOp) pass(c int) bool {
	switch op {
	case opMinimum:
		return c >= 0
	case opMaximum:
		return c <= 0
	case opExclusiveMinimum:
		return c > 0
	}
	return c < 0
}

// ready makes sure n is decoded, when it is a property's schema of a
// program that no value had reached yet, and returns it. Every path that
// reads a child's keywords calls it first; a child applied in place is
// always decoded with its parent.
func (n *node) ready() *node {
	if p := n.shell.Load(); p != nil {
		p.load(n)
	}
	return n
}

// unsupported marks n as answering Unknown for the kinds k.
func (n *node) unsupported(k kindMask, why string) {
	n.unsup |= k
	if n.why == "" {
		n.why = why
	}
}

// sortedKeys returns the keys of m in order, so compiled output does not
// depend on map iteration.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
