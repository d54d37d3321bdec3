package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// convertDraft07 converts the definitions of a draft-07 document the way a
// front end for MCP ≤ 2025-06-18 or OpenRPC would: dialect draft07, named
// schemas under /definitions.
func convertDraft07(t *testing.T, src string) (*converter, *problems) {
	t.Helper()
	root, err := parseJSON([]byte(src))
	require.NoError(t, err)
	doc := &document{rel: "schema.json", url: "https://example.test/schema.json", root: root, dialect: draft07, containers: []string{"/definitions"}}
	l := &loader{docs: map[string]*document{doc.rel: doc}, order: []*document{doc}, failed: map[string]bool{}}
	p := &problems{}
	c := newConverter(l, p, nil)
	for _, m := range root.get("definitions").members {
		c.namedAt(target{doc, pointerJoin("", "definitions", m.key)}, loc{doc, ""})
	}
	c.finish()
	return c, p
}

func findType(c *converter, name string) *namedType {
	for _, nt := range c.types {
		if nt.name == name {
			return nt
		}
	}
	return nil
}

func TestDraft07TuplesDefinitionsAndRefSiblings(t *testing.T) {
	c, p := convertDraft07(t, `{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"definitions": {
			"Pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "minItems": 1, "additionalItems": {"type": "boolean"}},
			"Ref": {"$ref": "#/definitions/Pair", "description": "annotations beside $ref", "type": "object"},
			"List": {"type": "array", "items": {"$ref": "#/definitions/Pair"}}
		}
	}`)
	require.Empty(t, p.list)
	pair := findType(c, "Pair")
	require.NotNil(t, pair)
	assert.Equal(t, namedTuple, pair.kind)
	require.Len(t, pair.fields, 2)
	assert.Equal(t, 1, pair.tuple.required)
	assert.Equal(t, "bool", pair.tuple.rest.basic)
	assert.True(t, pair.fields[1].typ.ptr, "an optional position is a pointer")
	ref := findType(c, "Ref")
	require.NotNil(t, ref)
	assert.Equal(t, namedAlias, ref.kind, "draft-07 ignores what stands beside $ref")
	assert.Equal(t, pair, ref.underlying.named)
	list := findType(c, "List")
	assert.Equal(t, refSlice, list.underlying.kind)
}

func TestDraft07RejectsPrefixItemsButReadsNestedDefinitions(t *testing.T) {
	_, p := convertDraft07(t, `{"definitions": {
		"A": {"type": "array", "prefixItems": [{"type": "string"}]},
		"B": {"type": "object", "definitions": {"C": {"type": "string"}}}
	}}`)
	require.Len(t, p.list, 1, "definitions nested in a schema are a container a $ref may point into")
	assert.Equal(t, "schema.json#/definitions/A/prefixItems: prefixItems is JSON Schema 2020-12; draft-07 writes a tuple as items: [...]", p.list[0].Error())
}

func TestKeepExtrasMakesOpenStructsKeepUnknownMembers(t *testing.T) {
	root, err := parseJSON([]byte(`{"definitions": {"R": {"type": "object", "properties": {"a": {"type": "string"}}}}}`))
	require.NoError(t, err)
	doc := &document{rel: "s.json", root: root, dialect: draft07, containers: []string{"/definitions"}}
	l := &loader{docs: map[string]*document{doc.rel: doc}, order: []*document{doc}, failed: map[string]bool{}}
	p := &problems{}
	c := newConverter(l, p, nil)
	c.keepExtras = true
	nt := c.namedAt(target{doc, "/definitions/R"}, loc{doc, ""})
	c.finish()
	require.Empty(t, p.list)
	require.NotNil(t, nt.extra)
	assert.Equal(t, refRaw, nt.extra.kind)
}

func TestDescriptionsLoseTypeDocLinks(t *testing.T) {
	for in, want := range map[string]string{
		"See {@link CallToolResult}.":              "See CallToolResult.",
		"See {@link CallToolResult the result}.":   "See the result.",
		"See {@linkcode Tool | tools} and {@link}": "See tools and {@link}",
		"{@linkplain https://x.test/a b c}":        "b c",
	} {
		assert.Equal(t, want, cleanDoc(in), in)
	}
}
