package rpc_test

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// countingFS counts the files opened or read in it.
type countingFS struct {
	fstest.MapFS
	opened map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.opened[name]++
	return c.MapFS.Open(name)
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	c.opened[name]++
	return c.MapFS.ReadFile(name)
}

func schemaFS() *countingFS {
	return &countingFS{opened: map[string]int{}, MapFS: fstest.MapFS{
		"v1/a.json":     {Data: []byte(`{"$ref": "b.json"}`)},
		"v1/b.json":     {Data: []byte(`{"type": "integer"}`)},
		"v1/notes.txt":  {Data: []byte(`not a schema`)},
		"other/c.json":  {Data: []byte(`{"type": "string"}`)},
		"v1/sub/d.json": {Data: []byte(`{"$ref": "../b.json"}`)},
	}}
}

func TestSchemaSetWithFSReadsDocumentsWhenACompileNeedsThem(t *testing.T) {
	fsys := schemaFS()
	set := rpc.NewSchemaSet(nil, rpc.WithFS(fsys, "https://schemarpc.dev/test/", "v1/a.json", "v1/b.json"))
	assert.Empty(t, fsys.opened, "making the set reads nothing")
	assert.Equal(t, []string{"https://schemarpc.dev/test/v1/a.json", "https://schemarpc.dev/test/v1/b.json"}, set.URLs())

	sch, err := set.Compile("https://schemarpc.dev/test/v1/a.json")
	require.NoError(t, err)
	assert.NoError(t, sch.Validate(1))
	assert.Error(t, sch.Validate("x"), "a.json refers to b.json, read from the file system too")
	assert.Equal(t, map[string]int{"v1/a.json": 1, "v1/b.json": 1}, fsys.opened)
}

func TestSchemaSetWithFSHoldsOnlyThePathsNamed(t *testing.T) {
	set := rpc.NewSchemaSet(nil, rpc.WithFS(schemaFS(), "https://schemarpc.dev/test/", "v1/a.json"))
	_, err := set.Compile("https://schemarpc.dev/test/v1/a.json")
	require.Error(t, err, "b.json is in the file system but not in the set")
	assert.Contains(t, err.Error(), "https://schemarpc.dev/test/v1/b.json")
}

func TestSchemaSetWithFSRefusesAPathMissingFromTheFileSystem(t *testing.T) {
	set := rpc.NewSchemaSet(nil, rpc.WithFS(schemaFS(), "https://schemarpc.dev/test/", "v1/gone.json"))
	assert.Equal(t, []string{"https://schemarpc.dev/test/v1/gone.json"}, set.URLs())
	_, err := set.Compile("https://schemarpc.dev/test/v1/gone.json")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "https://schemarpc.dev/test/v1/gone.json")
	assert.Contains(t, err.Error(), "not among the schema documents")
}

// brokenFS fails every read of a file with a permission error.
type brokenFS struct{ fstest.MapFS }

func (brokenFS) ReadFile(name string) ([]byte, error) {
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrPermission}
}

func TestSchemaSetWithFSReportsADocumentItCannotReadAsUnreadableNotMissing(t *testing.T) {
	fsys := brokenFS{fstest.MapFS{"v1/a.json": {Data: []byte(`{"type": "integer"}`)}}}
	set := rpc.NewSchemaSet(nil, rpc.WithFS(fsys, "https://schemarpc.dev/test/", "v1/a.json"))
	_, err := set.Compile("https://schemarpc.dev/test/v1/a.json")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "https://schemarpc.dev/test/v1/a.json")
	assert.Contains(t, err.Error(), "cannot be read")
	assert.Contains(t, err.Error(), "permission denied", "the read's own error")
	assert.NotContains(t, err.Error(), "not among the schema documents")
}

func TestSchemaSetWithFSKeepsTheTextsGivenFirst(t *testing.T) {
	set := rpc.NewSchemaSet(map[string]string{"https://schemarpc.dev/test/v1/b.json": `{"type": "string"}`},
		rpc.WithFS(schemaFS(), "https://schemarpc.dev/test/", "v1/a.json", "v1/b.json"))
	assert.Equal(t, []string{"https://schemarpc.dev/test/v1/a.json", "https://schemarpc.dev/test/v1/b.json"}, set.URLs())
	sch, err := set.Compile("https://schemarpc.dev/test/v1/a.json")
	require.NoError(t, err)
	assert.NoError(t, sch.Validate("x"), "b.json is the text given, not the file's")
}

func TestNewSchemaSetFSListsTheJSONFilesUnderRootAndReadsNone(t *testing.T) {
	fsys := schemaFS()
	set, err := rpc.NewSchemaSetFS(fsys, "v1", "https://schemarpc.dev/test/v1/")
	require.NoError(t, err)
	assert.Equal(t, []string{"https://schemarpc.dev/test/v1/a.json", "https://schemarpc.dev/test/v1/b.json", "https://schemarpc.dev/test/v1/sub/d.json"}, set.URLs())
	for name := range fsys.opened {
		assert.NotContains(t, name, ".json", "listing the files reads none of them")
	}
	sch, err := set.Compile("https://schemarpc.dev/test/v1/sub/d.json")
	require.NoError(t, err)
	assert.NoError(t, sch.Validate(1))

	all, err := rpc.NewSchemaSetFS(fsys, ".", "https://schemarpc.dev/test/")
	require.NoError(t, err)
	assert.Contains(t, all.URLs(), "https://schemarpc.dev/test/other/c.json")
}

func TestNewSchemaSetFSFailsOnARootItCannotList(t *testing.T) {
	for _, root := range []string{"missing", "../v1"} {
		_, err := rpc.NewSchemaSetFS(schemaFS(), root, "https://schemarpc.dev/test/")
		assert.Error(t, err, root)
	}
}
