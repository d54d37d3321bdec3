package gen

// The published MCP schemas are generated from TypeScript, where a bare
// `number` became "integer" (mcp-protocol §8.3). Two places hold values
// that the TypeScript source lets be any number, and the Go types must not
// reject what real peers send. The embedded schema stays byte-for-byte the
// published file: these adjustments change only the generated Go types, and
// run-time validation still applies the schema as published.

// mcpRawDefinitions are definitions generated as json.RawMessage instead of
// from their schema: 2026-07-28's JSONValue (any JSON value, which its
// schema narrows to strings, integers, booleans, arrays and objects, so
// that 1.5 and null would not decode).
var mcpRawDefinitions = map[string]string{
	"JSONValue": "Kept as raw JSON, so that every JSON value decodes and re-encodes unchanged: the published schema allows only integer numbers and no null here, which the TypeScript source of MCP does not intend.",
}

// mcpNumberPatches are pointers (below the definitions container) of
// schemas whose "integer" is read as "number": ElicitResult.content values,
// string | number | boolean | string[] in the TypeScript source.
var mcpNumberPatches = []string{
	"/ElicitResult/properties/content/additionalProperties",
}

// mcpPatch applies both adjustments before any definition is converted.
func mcpPatch(c *converter, doc *document, container string, defs *node) {
	for _, name := range sortedKeys(mcpRawDefinitions) {
		def := defs.get(name)
		if def == nil {
			continue
		}
		ptr := pointerJoin("", container, name)
		origin := loc{doc, ptr}
		nt := &namedType{name: exportedName(name), origin: origin, kind: namedAlias, underlying: raw, note: mcpRawDefinitions[name]}
		nt.doc, nt.deprecated = annotations(def)
		if !c.claim(nt.name, origin) {
			continue
		}
		c.byTarget[doc.rel+"#"+ptr] = nt
		c.types = append(c.types, nt)
	}
	for _, rel := range mcpNumberPatches {
		if n, ok := defs.lookup(rel); ok {
			integersToNumbers(n)
		}
	}
}

// integersToNumbers rewrites "integer" to "number" in the type of a schema
// and of the branches of its anyOf.
func integersToNumbers(n *node) {
	if n.kind != kindObject {
		return
	}
	switch t := n.get("type"); {
	case t == nil:
	case t.kind == kindString && t.str == "integer":
		t.str = "number"
	case t.kind == kindArray:
		for _, it := range t.items {
			if it.kind == kindString && it.str == "integer" {
				it.str = "number"
			}
		}
	}
	if branches := n.get("anyOf"); branches != nil && branches.kind == kindArray {
		for _, b := range branches.items {
			integersToNumbers(b)
		}
	}
}
