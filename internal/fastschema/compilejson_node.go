package fastschema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strconv"

	"github.com/schemarpc/schemarpc/internal/jsonformat"
)

// node returns the node of the schema at ptr in r, compiling it on first
// use. Nodes are registered before their children are compiled, so cycles
// through $ref end at the node being built.
func (c *jsonCompiler) node(r *jsonRoot, ptr string) (*node, error) {
	key := r.loc(ptr)
	if n, ok := c.nodes[key]; ok {
		return n, nil
	}
	v, ok := r.lookup(ptr)
	if !ok {
		return nil, &SchemaError{Location: key, Reason: "no value at this JSON pointer"}
	}
	if !r.checked[ptr] {
		// A reference to a place no keyword holds a schema at: the
		// library checks it on its own when it gets there.
		if err := r.collect(v, r.resourceAt(ptr).id, ptr); err != nil {
			return nil, err
		}
		if err := r.checkSchema(v, ptr); err != nil {
			return nil, err
		}
	}
	n := &node{draft: r.draft, loc: r.url + "#" + encodePointer(ptr), index: -1}
	c.nodes[key] = n
	c.all = append(c.all, n)
	if err := c.fill(n, r, ptr, v); err != nil {
		return nil, err
	}
	return n, nil
}

// schemaFields compiles the keywords of one schema object.
type schemaFields struct {
	c   *jsonCompiler
	r   *jsonRoot
	ptr string
	obj map[string]any
}

// sub compiles the schema under keyword kw, nil when absent.
func (f *schemaFields) sub(kw string) (*node, error) {
	if _, ok := f.obj[kw]; !ok {
		return nil, nil
	}
	return f.c.node(f.r, f.ptr+"/"+escapeToken(kw))
}

