package fastschema

import (
	"math/big"
	"regexp"
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// smallNames is the number of member names up to which an object's names
// are looked up by scanning a slice rather than through a map.
const smallNames = 8

// maxPatterns bounds the patternProperties entries a node supports.
const maxPatterns = 64

// compiler turns schemas into nodes, once per schema.
type compiler struct {
	nodes map[*jsonschema.Schema]*node
	all   []*node
}

// node returns the compiled form of sch, compiling it on first use. Nodes
// are registered before their children are compiled, so cycles through
// $ref end at the node being built.
func (c *compiler) node(sch *jsonschema.Schema) *node {
	if n, ok := c.nodes[sch]; ok {
		return n
	}
	n := &node{draft: sch.DraftVersion, index: -1}
	c.nodes[sch] = n
	c.all = append(c.all, n)
	c.fill(n, sch)
	return n
}

// list compiles a list of schemas.
func (c *compiler) list(schs []*jsonschema.Schema) []*node {
	if len(schs) == 0 {
		return nil
	}
	out := make([]*node, len(schs))
	for i, s := range schs {
		out[i] = c.node(s)
	}
	return out
}

// opt compiles sch when it is not nil.
func (c *compiler) opt(sch *jsonschema.Schema) *node {
	if sch == nil {
		return nil
	}
	return c.node(sch)
}

// unsupported marks n as answering Unknown for the kinds k.
func (n *node) unsupported(k kindMask, why string) {
	n.unsup |= k
	if n.why == "" {
		n.why = why
	}
}

// fill compiles the keywords of sch into n.
func (c *compiler) fill(n *node, sch *jsonschema.Schema) {
	if sch.Bool != nil {
		n.always, n.never = *sch.Bool, !*sch.Bool
		return
	}
	if sch.RecursiveRef != nil {
		n.unsupported(kAll, "$recursiveRef")
	}
	if sch.DynamicRef != nil {
		n.unsupported(kAll, "$dynamicRef")
	}
	if len(sch.Extensions) > 0 {
		n.unsupported(kAll, "vocabulary extension")
	}
	if sch.UnevaluatedProperties != nil {
		n.unsupported(kObject, "unevaluatedProperties")
	}
	if sch.UnevaluatedItems != nil {
		n.unsupported(kArray, "unevaluatedItems")
	}
	if sch.ContentEncoding != nil || sch.ContentMediaType != nil || sch.ContentSchema != nil {
		n.unsupported(kString, "content assertion")
	}
	if sch.Types != nil {
		n.types = typesOf(sch.Types)
	}
	if sch.Const != nil {
		n.consts = []*constant{newConstant(*sch.Const)}
	}
	if sch.Enum != nil {
		n.enum = make([]*constant, len(sch.Enum.Values))
		for i, v := range sch.Enum.Values {
			n.enum[i] = newConstant(v)
		}
	}
	n.format = sch.Format
	n.ref = c.opt(sch.Ref)
	n.refOnly = n.ref != nil && sch.DraftVersion < 2019
	n.allOf = c.list(sch.AllOf)
	n.anyOf = c.list(sch.AnyOf)
	n.oneOf = c.list(sch.OneOf)
	n.not = c.opt(sch.Not)
	n.ifN = c.opt(sch.If)
	if n.ifN != nil {
		n.thenN = c.opt(sch.Then)
		n.elseN = c.opt(sch.Else)
	}
	c.objectRules(n, sch)
	c.arrayRules(n, sch)
	c.stringRules(n, sch)
	c.numberRules(n, sch)
}

// typesOf converts the library's type set.
func typesOf(t *jsonschema.Types) kindMask {
	var k kindMask
	for _, name := range t.ToStrings() {
		switch name {
		case "null":
			k |= kNull
		case "boolean":
			k |= kBool
		case "number":
			k |= kNumber
		case "integer":
			k |= kInteger
		case "string":
			k |= kString
		case "array":
			k |= kArray
		case "object":
			k |= kObject
		}
	}
	return k
}

// objectRules compiles the object keywords of sch, if any.
func (c *compiler) objectRules(n *node, sch *jsonschema.Schema) {
	var propNames *jsonschema.Schema
	var depSchemas map[string]*jsonschema.Schema
	var depRequired map[string][]string
	if sch.DraftVersion != 4 {
		propNames = sch.PropertyNames
		if sch.DraftVersion != 6 {
			depSchemas, depRequired = sch.DependentSchemas, sch.DependentRequired
		}
	}
	addlFalse := false
	var addl *jsonschema.Schema
	switch a := sch.AdditionalProperties.(type) {
	case bool:
		addlFalse = !a
	case *jsonschema.Schema:
		addl = a
	}
	if sch.MinProperties == nil && sch.MaxProperties == nil && len(sch.Required) == 0 &&
		len(sch.Properties) == 0 && len(sch.PatternProperties) == 0 && !addlFalse && addl == nil &&
		propNames == nil && len(sch.Dependencies) == 0 && len(depSchemas) == 0 && len(depRequired) == 0 {
		return
	}
	o := &objectRules{minProps: intOr(sch.MinProperties), maxProps: intOr(sch.MaxProperties), addlFalse: addlFalse}
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
	for _, p := range sortedKeys(sch.Properties) {
		o.names[name(p)].prop = c.node(sch.Properties[p])
	}
	for _, r := range sch.Required {
		o.required = append(o.required, name(r))
	}
	for _, p := range sortedKeys(sch.Dependencies) {
		switch dep := sch.Dependencies[p].(type) {
		case []string:
			rule := depRule{trigger: name(p)}
			for _, r := range dep {
				rule.required = append(rule.required, name(r))
			}
			o.depRequired = append(o.depRequired, rule)
		case *jsonschema.Schema:
			o.depSchemas = append(o.depSchemas, depRule{trigger: name(p), node: c.node(dep)})
		}
	}
	for _, p := range sortedKeys(depSchemas) {
		o.depSchemas = append(o.depSchemas, depRule{trigger: name(p), node: c.node(depSchemas[p])})
	}
	for _, p := range sortedKeys(depRequired) {
		rule := depRule{trigger: name(p)}
		for _, r := range depRequired[p] {
			rule.required = append(rule.required, name(r))
		}
		o.depRequired = append(o.depRequired, rule)
	}
	if len(o.names) > smallNames {
		o.index = pos
	}
	o.nwords = (len(o.names) + 63) / 64
	if len(sch.PatternProperties) > maxPatterns {
		n.unsupported(kObject, "too many patternProperties")
	}
	res := make([]jsonschema.Regexp, 0, len(sch.PatternProperties))
	for re := range sch.PatternProperties {
		res = append(res, re)
	}
	sort.Slice(res, func(i, j int) bool { return res[i].String() < res[j].String() })
	for _, re := range res {
		gore, _ := re.(*regexp.Regexp)
		o.patterns = append(o.patterns, patternRule{re: re, gore: gore, node: c.node(sch.PatternProperties[re])})
	}
	o.addl = c.opt(addl)
	o.propNames = c.opt(propNames)
	n.obj = o
}

// arrayRules compiles the array keywords of sch, if any.
func (c *compiler) arrayRules(n *node, sch *jsonschema.Schema) {
	a := &arrayRules{minItems: intOr(sch.MinItems), maxItems: intOr(sch.MaxItems), unique: sch.UniqueItems, maxContains: -1, minContains: 1}
	if sch.DraftVersion < 2020 {
		switch items := sch.Items.(type) {
		case *jsonschema.Schema:
			a.rest = c.node(items)
		case []*jsonschema.Schema:
			a.prefix = c.list(items)
			if len(a.prefix) == 0 {
				a.prefix = []*node{}
			}
		}
		if _, single := sch.Items.(*jsonschema.Schema); !single {
			switch add := sch.AdditionalItems.(type) {
			case bool:
				a.restFalse = !add
			case *jsonschema.Schema:
				a.rest = c.node(add)
			}
		}
	} else {
		a.prefix = c.list(sch.PrefixItems)
		a.rest = c.opt(sch.Items2020)
	}
	if sch.Contains != nil {
		a.contains = c.node(sch.Contains)
		if sch.MinContains != nil {
			a.minContains = *sch.MinContains
		}
		a.maxContains = intOr(sch.MaxContains)
	}
	if a.minItems < 0 && a.maxItems < 0 && !a.unique && len(a.prefix) == 0 && a.rest == nil && !a.restFalse && a.contains == nil {
		return
	}
	n.arr = a
}

// stringRules compiles the string keywords of sch, if any.
func (c *compiler) stringRules(n *node, sch *jsonschema.Schema) {
	if sch.MinLength == nil && sch.MaxLength == nil && sch.Pattern == nil {
		return
	}
	st := &stringRules{minLen: intOr(sch.MinLength), maxLen: intOr(sch.MaxLength), pattern: sch.Pattern}
	st.gore, _ = sch.Pattern.(*regexp.Regexp)
	n.str = st
}

// numberRules compiles the number keywords of sch, if any.
func (c *compiler) numberRules(n *node, sch *jsonschema.Schema) {
	nr := &numberRules{multipleOf: sch.MultipleOf}
	add := func(r *big.Rat, op boundOp) {
		if r == nil {
			return
		}
		b := bound{rat: r, op: op}
		b.dec, b.exact = ratDecimal(r)
		nr.bounds = append(nr.bounds, b)
	}
	add(sch.Minimum, opMinimum)
	add(sch.Maximum, opMaximum)
	add(sch.ExclusiveMinimum, opExclusiveMinimum)
	add(sch.ExclusiveMaximum, opExclusiveMaximum)
	if nr.multipleOf != nil && nr.multipleOf.IsInt() && nr.multipleOf.Num().IsInt64() && nr.multipleOf.Sign() > 0 {
		nr.multInt = nr.multipleOf.Num().Int64()
	}
	if len(nr.bounds) == 0 && nr.multipleOf == nil {
		return
	}
	n.num = nr
}

// intOr returns *p, or -1 when p is nil.
func intOr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
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
