package fastschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// kindOf returns the kind of a decoded value.
func kindOf(v any) kindMask {
	switch v.(type) {
	case nil:
		return kNull
	case bool:
		return kBool
	case json.Number:
		return kNumber
	case string:
		return kString
	case []any:
		return kArray
	case *object:
		return kObject
	}
	return 0
}

// typeNames lists the type names of the kinds in k.
func typeNames(k kindMask) string {
	var names []string
	for _, t := range [...]struct {
		k    kindMask
		name string
	}{{kNull, "null"}, {kBool, "boolean"}, {kNumber, "number"}, {kInteger, "integer"}, {kString, "string"}, {kArray, "array"}, {kObject, "object"}} {
		if k&t.k != 0 {
			names = append(names, t.name)
		}
	}
	return strings.Join(names, " or ")
}

// decimalOf reads a JSON number exactly.
func decimalOf(num json.Number) (decimal, error) {
	d, _, ok := appendDecimal(nil, string(num))
	if !ok {
		return decimal{}, ErrNumberTooLarge
	}
	return d, nil
}

// assertions checks type, const, enum and format, which end a schema's
// check at their first failure; nil when they pass. Past type, const and
// enum, a feature Explain cannot evaluate ends it with an error.
func (x *explainer) assertions(n *node, v any) ([]Failure, error) {
	k := kindOf(v)
	if n.types != 0 && n.types&k == 0 {
		isInt := false
		if k == kNumber && n.types&kInteger != 0 {
			d, err := decimalOf(v.(json.Number))
			if err != nil {
				return nil, err
			}
			isInt = d.isInt()
		}
		if !isInt {
			return []Failure{x.failure(keywordLoc(n, "type"), "type", fmt.Sprintf("is %s, not %s", typeNames(k), typeNames(n.types)))}, nil
		}
	}
	for _, kw := range [...]struct {
		name string
		cs   []*constant
	}{{"const", n.consts}, {"enum", n.enum}} {
		if kw.cs == nil {
			continue
		}
		ok, err := matchesAny(kw.cs, v)
		if err != nil {
			return nil, err
		}
		if !ok {
			msg := "is not the value the schema requires"
			if kw.name == "enum" {
				msg = fmt.Sprintf("is none of the %d values the schema allows", len(kw.cs))
			}
			return []Failure{x.failure(keywordLoc(n, kw.name), kw.name, msg)}, nil
		}
	}
	if n.refuse != "" && n.unsup&k != 0 {
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, n.refuse)
	}
	if n.format != nil && n.format.Validate(plain(v)) != nil {
		return []Failure{x.failure(keywordLoc(n, "format"), "format", "is not a valid "+n.format.Name)}, nil
	}
	return nil, nil
}

