package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

func (c *converter) convertEnum(n, e *node, schemaAt loc, name string, into *namedType, types []string, nullable bool) (conv, bool) {
	at := schemaAt.at("enum")
	if e.kind != kindArray || len(e.items) == 0 {
		c.p.add(at, "enum must be a non-empty list")
		return conv{t: raw}, false
	}
	var values []*node
	kinds := map[nodeKind]bool{}
	for _, v := range e.items {
		if v.kind == kindNull {
			nullable = true
			continue
		}
		values = append(values, v)
		kinds[v.kind] = true
	}
	var vals []string
	for _, v := range values {
		vals = append(vals, nodeJSON(v))
	}
	switch {
	case len(values) == 0:
		return conv{t: raw, note: "Always null."}, true
	case len(kinds) > 1:
		return conv{t: raw, nullable: nullable, note: "One of " + strings.Join(vals, ", ") + "."}, true
	}
	want := map[nodeKind]string{kindString: "string", kindNumber: "number", kindBool: "boolean"}[values[0].kind]
	if want == "" {
		// Objects or arrays: the Go type cannot say more than raw JSON.
		return conv{t: raw, nullable: nullable, note: "One of " + strings.Join(vals, ", ") + "."}, true
	}
	if len(types) > 1 || len(types) == 1 && types[0] != want && !(want == "number" && types[0] == "integer") {
		c.p.add(at, "enum values are %ss but type says %s", want, strings.Join(types, ", "))
		return conv{t: raw}, false
	}
	if values[0].kind != kindString {
		t := basic("bool")
		if want == "number" {
			t = basic("float64")
			if len(types) == 1 && types[0] == "integer" || allIntegers(values) && len(types) == 0 {
				t = basic("int64")
			}
		}
		return conv{t: t, nullable: nullable, note: "One of " + strings.Join(vals, ", ") + "."}, true
	}
	nt, claimed := c.named(into, n, name, schemaAt)
	if !claimed {
		return conv{t: raw}, false
	}
	nt.kind = namedEnum
	ok := true
	seen := map[string]int{}
	words := wordCaseEnum(e.items)
	for i, v := range e.items {
		if v.kind == kindNull {
			continue
		}
		vat := at.at(fmt.Sprint(i))
		suffix := c.namer.enumSuffix(v.str)
		if words {
			suffix = c.namer.enumSuffix(strings.ToLower(v.str))
		}
		if suffix == "" && c.cfg.Renames[vat.String()] == "" {
			c.p.add(vat, "enum value %q gives no Go identifier; name its constant in the config (renames: %q: \"Name\")", v.str, vat.String())
			ok = false
			continue
		}
		if j, dup := seen[suffix]; dup && suffix != "" {
			c.p.add(vat, "enum value %q gives the constant name %s%s, like value %q at %s; rename one in the config (renames: %q: \"Name\")", v.str, nt.name, suffix, e.items[j].str, at.at(fmt.Sprint(j)), vat.String())
			ok = false
			continue
		}
		seen[suffix] = i
		constName := c.rename(nt.name+suffix, vat)
		if !c.claim(constName, vat) {
			ok = false
			continue
		}
		nt.enum = append(nt.enum, enumValue{name: constName, value: v.str})
	}
	return conv{t: typeRef{kind: refNamed, named: nt}, nullable: nullable}, ok
}

func allIntegers(values []*node) bool {
	for _, v := range values {
		if _, ok := v.int64(); !ok {
			return false
		}
	}
	return true
}

func (c *converter) convertConst(k *node, at loc, types []string, nullable bool) (conv, bool) {
	note := "Always " + nodeJSON(k) + "."
	switch k.kind {
	case kindString:
		return conv{t: basic("string"), nullable: nullable, note: note}, true
	case kindBool:
		return conv{t: basic("bool"), nullable: nullable, note: note}, true
	case kindNumber:
		if _, isInt := k.int64(); isInt && !(len(types) == 1 && types[0] == "number") {
			return conv{t: basic("int64"), nullable: nullable, note: note}, true
		}
		return conv{t: basic("float64"), nullable: nullable, note: note}, true
	}
	// null, an object or an array: only raw JSON holds it exactly.
	return conv{t: raw, nullable: nullable, note: note}, true
}

// stringConsts returns the string values a property schema pins itself to
// with const or enum (following $refs), a pattern that matches one string
// only ("^0x2$"), or an allOf member that does one of these; nil when it
// pins none.
func (c *converter) stringConsts(n *node, at loc) []string {
	return c.stringConstsDepth(n, at, 0)
}

