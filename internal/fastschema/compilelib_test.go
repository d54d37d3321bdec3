package fastschema

// The compiler of schemas compiled by the jsonschema library, the oracle:
// the tests compare what CompileJSON makes with what this makes of the
// library's own reading of the same documents, node for node.

import (
	"regexp"
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

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
	n := &node{draft: sch.DraftVersion, loc: sch.Location, index: -1}
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

// fill compiles the keywords of sch into n.
func (c *compiler) fill(n *node, sch *jsonschema.Schema) {
	if sch.Bool != nil {
		n.always, n.never = *sch.Bool, !*sch.Bool
		return
	}
	if sch.RecursiveRef != nil {
		n.unsupported(kAll, "$recursiveRef")
		n.refuse = "$recursiveRef"
	}
	if sch.DynamicRef != nil {
		n.unsupported(kAll, "$dynamicRef")
		n.refuse = "$dynamicRef"
	}
	if len(sch.Extensions) > 0 {
		n.unsupported(kAll, "vocabulary extension")
		n.refuse = "vocabulary extension"
	}
	if sch.UnevaluatedProperties != nil {
		n.unsupported(kObject, "unevaluatedProperties")
		n.uneProps = c.node(sch.UnevaluatedProperties)
	}
	if sch.UnevaluatedItems != nil {
		n.unsupported(kArray, "unevaluatedItems")
		n.uneItems = c.node(sch.UnevaluatedItems)
	}
	if sch.ContentEncoding != nil || sch.ContentMediaType != nil || sch.ContentSchema != nil {
		n.unsupported(kString, "content assertion")
		n.refuse = "content assertion"
	}
	n.allProps = sch.AdditionalProperties != nil
	if sch.DraftVersion < 2020 {
		_, single := sch.Items.(*jsonschema.Schema)
		n.allItems = single || sch.AdditionalItems != nil
	} else {
		n.allItems = sch.Items2020 != nil
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
	if sch.Format != nil {
		// Our own check of the format; one a user registered on the
		// library stays with the oracle.
		if n.format = formatOf(sch.Format); n.format == nil {
			n.unsupported(kAll, "format "+sch.Format.Name)
		}
	}
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
		k |= kindOfType(name)
	}
	return k
}

// objectRules compiles the object keywords of sch, if any.
func (c *compiler) objectRules(n *node, sch *jsonschema.Schema) {
	sp := &objectSpec{minProps: intOr(sch.MinProperties), maxProps: intOr(sch.MaxProperties), required: sch.Required}
	if sch.DraftVersion != 4 {
		sp.propNames = c.opt(sch.PropertyNames)
	}
	switch a := sch.AdditionalProperties.(type) {
	case bool:
		sp.addlFalse = !a
	case *jsonschema.Schema:
		sp.addl = c.node(a)
	}
	if len(sch.Properties) > 0 {
		sp.props = map[string]*node{}
		for _, p := range sortedKeys(sch.Properties) {
			sp.props[p] = c.node(sch.Properties[p])
		}
	}
	for _, p := range sortedKeys(sch.Dependencies) {
		switch dep := sch.Dependencies[p].(type) {
		case []string:
			sp.deps = append(sp.deps, depSpec{trigger: p, required: dep})
		case *jsonschema.Schema:
			sp.deps = append(sp.deps, depSpec{trigger: p, node: c.node(dep)})
		}
	}
	if sch.DraftVersion != 4 && sch.DraftVersion != 6 {
		for _, p := range sortedKeys(sch.DependentSchemas) {
			sp.deps = append(sp.deps, depSpec{trigger: p, node: c.node(sch.DependentSchemas[p])})
		}
		for _, p := range sortedKeys(sch.DependentRequired) {
			sp.deps = append(sp.deps, depSpec{trigger: p, required: sch.DependentRequired[p], dependentRequired: true})
		}
	}
	res := make([]jsonschema.Regexp, 0, len(sch.PatternProperties))
	for re := range sch.PatternProperties {
		res = append(res, re)
	}
	sort.Slice(res, func(i, j int) bool { return res[i].String() < res[j].String() })
	for _, re := range res {
		gore, _ := re.(*regexp.Regexp)
		sp.patterns = append(sp.patterns, patternRule{re: re, gore: gore, node: c.node(sch.PatternProperties[re])})
	}
	n.obj = sp.build(n)
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
			a.explicitMin = true
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
	n.num = newNumberRules(sch.Minimum, sch.Maximum, sch.ExclusiveMinimum, sch.ExclusiveMaximum, sch.MultipleOf)
}

// intOr returns *p, or -1 when p is nil.
func intOr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// Compile compiles s (a schema compiled by jsonschema/v6, any draft). It
// never fails: parts using keywords outside the supported subset check as
// Unknown. A nil s gives a nil *Validator, whose Check answers Valid (a
// method without a schema accepts any params).
func Compile(s *jsonschema.Schema) *Validator {
	if s == nil {
		return nil
	}
	return CompileAll([]*jsonschema.Schema{s})[0]
}

// CompileAll compiles several schemas that share sub-schemas (compiled by
// one jsonschema.Compiler) into validators sharing the compiled nodes, in
// the order given. A nil schema gives a nil validator.
func CompileAll(schs []*jsonschema.Schema) []*Validator {
	c := &compiler{nodes: map[*jsonschema.Schema]*node{}}
	roots := make([]*node, len(schs))
	for i, s := range schs {
		if s != nil {
			roots[i] = c.node(s)
		}
	}
	markInPlaceCycles(c.all)
	finish(c.all)
	out := make([]*Validator, len(schs))
	for i, r := range roots {
		if r != nil {
			out[i] = newValidator(r)
		}
	}
	return out
}