// matchesAny reports whether v equals one of the constants.
func matchesAny(cs []*constant, v any) (bool, error) {
	for _, c := range cs {
		ok, err := c.equals(v)
		if ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// equals reports whether the decoded value v equals c, as the oracle
// compares.
func (c *constant) equals(v any) (bool, error) {
	switch v := v.(type) {
	case nil:
		return c.kind == kNull, nil
	case bool:
		return c.kind == kBool && c.b == v, nil
	case string:
		return c.kind == kString && c.s == v, nil
	case json.Number:
		if c.kind != kNumber {
			return false, nil
		}
		d, err := decimalOf(v)
		if err != nil {
			return false, err
		}
		if c.decOK {
			return cmpDecimal(d, c.dec) == 0, nil
		}
		r, _ := new(big.Rat).SetString(string(v))
		return r.Cmp(c.rat) == 0, nil
	}
	if c.kind != kArray && c.kind != kObject {
		return false, nil
	}
	eq, ok := equalValues(plain(v), c.tree)
	if !ok {
		return false, ErrNumberTooLarge
	}
	return eq, nil
}

// object checks the object keywords of n, in the oracle's order.
func (x *explainer) object(n *node, obj *object, ue *uneval, out []Failure) ([]Failure, error) {
	o := n.obj
	if o.minProps >= 0 && len(obj.names) < o.minProps {
		out = append(out, x.failure(keywordLoc(n, "minProperties"), "minProperties", fmt.Sprintf("has %d members, fewer than %d", len(obj.names), o.minProps)))
	}
	if o.maxProps >= 0 && len(obj.names) > o.maxProps {
		out = append(out, x.failure(keywordLoc(n, "maxProperties"), "maxProperties", fmt.Sprintf("has %d members, more than %d", len(obj.names), o.maxProps)))
	}
	if missing := o.missing(obj, o.required); missing != nil {
		out = append(out, x.failure(keywordLoc(n, "required"), "required", namesMessage("missing required member", missing)))
	}
	for _, d := range o.depRequired {
		trigger := o.names[d.trigger].name
		if _, ok := obj.get(trigger); !ok {
			continue
		}
		if missing := o.missing(obj, d.required); missing != nil {
			// The oracle names the keyword "dependency" in the location.
			kw, path := "dependencies", "dependency"
			if d.dependentRequired {
				kw, path = "dependentRequired", "dependentRequired"
			}
			out = append(out, x.failure(keywordLoc(n, path, trigger), kw,
				fmt.Sprintf("has %q, so needs %s", trigger, quoteNames(missing))))
		}
	}
	for _, d := range o.depSchemas {
		if _, ok := obj.get(o.names[d.trigger].name); !ok {
			continue
		}
		f, err := x.self(d.node, obj, ue)
		if err != nil {
			return nil, err
		}
		out = append(out, f...)
	}
	var additional []string
	for i, name := range obj.names {
		val := obj.values[i]
		evaluated := false
		if j := o.lookupName(name); j >= 0 && o.names[j].prop != nil {
			evaluated = true
			f, err := x.child(o.names[j].prop, val, name)
			if err != nil {
				return nil, err
			}
			out = append(out, f...)
		}
		for _, p := range o.patterns {
			if !p.matchString(name) {
				continue
			}
			evaluated = true
			f, err := x.child(p.node, val, name)
			if err != nil {
				return nil, err
			}
			out = append(out, f...)
		}
		if !evaluated && (o.addlFalse || o.addl != nil) {
			evaluated = true
			if o.addlFalse {
				additional = append(additional, name)
			} else {
				f, err := x.child(o.addl, val, name)
				if err != nil {
					return nil, err
				}
				out = append(out, f...)
			}
		}
		if evaluated {
			ue.evaluated(name, -1)
		}
	}
	if additional != nil {
		slices.Sort(additional)
		out = append(out, x.failure(keywordLoc(n, "additionalProperties"), "additionalProperties", notAllowed(additional)))
	}
	if o.propNames != nil {
		for _, name := range obj.names {
			f, err := x.fresh(o.propNames, name)
			if err != nil {
				return nil, err
			}
			for _, e := range f {
				out = append(out, nameFailure(name, e))
			}
		}
	}
	return out, nil
}

// nameFailure says that the member name failed propertyNames for reason
// f.
func nameFailure(name string, f Failure) Failure {
	f.Message = fmt.Sprintf("member name %q %s", name, f.Message)
	for _, alt := range f.Alternatives {
		for i := range alt {
			alt[i] = nameFailure(name, alt[i])
		}
	}
	return f
}

// missing returns the names at positions idx that obj lacks, nil when it
// has them all.
func (o *objectRules) missing(obj *object, idx []int32) []string {
	var out []string
	for _, i := range idx {
		if _, ok := obj.get(o.names[i].name); !ok {
			out = append(out, o.names[i].name)
		}
	}
	return out
}

// lookupName is lookup for a decoded name held as a string.
func (o *objectRules) lookupName(name string) int {
	if o.index != nil {
		if i, ok := o.index[name]; ok {
			return int(i)
		}
		return -1
	}
	for i := range o.names {
		if o.names[i].name == name {
			return i
		}
	}
	return -1
}

// matchString reports whether the decoded name matches.
func (p *patternRule) matchString(name string) bool {
	if p.gore != nil {
		return p.gore.MatchString(name)
	}
	return p.re.MatchString(name)
}

// quoteNames lists names, quoted.
// namesMessage is what, then the quoted names, with what in the plural ("member"
// becomes "members") for more than one.
func namesMessage(what string, names []string) string {
	if len(names) > 1 {
		what = strings.Replace(what, "member", "members", 1)
	}
	return what + " " + quoteNames(names)
}

// notAllowed says the names are of members the schema does not allow.
func notAllowed(names []string) string {
	if len(names) == 1 {
		return "member " + quoteNames(names) + " is not allowed here"
	}
	return "members " + quoteNames(names) + " are not allowed here"
}

// quoteNames quotes each name and joins them with commas.
func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// array checks the array keywords of n, in the oracle's order.
func (x *explainer) array(n *node, arr []any, ue *uneval, out []Failure) ([]Failure, error) {
	a := n.arr
	if a.minItems >= 0 && len(arr) < a.minItems {
		out = append(out, x.failure(keywordLoc(n, "minItems"), "minItems", fmt.Sprintf("has %d elements, fewer than %d", len(arr), a.minItems)))
	}
	if a.maxItems >= 0 && len(arr) > a.maxItems {
		out = append(out, x.failure(keywordLoc(n, "maxItems"), "maxItems", fmt.Sprintf("has %d elements, more than %d", len(arr), a.maxItems)))
	}
	if a.unique {
		i, j, err := duplicate(arr)
		if err != nil {
			return nil, err
		}
		if j >= 0 {
			out = append(out, x.failure(keywordLoc(n, "uniqueItems"), "uniqueItems", fmt.Sprintf("has equal elements %d and %d", i, j)))
		}
	}
	for i, e := range arr {
		sub := a.rest
		if a.prefix != nil && i < len(a.prefix) {
			sub = a.prefix[i]
		}
		if sub == nil {
			if a.restFalse {
				out = append(out, x.failure(keywordLoc(n, "additionalItems"), "additionalItems",
					fmt.Sprintf("has %d elements beyond the %d allowed", len(arr)-i, i)))
			}
			break
		}
		f, err := x.child(sub, e, strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out = append(out, f...)
	}
	if a.contains == nil {
		return out, nil
	}
	var misses []Failure
	matched := 0
	for i, e := range arr {
		f, err := x.child(a.contains, e, strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		if f != nil {
			misses = append(misses, f...)
			continue
		}
		matched++
		if n.draft >= Draft2020 {
			ue.evaluated("", i)
		}
	}
	if matched < a.minContains {
		// As the oracle: the elements' own failures explain a missing
		// match, when there are any.
		if misses != nil {
			out = append(out, misses...)
		} else if a.explicitMin {
			out = append(out, x.failure(keywordLoc(n, "minContains"), "minContains", fmt.Sprintf("has %d matching elements, fewer than %d", matched, a.minContains)))
		} else {
			out = append(out, x.failure(keywordLoc(n, "contains"), "contains", "has no element that matches"))
		}
	}
	if a.maxContains >= 0 && matched > a.maxContains {
		out = append(out, x.failure(keywordLoc(n, "maxContains"), "maxContains", fmt.Sprintf("has %d matching elements, more than %d", matched, a.maxContains)))
	}
	return out, nil
}

// duplicate returns the positions of the first two equal elements of arr,
// j < 0 when there are none.
func duplicate(arr []any) (int, int, error) {
	if len(arr) < 2 {
		return -1, -1, nil
	}
	seen := make(map[string]int, len(arr))
	var b bytes.Buffer
	for j, e := range arr {
		b.Reset()
		if !canonical(&b, plain(e)) {
			return -1, -1, ErrNumberTooLarge
		}
		if i, dup := seen[b.String()]; dup {
			return i, j, nil
		}
		seen[b.String()] = j
	}
	return -1, -1, nil
}

// string checks the string keywords of n.
func (x *explainer) string(n *node, s string, out []Failure) []Failure {
	st := n.str
	if st.minLen >= 0 || st.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		if st.minLen >= 0 && l < st.minLen {
			out = append(out, x.failure(keywordLoc(n, "minLength"), "minLength", fmt.Sprintf("has %d characters, fewer than %d", l, st.minLen)))
		}
		if st.maxLen >= 0 && l > st.maxLen {
			out = append(out, x.failure(keywordLoc(n, "maxLength"), "maxLength", fmt.Sprintf("has %d characters, more than %d", l, st.maxLen)))
		}
	}
	if st.pattern != nil || st.gore != nil {
		var ok bool
		if st.gore != nil {
			ok = st.gore.MatchString(s)
		} else {
			ok = st.pattern.MatchString(s)
		}
		if !ok {
			out = append(out, x.failure(keywordLoc(n, "pattern"), "pattern", "does not match the pattern "+strconv.Quote(patternText(st))))
		}
	}
	return out
}

// boundKeywords names each bound's keyword, and how a failing value
// relates to it.
var boundKeywords = [...]struct{ name, relation string }{
	opMinimum:          {"minimum", "less than"},
	opMaximum:          {"maximum", "greater than"},
	opExclusiveMinimum: {"exclusiveMinimum", "not greater than"},
	opExclusiveMaximum: {"exclusiveMaximum", "not less than"},
}

// number checks the number keywords of n.
func (x *explainer) number(n *node, num json.Number, out []Failure) ([]Failure, error) {
	nr := n.num
	d, err := decimalOf(num)
	if err != nil {
		return nil, err
	}
	var rat *big.Rat
	ratOfNum := func() *big.Rat {
		if rat == nil {
			rat, _ = new(big.Rat).SetString(string(num))
		}
		return rat
	}
	for _, b := range nr.bounds {
		var c int
		if b.exact {
			c = cmpDecimal(d, b.dec)
		} else {
			c = ratOfNum().Cmp(b.rat)
		}
		if !b.op.pass(c) {
			kw := boundKeywords[b.op]
			out = append(out, x.failure(keywordLoc(n, kw.name), kw.name, fmt.Sprintf("is %s, %s %s", num, kw.relation, b.rat.RatString())))
		}
	}
	if nr.multipleOf != nil {
		var ok bool
		if v, isInt := d.int64(); isInt && nr.multInt > 0 {
			ok = v%nr.multInt == 0
		} else {
			ok = new(big.Rat).Quo(ratOfNum(), nr.multipleOf).IsInt()
		}
		if !ok {
			out = append(out, x.failure(keywordLoc(n, "multipleOf"), "multipleOf", fmt.Sprintf("is %s, not a multiple of %s", num, nr.multipleOf.RatString())))
		}
	}
	return out, nil
}

// patternText is the source of st's pattern.
func patternText(st *stringRules) string {
	if st.gore != nil {
		return st.gore.String()
	}
	return st.pattern.String()
}