func (c *converter) stringConstsDepth(n *node, at loc, depth int) []string {
	if depth > 8 {
		return nil
	}
	// A chain of $refs that comes back on itself has no type: the
	// converter reports it where it meets it; here it pins nothing.
	seen := map[*node]bool{}
	for n != nil && n.kind == kindObject && n.get("$ref") != nil {
		if seen[n] {
			return nil
		}
		seen[n] = true
		t, tat, ok := c.refNode(n, at)
		if !ok {
			return nil
		}
		n, at = t, tat
	}
	if n == nil || n.kind != kindObject {
		return nil
	}
	if k := n.get("const"); k != nil {
		if k.kind == kindString {
			return []string{k.str}
		}
		return nil
	}
	e := n.get("enum")
	if e == nil || e.kind != kindArray || len(e.items) == 0 {
		if lit, ok := literalPattern(n.get("pattern")); ok {
			return []string{lit}
		}
		// allOf members each narrow the values: the values are those
		// every pinning member allows.
		var out []string
		if all := n.get("allOf"); all != nil && all.kind == kindArray {
			for i, m := range all.items {
				vals := c.stringConstsDepth(m, at.at("allOf", fmt.Sprint(i)), depth+1)
				switch {
				case vals == nil:
				case out == nil:
					out = vals
				default:
					out = slices.DeleteFunc(out, func(v string) bool { return !slices.Contains(vals, v) })
				}
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	var out []string
	for _, v := range e.items {
		if v.kind != kindString {
			return nil
		}
		out = append(out, v.str)
	}
	return out
}

// nodeJSON renders a JSON value compactly, members in their input order.
func nodeJSON(n *node) string {
	var b strings.Builder
	writeNodeJSON(&b, n)
	return b.String()
}

func writeNodeJSON(b *strings.Builder, n *node) {
	switch n.kind {
	case kindNull:
		b.WriteString("null")
	case kindBool:
		fmt.Fprint(b, n.boolean)
	case kindNumber:
		b.WriteString(n.number.String())
	case kindString:
		b.WriteString(jsonQuote(n.str))
	case kindArray:
		b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeNodeJSON(b, it)
		}
		b.WriteByte(']')
	case kindObject:
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonQuote(m.key))
			b.WriteByte(':')
			writeNodeJSON(b, m.val)
		}
		b.WriteByte('}')
	}
}

// jsonQuote writes s as a JSON string, without HTML escaping.
func jsonQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// literalPattern reads a pattern that matches exactly one string:
// anchored at both ends, with nothing but literal characters (a
// backslash-escaped punctuation character counts as the character).
func literalPattern(p *node) (string, bool) {
	if p == nil || p.kind != kindString || len(p.str) < 2 || p.str[0] != '^' || !strings.HasSuffix(p.str, "$") || strings.HasSuffix(p.str, "\\$") {
		return "", false
	}
	body := p.str[1 : len(p.str)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		ch := body[i]
		switch {
		case ch == '\\':
			if i+1 >= len(body) {
				return "", false
			}
			next := body[i+1]
			if !strings.ContainsRune(`.^$*+?()[]{}|\\/-`, rune(next)) {
				return "", false // \d, \w, \s… are classes, not literals
			}
			b.WriteByte(next)
			i++
		case strings.ContainsRune(`.^$*+?()[]{}|`, rune(ch)):
			return "", false
		default:
			b.WriteByte(ch)
		}
	}
	return b.String(), true
}

// wordCaseEnum reports whether the string values of an enum are written in
// upper case as words (RECEIVED beside PRE_CONFIRMED): then every constant
// is named from the words in one case (TxnStatusReceived,
// TxnStatusPreConfirmed) rather than a lone word kept in capitals beside
// words made MixedCaps. An enum of lone upper-case words only (GET, POST)
// keeps them as they are.
func wordCaseEnum(values []*node) bool {
	screaming, several := false, false
	for _, v := range values {
		if v.kind != kindString {
			continue
		}
		if strings.ToUpper(v.str) != v.str || !strings.ContainsFunc(v.str, unicode.IsLetter) {
			return false // lower-case letters: names come from the words as written
		}
		screaming = true
		if len(splitWords(v.str)) > 1 {
			several = true
		}
	}
	return screaming && several
}
