package gen

import (
	"sort"

	"github.com/dave/jennifer/jen"
)

// factsFunc names the function that hands out a service's method facts.
func factsFunc(svc string) string { return svc + "MethodFacts" }

// factsVar names the variable that holds one method's facts.
func factsVar(m *method) string { return "methodFacts" + m.stem }

// methodFacts renders <Service>MethodFacts (rpc.MethodFacts of every
// method: whether it is a notification, the types its result may be, their
// members, its extension members) into f. The facts are package-level values the compiler lays
// out statically, so a package that never asks costs nothing at start-up.
func (e *emitter) methodFacts(f *jen.File) {
	if len(e.svc.methods) == 0 {
		return
	}
	name := factsFunc(e.svc.name)
	f.Line()
	comment(f, name+" returns what the schema says of a method of the "+e.svc.name+" service beyond its Go types: whether it is a notification, the types its result may be, their members, and the extension (x-) members of its entry in the method index; false for a method the service does not have.", false)
	f.Func().Id(name).Params(jen.Id("method").String()).Params(jen.Qual(rpcPath, "MethodFacts"), jen.Bool()).Block(
		jen.Switch(jen.Id("method")).BlockFunc(func(g *jen.Group) {
			for _, m := range e.svc.methods {
				g.Case(jen.Id("Method" + m.stem)).Block(jen.Return(jen.Id(factsVar(m)), jen.True()))
			}
		}),
		jen.Return(jen.Qual(rpcPath, "MethodFacts").Values(), jen.False()),
	)
	f.Line()
	f.Var().DefsFunc(func(g *jen.Group) {
		for _, m := range e.svc.methods {
			results, members := resultFacts(m)
			g.Id(factsVar(m)).Op("=").Qual(rpcPath, "MethodFacts").ValuesFunc(func(v *jen.Group) {
				if m.notification {
					v.Line().Id("Notification").Op(":").True()
				}
				if len(results) > 0 {
					v.Line().Id("Results").Op(":").Index().String().Values(lits(results)...)
				}
				if len(members) > 0 {
					v.Line().Id("ResultMembers").Op(":").Index().String().Values(lits(members)...)
				}
				if len(m.extensions) > 0 {
					exts := append([]extension(nil), m.extensions...)
					sort.Slice(exts, func(i, j int) bool { return exts[i].name < exts[j].name })
					v.Line().Id("Extensions").Op(":").Index().Qual(rpcPath, "MethodExtension").ValuesFunc(func(x *jen.Group) {
						for _, ext := range exts {
							x.Line().Values(jen.Id("Name").Op(":").Lit(ext.name), jen.Id("Value").Op(":").Lit(ext.value))
						}
						x.Line()
					})
				}
				if m.notification || len(results)+len(members)+len(m.extensions) > 0 {
					v.Line()
				}
			})
		}
	})
}

// resultFacts returns the generated types a method's result may be (its
// own type, or each variant of a union, then the alternatives) and the
// sorted member names those that are structs declare.
func resultFacts(m *method) (results, members []string) {
	if m.notification {
		return nil, nil
	}
	seenType, seenMember := map[string]bool{}, map[string]bool{}
	var visit func(t *namedType)
	visit = func(t *namedType) {
		switch t.kind {
		case namedUnion:
			for _, v := range t.union.variants {
				visit(v.typ)
			}
			return
		case namedAlias, namedDefined:
			if u := t.underlying; u.kind == refNamed && u.named != nil {
				visit(u.named)
				return
			}
		}
		if seenType[t.name] {
			return
		}
		seenType[t.name] = true
		results = append(results, t.name)
		if t.kind == namedStruct {
			for _, fl := range t.fields {
				if !seenMember[fl.jsonName] {
					seenMember[fl.jsonName] = true
					members = append(members, fl.jsonName)
				}
			}
		}
	}
	for _, t := range append([]typeRef{m.result}, m.altResults...) {
		if t.kind == refNamed && t.named != nil {
			visit(t.named)
		}
	}
	sort.Strings(members)
	return results, members
}

// lits returns the literals of ss.
func lits(ss []string) []jen.Code {
	out := make([]jen.Code, len(ss))
	for i, s := range ss {
		out[i] = jen.Lit(s)
	}
	return out
}
