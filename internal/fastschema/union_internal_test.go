package fastschema

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/schema"
)

// compileProject compiles one location of the project's schema tree.
func compileProject(t *testing.T, loc string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	err := fs.WalkDir(schema.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(schema.FS, p)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
		if err != nil {
			return err
		}
		return c.AddResource(schema.BaseURL+p, doc)
	})
	require.NoError(t, err)
	sch, err := c.Compile(loc)
	require.NoError(t, err)
	return sch
}

func TestContentBlocksAreCheckedAsADiscriminatedUnion(t *testing.T) {
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		v := Compile(compileProject(t, schema.BaseURL+"mcp/"+version+"/common.json#/$defs/ContentBlock"))
		u := v.root.anyUnion
		require.NotNil(t, u, version)
		require.Equal(t, "type", u.member)
		require.ElementsMatch(t, []string{"text", "image", "audio", "resource_link", "resource"}, u.values)
	}
}

func TestUnionNeedsDistinctRequiredConstants(t *testing.T) {
	for doc, want := range map[string]bool{
		// the member is optional in one alternative
		`{"anyOf":[{"type":"object","properties":{"k":{"const":"a"}},"required":["k"]},{"type":"object","properties":{"k":{"const":"b"}}}]}`: false,
		// the same constant twice
		`{"oneOf":[{"type":"object","properties":{"k":{"const":"a"}},"required":["k"]},{"type":"object","properties":{"k":{"const":"a"}},"required":["k"]}]}`: false,
		// an alternative that is not only for objects
		`{"anyOf":[{"properties":{"k":{"const":"a"}},"required":["k"]},{"type":"object","properties":{"k":{"const":"b"}},"required":["k"]}]}`: false,
		// one-string enums count as constants
		`{"oneOf":[{"type":"object","properties":{"k":{"enum":["a"]}},"required":["k"]},{"type":"object","properties":{"k":{"const":"b"}},"required":["k"]}]}`: true,
	} {
		c := jsonschema.NewCompiler()
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		require.NoError(t, err)
		require.NoError(t, c.AddResource("mem:///u.json", v))
		sch, err := c.Compile("mem:///u.json")
		require.NoError(t, err)
		n := Compile(sch).root
		got := n.anyUnion != nil || n.oneUnion != nil
		require.Equal(t, want, got, doc)
	}
}
