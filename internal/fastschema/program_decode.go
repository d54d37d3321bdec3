package fastschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"sync"

	"github.com/schemarpc/schemarpc/internal/jsonformat"
)

// Program is a program opened for use: each root is decoded when it is
// first asked for, with only the nodes it reaches, so that a service whose
// first call needs two or three of its schemas does not decode them all.
// Within a root, a member's schema (an entry of "properties") is decoded
// when a value first reaches it, not with the object's schema: a request
// whose optional members are absent (an MCP request's _meta declaring no
// client capability) never decodes their schemas. What a schema applies to
// the same value ($ref, allOf, anyOf, oneOf, not, if/then/else, dependent
// schemas) and the other schemas of parts of a value (items, additional and
// pattern properties, property names) are decoded with it. A node two
// roots share is decoded once. A Program is safe for concurrent use.
type Program struct {
	text  string
	body  int // where the nodes' texts begin
	width int // bytes of each entry of the offset table
	roots []int

	mu     sync.Mutex   // guards what follows
	nodes  []*node      // by index; nil until a root reaches it
	vs     []*Validator // by root; nil until asked for
	err    error        // the first damage found: every later Root fails with it
	slab   []node       // nodes made but not reached yet
	unmade int          // how many nodes no slab holds yet
}

// Open reads a program's header, checks that it is one of this format
// version and that its header is whole, and decodes no node yet. A damage
// inside a node is found when a root reaching it is first asked for.
func Open(program string) (*Program, error) {
	d := &decoder{s: program}
	if len(program) < len(programMagic) || program[:len(programMagic)] != programMagic {
		return nil, errors.New("fastschema: not a program of this version")
	}
	d.pos = len(programMagic)
	n := d.count()
	p := &Program{text: program, roots: make([]int, d.count())}
	for i := range p.roots {
		p.roots[i] = d.int()
		if p.roots[i] >= n {
			d.fail("node index out of range")
		}
	}
	p.width = int(d.byte())
	if d.err == nil && (p.width < 1 || p.width > 4) {
		d.fail("bad offset width")
	}
	if d.err == nil && uint64(n)*uint64(p.width) > uint64(len(program)-d.pos) {
		d.fail("offset table past the end")
	}
	if d.err != nil {
		return nil, d.err
	}
	p.body = d.pos + n*p.width
	p.nodes, p.unmade = make([]*node, n), n
	// Every node's text lies in the program, after the one before it: a
	// node's decoding then reads only its own bytes.
	last := 0
	for i := range n {
		off := p.offset(i)
		if off < last || off > len(program)-p.body || (i == 0 && off != 0) {
			d.pos = len(programMagic)
			d.fail(fmt.Sprintf("offset of node %d out of order", i))
			return nil, d.err
		}
		last = off
	}
	if n == 0 && p.body != len(program) {
		d.pos = p.body
		d.fail("trailing bytes")
		return nil, d.err
	}
	p.vs = make([]*Validator, len(p.roots))
	return p, nil
}

// Len returns the number of roots of the program.
func (p *Program) Len() int { return len(p.roots) }

// Root returns the validator of the i-th root (nil for a nil validator),
// decoding the nodes it reaches that no root has reached before. It fails
// on a damaged program; once it has, every root not decoded before fails
// too.
func (p *Program) Root(i int) (*Validator, error) {
	if i < 0 || i >= len(p.roots) {
		return nil, fmt.Errorf("fastschema: no root %d in a program of %d", i, len(p.roots))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.vs[i] != nil || p.roots[i] < 0 {
		return p.vs[i], nil // a root decoded before a damage was found is whole
	}
	if p.err != nil {
		return nil, p.err
	}
	p.reach(p.roots[i])
	if p.err != nil {
		return nil, p.err
	}
	p.vs[i] = newValidator(p.nodes[p.roots[i]])
	return p.vs[i], nil
}

// load decodes n, a member's schema no value had reached (see Program),
// with what it applies in place. On a damaged program n answers Unknown
// for every value from then on, so that its caller decides the slow way,
// and every root not decoded before fails.
func (p *Program) load(n *node) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n.shell.Load() == nil {
		return // another check decoded it meanwhile
	}
	if p.err == nil {
		p.reach(slices.Index(p.nodes, n))
	}
	if p.err != nil {
		// Decoded in part, perhaps: nothing before the unsupported kinds
		// is read but these two.
		n.always, n.never = false, false
		n.unsupported(kAll, "damaged program: "+p.err.Error())
		n.refuse = n.why
		n.shell.Store(nil)
	}
}

