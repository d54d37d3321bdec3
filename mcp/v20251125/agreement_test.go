package v20251125_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
)

// example is one instance of the published example corpus, or a mutation
// of one.
type example struct {
	name string // folder/file, plus the mutation
	def  string // the definition it is checked against
	doc  any
}

// examples returns every published example whose definition both schemas
// have, followed by mutated copies: every member, at any depth, removed in
// turn and replaced by a value of another JSON type.
func examples(t *testing.T, dir string, has func(string) bool) (originals, mutants []example) {
	t.Helper()
	folders, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, folder := range folders {
		if !folder.IsDir() || !has(folder.Name()) {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, folder.Name(), "*.json"))
		require.NoError(t, err)
		for _, file := range files {
			f, err := os.Open(file)
			require.NoError(t, err)
			doc, err := jsonschema.UnmarshalJSON(f)
			f.Close()
			require.NoError(t, err, file)
			name := folder.Name() + "/" + filepath.Base(file)
			originals = append(originals, example{name, folder.Name(), doc})
			mcpcheck.Mutate(doc, "", func(what string, m any) {
				mutants = append(mutants, example{name + " " + what, folder.Name(), m})
			})
		}
	}
	return originals, mutants
}

// verdict reports whether sch accepts doc.
func verdict(t *testing.T, sch *jsonschema.Schema, doc any) bool {
	t.Helper()
	return sch.Validate(doc) == nil
}

func TestOurSchemaAgreesWithThePublishedOneOnTheExamples(t *testing.T) {
	p, specDir := published(t)
	dir := examplesDir(specDir)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no example corpus at %s: %v", dir, err)
	}
	o := ours(t)
	both := func(def string) bool { return o.HasDef(def) && p.HasDef(def) }
	originals, mutants := examples(t, dir, both)
	require.NotEmpty(t, originals, "no example names a definition both schemas have")

	agree := 0
	for _, set := range [][]example{originals, mutants} {
		for _, ex := range set {
			ourSch, err := o.Def(ex.def)
			require.NoError(t, err)
			theirSch, err := p.Def(ex.def)
			require.NoError(t, err)
			ourVerdict, theirVerdict := verdict(t, ourSch, ex.doc), verdict(t, theirSch, ex.doc)
			if assert.Equal(t, theirVerdict, ourVerdict, "%s: published accepts=%v, ours accepts=%v", ex.name, theirVerdict, ourVerdict) {
				agree++
			}
		}
	}
	t.Logf("%d published examples and %d mutants over %d definitions: %d verdicts agree", len(originals), len(mutants), countDefs(originals), agree)
}

func countDefs(exs []example) int {
	seen := map[string]bool{}
	for _, ex := range exs {
		seen[ex.def] = true
	}
	return len(seen)
}