// list compiles the array of schemas under kw, nil when absent.
func (f *schemaFields) list(kw string) ([]*node, error) {
	arr, ok := f.obj[kw].([]any)
	if !ok {
		return nil, nil
	}
	out := make([]*node, len(arr))
	for i := range arr {
		n, err := f.c.node(f.r, f.ptr+"/"+escapeToken(kw)+"/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// schemaMap compiles the object of schemas under kw, nil when absent.
func (f *schemaFields) schemaMap(kw string) (map[string]*node, error) {
	m, ok := f.obj[kw].(map[string]any)
	if !ok {
		return nil, nil
	}
	out := make(map[string]*node, len(m))
	for _, k := range sortedKeys(m) {
		n, err := f.c.node(f.r, f.ptr+"/"+escapeToken(kw)+"/"+escapeToken(k))
		if err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, nil
}

// ref compiles the target of the reference under kw, nil when absent.
func (f *schemaFields) ref(kw string) (*node, error) {
	s, ok := f.obj[kw].(string)
	if !ok {
		return nil, nil
	}
	r, p, err := f.c.resolve(f.r, f.ptr, kw, s)
	if err != nil {
		return nil, err
	}
	if _, ok := r.lookup(p); !ok {
		return nil, &SchemaError{Location: f.r.loc(f.ptr + "/" + escapeToken(kw)), Reason: fmt.Sprintf("reference %q: no value at %s", s, r.loc(p))}
	}
	return f.c.node(r, p)
}

// rat returns the number under kw, nil when absent or not a number.
func (f *schemaFields) rat(kw string) *big.Rat {
	r, _ := ratOf(f.obj[kw])
	return r
}

// count returns the non-negative integer under kw, -1 when absent.
func (f *schemaFields) count(kw string) int {
	r := f.rat(kw)
	if r == nil || !r.IsInt() {
		return -1
	}
	return int(r.Num().Int64())
}

// fill compiles the schema v at ptr into n, as the library reads it.
func (c *jsonCompiler) fill(n *node, r *jsonRoot, ptr string, v any) error {
	if b, ok := v.(bool); ok {
		n.always, n.never = b, !b
		return nil
	}
	obj, _ := v.(map[string]any)
	if len(obj) == 0 {
		n.always = true
		return nil
	}
	f := &schemaFields{c: c, r: r, ptr: ptr, obj: obj}
	var err error
	if n.ref, err = f.ref("$ref"); err != nil {
		return err
	}
	if n.ref != nil && r.draft < Draft2019 {
		n.refOnly = true
		return c.fillBesideRef(n, f)
	}
	if r.draft >= Draft2019 {
		for _, kw := range []string{"$recursiveRef", "$dynamicRef"} {
			if kw == "$dynamicRef" && r.draft < Draft2020 {
				continue
			}
			target, err := f.ref(kw)
			if err != nil {
				return err
			}
			if target != nil {
				n.unsupported(kAll, kw)
				n.refuse = kw
			}
		}
		for _, u := range []struct {
			kw   string
			kind kindMask
		}{{"unevaluatedProperties", kObject}, {"unevaluatedItems", kArray}} {
			sub, err := f.sub(u.kw)
			if err != nil {
				return err
			}
			if sub != nil {
				n.unsupported(u.kind, u.kw)
			}
			if u.kind == kObject {
				n.uneProps = sub
			} else {
				n.uneItems = sub
			}
		}
	}
	_, n.allProps = f.obj["additionalProperties"]
	if r.draft < Draft2020 {
		_, isList := f.obj["items"].([]any)
		_, hasItems := f.obj["items"]
		_, hasAdditional := f.obj["additionalItems"]
		n.allItems = (hasItems && !isList) || (isList && hasAdditional)
	} else {
		_, n.allItems = f.obj["items"]
	}
	if err := c.fillApplicators(n, f); err != nil {
		return err
	}
	c.fillAssertions(n, f)
	if err := c.fillObject(n, f); err != nil {
		return err
	}
	return c.fillArray(n, f)
}

// fillBesideRef compiles the keywords the library still compiles beside a
// draft-07 $ref (those that draft 6 and 7 added): they are never checked,
// but a reference in them must resolve, and the program is the library's.
func (c *jsonCompiler) fillBesideRef(n *node, f *schemaFields) error {
	if f.r.draft < Draft6 {
		return nil
	}
	if v, ok := f.obj["const"]; ok {
		n.consts = []*constant{newConstant(v)}
	}
	contains, err := f.sub("contains")
	if err != nil {
		return err
	}
	if contains != nil {
		n.arr = &arrayRules{minItems: -1, maxItems: -1, contains: contains, minContains: 1, maxContains: -1}
	}
	sp := &objectSpec{minProps: -1, maxProps: -1}
	if sp.propNames, err = f.sub("propertyNames"); err != nil {
		return err
	}
	n.obj = sp.build(n)
	return c.fillConditional(n, f)
}

// fillApplicators compiles allOf, anyOf, oneOf, not and if/then/else.
func (c *jsonCompiler) fillApplicators(n *node, f *schemaFields) error {
	var err error
	if n.allOf, err = f.list("allOf"); err != nil {
		return err
	}
	if n.anyOf, err = f.list("anyOf"); err != nil {
		return err
	}
	if n.oneOf, err = f.list("oneOf"); err != nil {
		return err
	}
	if n.not, err = f.sub("not"); err != nil {
		return err
	}
	return c.fillConditional(n, f)
}

// fillConditional compiles if, then and else (draft 7 and later).
func (c *jsonCompiler) fillConditional(n *node, f *schemaFields) error {
	if f.r.draft < Draft7 {
		return nil
	}
	var err error
	if n.ifN, err = f.sub("if"); err != nil || n.ifN == nil {
		return err
	}
	// As the library: a constant "if" leaves the branch it never takes
	// uncompiled.
	b, isBool := f.obj["if"].(bool)
	if !isBool || b {
		if n.thenN, err = f.sub("then"); err != nil {
			return err
		}
	}
	if !isBool || !b {
		if n.elseN, err = f.sub("else"); err != nil {
			return err
		}
	}
	return nil
}

// fillAssertions compiles type, const, enum, format and the string and
// number keywords. The keyword checks have already refused wrong values.
func (c *jsonCompiler) fillAssertions(n *node, f *schemaFields) {
	switch t := f.obj["type"].(type) {
	case string:
		n.types = kindOfType(t)
	case []any:
		for _, name := range t {
			s, _ := name.(string)
			n.types |= kindOfType(s)
		}
	}
	if v, ok := f.obj["const"]; ok && f.r.draft >= Draft6 {
		n.consts = []*constant{newConstant(v)}
	}
	if arr, ok := f.obj["enum"].([]any); ok {
		n.enum = make([]*constant, len(arr))
		for i, v := range arr {
			n.enum[i] = newConstant(v)
		}
	}
	if name, ok := f.obj["format"].(string); ok && f.r.draft < Draft2019 {
		// Drafts 07 and older assert the formats the library knows; other
		// names annotate.
		n.format = jsonformat.Lookup(name)
	}
	minLen, maxLen := f.count("minLength"), f.count("maxLength")
	pattern, _ := f.obj["pattern"].(string)
	if _, has := f.obj["pattern"]; has || minLen >= 0 || maxLen >= 0 {
		st := &stringRules{minLen: minLen, maxLen: maxLen}
		if has {
			st.gore = regexp.MustCompile(pattern) // checked before
			st.pattern = st.gore
		}
		n.str = st
	}
	minimum, maximum := f.rat("minimum"), f.rat("maximum")
	exclMin, exclMax := f.rat("exclusiveMinimum"), f.rat("exclusiveMaximum")
	// draft 4: a boolean exclusiveMinimum or exclusiveMaximum makes its
	// bound exclusive
	if b, _ := f.obj["exclusiveMinimum"].(bool); b {
		minimum, exclMin = nil, minimum
	}
	if b, _ := f.obj["exclusiveMaximum"].(bool); b {
		maximum, exclMax = nil, maximum
	}
	n.num = newNumberRules(minimum, maximum, exclMin, exclMax, f.rat("multipleOf"))
}

// fillObject compiles the object keywords.
func (c *jsonCompiler) fillObject(n *node, f *schemaFields) error {
	sp := &objectSpec{minProps: f.count("minProperties"), maxProps: f.count("maxProperties"), required: stringsOf(f.obj["required"])}
	var err error
	if sp.props, err = f.schemaMap("properties"); err != nil {
		return err
	}
	if f.r.draft >= Draft6 {
		if sp.propNames, err = f.sub("propertyNames"); err != nil {
			return err
		}
	}
	switch a := f.obj["additionalProperties"].(type) {
	case bool:
		sp.addlFalse = !a
	case map[string]any:
		if sp.addl, err = f.sub("additionalProperties"); err != nil {
			return err
		}
	}
	if deps, ok := f.obj["dependencies"].(map[string]any); ok {
		for _, p := range sortedKeys(deps) {
			if arr, ok := deps[p].([]any); ok {
				sp.deps = append(sp.deps, depSpec{trigger: p, required: stringsOf(arr)})
				continue
			}
			dn, err := f.c.node(f.r, f.ptr+"/dependencies/"+escapeToken(p))
			if err != nil {
				return err
			}
			sp.deps = append(sp.deps, depSpec{trigger: p, node: dn})
		}
	}
	if f.r.draft >= Draft2019 {
		ds, err := f.schemaMap("dependentSchemas")
		if err != nil {
			return err
		}
		for _, p := range sortedKeys(ds) {
			sp.deps = append(sp.deps, depSpec{trigger: p, node: ds[p]})
		}
		if dr, ok := f.obj["dependentRequired"].(map[string]any); ok {
			for _, p := range sortedKeys(dr) {
				if arr, ok := dr[p].([]any); ok {
					sp.deps = append(sp.deps, depSpec{trigger: p, required: stringsOf(arr), dependentRequired: true})
				}
			}
		}
	}
	pats, err := f.schemaMap("patternProperties")
	if err != nil {
		return err
	}
	for _, p := range sortedKeys(pats) {
		re := regexp.MustCompile(p) // checked before
		sp.patterns = append(sp.patterns, patternRule{re: re, gore: re, node: pats[p]})
	}
	n.obj = sp.build(n)
	return nil
}

// fillArray compiles the array keywords.
func (c *jsonCompiler) fillArray(n *node, f *schemaFields) error {
	a := &arrayRules{minItems: f.count("minItems"), maxItems: f.count("maxItems"), maxContains: -1, minContains: 1}
	a.unique, _ = f.obj["uniqueItems"].(bool)
	var err error
	if f.r.draft < Draft2020 {
		if _, isList := f.obj["items"].([]any); isList {
			if a.prefix, err = f.list("items"); err != nil {
				return err
			}
			switch add := f.obj["additionalItems"].(type) {
			case bool:
				a.restFalse = !add
			case map[string]any:
				if a.rest, err = f.sub("additionalItems"); err != nil {
					return err
				}
			}
		} else if a.rest, err = f.sub("items"); err != nil {
			return err
		}
	} else {
		if a.prefix, err = f.list("prefixItems"); err != nil {
			return err
		}
		if a.rest, err = f.sub("items"); err != nil {
			return err
		}
	}
	if f.r.draft >= Draft6 {
		if a.contains, err = f.sub("contains"); err != nil {
			return err
		}
	}
	if a.contains != nil && f.r.draft >= Draft2019 {
		if m := f.count("minContains"); m >= 0 {
			a.minContains = m
			a.explicitMin = true
		}
		a.maxContains = f.count("maxContains")
	}
	if a.minItems < 0 && a.maxItems < 0 && !a.unique && len(a.prefix) == 0 && a.rest == nil && !a.restFalse && a.contains == nil {
		return nil
	}
	n.arr = a
	return nil
}

// stringsOf returns the strings of an array value, skipping other values.
func stringsOf(v any) []string {
	arr, _ := v.([]any)
	var out []string
	for _, e := range arr {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// ratOf returns a JSON number as the library reads it.
func ratOf(v any) (*big.Rat, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(num))
}