// offset returns where node i's text begins, from the start of the nodes.
func (p *Program) offset(i int) int {
	at := p.text[p.body-(len(p.nodes)-i)*p.width:]
	off := 0
	for b := p.width - 1; b >= 0; b-- {
		off = off<<8 | int(at[b])
	}
	return off
}

// reach decodes the nodes from and every node they reach that is not
// decoded yet, then computes for those what they derive from the others
// (cycles of in-place references, unions). It sets p.err on a damaged
// program. p.mu is held.
func (p *Program) reach(from ...int) {
	d := &decoder{s: p.text, prog: p}
	d.fresh, d.pending = make([]*node, 0, max(len(from), 16)), make([]int, 0, max(len(from), 16))
	for _, i := range from {
		d.at(i, true)
	}
	for k, unions := 0, 0; k < len(d.pending) && d.err == nil; {
		for ; k < len(d.pending) && d.err == nil; k++ {
			j := d.pending[k]
			end := len(p.text)
			if j+1 < len(p.nodes) {
				end = p.body + p.offset(j+1)
			}
			d.s, d.pos = p.text[:end], p.body+p.offset(j)
			d.node(d.fresh[k])
			if d.err == nil && d.pos != end {
				d.fail("trailing bytes")
			}
		}
		// A union is told apart by its alternatives' member schemas
		// (newUnion): those are decoded now, with their parents.
		for ; unions < len(d.fresh) && d.err == nil; unions++ {
			for _, alts := range [2][]*node{d.fresh[unions].anyOf, d.fresh[unions].oneOf} {
				d.unionMembers(alts)
			}
		}
	}
	if d.err != nil {
		p.err = d.err
		return
	}
	// A program comes from generated code, but a damaged one must not
	// make Check loop: cycles of in-place references are found again.
	// The nodes decoded before cannot be in a cycle with the new ones:
	// they reach none of them.
	markInPlaceCycles(d.fresh)
	for _, nd := range d.fresh {
		nd.anyUnion = newUnion(nd.anyOf)
		nd.oneUnion = newUnion(nd.oneOf)
	}
	// Published last: a check that finds a node's shell gone reads the
	// node whole.
	for _, nd := range d.fresh {
		nd.shell.Store(nil)
	}
}

// Decode turns a program made by Encode back into its validators, in the
// order they were encoded, decoding every node at once (see [Open] to
// decode each root on first use). It fails on a program of another format
// version or a damaged one; it never panics.
func Decode(program string) ([]*Validator, error) {
	p, err := Open(program)
	if err != nil {
		return nil, err
	}
	// Every node, in one slab: a node no root reaches is still read, so
	// that a damage anywhere is an error.
	p.mu.Lock()
	p.slab, p.unmade = make([]node, len(p.nodes)), 0
	all := make([]int, len(p.nodes))
	for i := range all {
		all[i] = i
	}
	p.reach(all...)
	p.mu.Unlock()
	vs := make([]*Validator, p.Len())
	for i := range vs {
		if vs[i], err = p.Root(i); err != nil {
			return nil, err
		}
	}
	return vs, nil
}

// decoder reads a program. After the first error every read returns a zero
// value, and err says what went wrong.
type decoder struct {
	s    string
	pos  int
	prog *Program // whose nodes the text refers to
	// The nodes this decoder reached first, in order, and their indices:
	// each is decoded in turn.
	fresh   []*node
	pending []int
	err     error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("fastschema: damaged program at byte %d: %s", d.pos, what)
	}
}

func (d *decoder) uint() uint64 {
	var u uint64
	for shift := 0; shift < 64; shift += 7 {
		if d.err != nil || d.pos >= len(d.s) {
			d.fail("unexpected end")
			return 0
		}
		b := d.s[d.pos]
		d.pos++
		u |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return u
		}
	}
	d.fail("number too long")
	return 0
}

// count reads a length, bounded by what is left of the program so that a
// damaged one cannot make Decode allocate without bound.
func (d *decoder) count() int {
	u := d.uint()
	if u > uint64(len(d.s)-d.pos) {
		d.fail("count past the end")
		return 0
	}
	return int(u)
}

func (d *decoder) int() int {
	u := d.uint()
	if u > 1<<31 {
		d.fail("number out of range")
		return 0
	}
	return int(u) - 1
}

func (d *decoder) byte() byte {
	if d.err != nil || d.pos >= len(d.s) {
		d.fail("unexpected end")
		return 0
	}
	b := d.s[d.pos]
	d.pos++
	return b
}

func (d *decoder) bool() bool { return d.byte() != 0 }

func (d *decoder) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	s := d.s[d.pos : d.pos+n]
	d.pos += n
	return s
}

// node1 reads a reference to a node, nil for none.
func (d *decoder) node1() *node { return d.ref(true) }

// ref reads a reference to a node, nil for none; inPlace as for at.
func (d *decoder) ref(inPlace bool) *node {
	i := d.int()
	if i < 0 || d.err != nil {
		return nil
	}
	if i >= len(d.prog.nodes) {
		d.fail("node index out of range")
		return nil
	}
	return d.at(i, inPlace)
}

// at returns node i, making it when no decoder has reached it before. A
// node applied in place (inPlace) is queued for decoding, then, or when it
// was made as a member's schema not decoded yet; any other is made a shell
// for Program.load.
func (d *decoder) at(i int, inPlace bool) *node {
	p := d.prog
	if n := p.nodes[i]; n != nil {
		if inPlace && n.shell.Load() != nil && !slices.Contains(d.fresh, n) {
			d.fresh = append(d.fresh, n)
			d.pending = append(d.pending, i)
		}
		return n
	}
	if len(p.slab) == 0 {
		// Nodes are made in slabs, each as large as all made before it
		// (at least 8, at most those not made yet): few allocations, and,
		// past the first slab, never twice as many nodes made as reached.
		p.slab = make([]node, min(max(8, len(p.nodes)-p.unmade), p.unmade))
		p.unmade -= len(p.slab)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.index = -1
	p.nodes[i] = n
	if !inPlace {
		n.shell.Store(p)
		return n
	}
	d.fresh = append(d.fresh, n)
	d.pending = append(d.pending, i)
	return n
}

// unionMembers queues for decoding the schemas of the members that the
// alternatives of an anyOf or oneOf require: newUnion reads them to tell
// the alternatives apart.
func (d *decoder) unionMembers(alts []*node) {
	if len(alts) < 2 {
		return
	}
	for _, alt := range alts {
		core := objectCore(alt)
		if core == nil {
			continue
		}
		for _, r := range core.obj.required {
			if prop := core.obj.names[r].prop; prop != nil && prop.shell.Load() != nil {
				d.at(slices.Index(d.prog.nodes, prop), true)
			}
		}
	}
}

func (d *decoder) list() []*node {
	n := d.count()
	if n == 0 {
		return nil
	}
	l := make([]*node, n-1)
	for i := range l {
		if l[i] = d.node1(); l[i] == nil {
			d.fail("missing node in a list")
		}
	}
	return l
}

func (d *decoder) rat() *big.Rat {
	r, ok := new(big.Rat).SetString(d.str())
	if !ok {
		d.fail("bad number")
		return new(big.Rat)
	}
	return r
}

func (d *decoder) regexp() *regexp.Regexp {
	re, err := regexp.Compile(d.str())
	if err != nil {
		d.fail("bad regexp")
		return nil
	}
	return re
}

func (d *decoder) node(n *node) {
	n.draft = d.int()
	n.always = d.bool()
	n.never = d.bool()
	n.unsup = kindMask(d.byte())
	n.why = d.str()
	n.refuse = decodedRefusal(n.unsup, n.why)
	n.types = kindMask(d.byte())
	n.format = d.format()
	n.consts = d.constants()
	n.enum = d.constants()
	n.ref, n.not, n.ifN, n.thenN, n.elseN = d.node1(), d.node1(), d.node1(), d.node1(), d.node1()
	n.refOnly = d.bool()
	n.allOf, n.anyOf, n.oneOf = d.list(), d.list(), d.list()
	n.obj = d.object()
	n.arr = d.array()
	n.str = d.string()
	n.num = d.number()
}

// format reads a format by name, nil for none.
func (d *decoder) format() *jsonformat.Format {
	name := d.str()
	if name == "" {
		return nil
	}
	f := jsonformat.Lookup(name)
	if f == nil {
		d.fail("unknown format")
	}
	return f
}

func (d *decoder) constants() []*constant {
	n := d.count()
	if n == 0 {
		return nil
	}
	cs := make([]*constant, n-1)
	for i := range cs {
		c := &constant{kind: kindMask(d.byte())}
		switch c.kind {
		case 0, kNull:
		case kBool:
			c.b = d.bool()
		case kString:
			c.s = d.str()
		case kNumber:
			c.rat = d.rat()
			c.dec, c.decOK = ratDecimal(c.rat)
		case kArray, kObject:
			dec := json.NewDecoder(bytes.NewReader([]byte(d.str())))
			dec.UseNumber()
			if err := dec.Decode(&c.tree); err != nil {
				d.fail("bad constant")
			}
		default:
			d.fail("bad constant kind")
		}
		cs[i] = c
	}
	return cs
}

func (d *decoder) ints() []int32 {
	n := d.count()
	if n == 0 {
		return nil
	}
	is := make([]int32, n)
	for i := range is {
		is[i] = int32(d.uint())
	}
	return is
}

func (d *decoder) object() *objectRules {
	if !d.bool() {
		return nil
	}
	o := &objectRules{minProps: d.int(), maxProps: d.int()}
	o.names = make([]nameEntry, d.count())
	for i := range o.names {
		o.names[i] = nameEntry{name: d.str(), prop: d.ref(false)}
	}
	if len(o.names) > smallNames {
		o.index = make(map[string]int32, len(o.names))
		for i, n := range o.names {
			o.index[n.name] = int32(i)
		}
	}
	o.nwords = (len(o.names) + 63) / 64
	o.required = d.ints()
	if n := d.count(); n > 0 {
		o.patterns = make([]patternRule, n)
		for i := range o.patterns {
			re := d.regexp()
			o.patterns[i] = patternRule{re: re, gore: re, node: d.node1()}
			if o.patterns[i].node == nil {
				d.fail("a pattern without its schema")
			}
		}
	}
	o.addlFalse = d.bool()
	o.addl = d.node1()
	o.propNames = d.node1()
	for _, deps := range []*[]depRule{&o.depRequired, &o.depSchemas} {
		if n := d.count(); n > 0 {
			*deps = make([]depRule, n)
			for i := range *deps {
				(*deps)[i] = depRule{trigger: int32(d.uint()), required: d.ints(), node: d.node1()}
			}
		}
	}
	for _, r := range o.required {
		d.name(o, r)
	}
	for _, dep := range o.depSchemas {
		if dep.node == nil {
			d.fail("a dependent schema without its schema")
		}
	}
	for _, deps := range [][]depRule{o.depRequired, o.depSchemas} {
		for _, dep := range deps {
			d.name(o, dep.trigger)
			for _, r := range dep.required {
				d.name(o, r)
			}
		}
	}
	return o
}

// name checks that i names one of o's members.
func (d *decoder) name(o *objectRules, i int32) {
	if i < 0 || int(i) >= len(o.names) {
		d.fail("member index out of range")
	}
}

func (d *decoder) array() *arrayRules {
	if !d.bool() {
		return nil
	}
	a := &arrayRules{minItems: d.int(), maxItems: d.int()}
	if n := d.count(); n > 0 {
		a.prefix = make([]*node, n-1)
		for i := range a.prefix {
			if a.prefix[i] = d.node1(); a.prefix[i] == nil {
				d.fail("missing node in a list")
			}
		}
	}
	a.rest = d.node1()
	a.restFalse = d.bool()
	a.unique = d.bool()
	a.contains = d.node1()
	a.minContains = d.int()
	a.maxContains = d.int()
	return a
}

func (d *decoder) string() *stringRules {
	if !d.bool() {
		return nil
	}
	s := &stringRules{minLen: d.int(), maxLen: d.int()}
	if d.bool() {
		if re := d.regexp(); re != nil {
			s.pattern, s.gore = re, re
		}
	}
	return s
}

func (d *decoder) number() *numberRules {
	if !d.bool() {
		return nil
	}
	nr := &numberRules{}
	nr.bounds = make([]bound, d.count())
	for i := range nr.bounds {
		op := boundOp(d.byte())
		if op > opExclusiveMaximum {
			d.fail("bad bound")
		}
		b := bound{op: op, rat: d.rat()}
		b.dec, b.exact = ratDecimal(b.rat)
		nr.bounds[i] = b
	}
	if len(nr.bounds) == 0 {
		nr.bounds = nil
	}
	if d.bool() {
		nr.multipleOf = d.rat()
		if nr.multipleOf.IsInt() && nr.multipleOf.Num().IsInt64() && nr.multipleOf.Sign() > 0 {
			nr.multInt = nr.multipleOf.Num().Int64()
		}
	}
	return nr
}
