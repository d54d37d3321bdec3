package fastschema_test

import (
	"errors"
	"io/fs"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// lookupIn serves docs to a JSONCompiler, counting the reads of each.
func lookupIn(docs map[string][]byte, reads map[string]int) func(string) ([]byte, error) {
	var mu sync.Mutex
	return func(u string) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		reads[u]++
		if b, ok := docs[u]; ok {
			return b, nil
		}
		return nil, fs.ErrNotExist
	}
}

func TestAJSONCompilerMakesTheProgramOfAllLocationsAsTheLibraryDoes(t *testing.T) {
	p := loadProject(t)
	docs := projectDocs(t)
	reads := map[string]int{}
	jc, err := fastschema.NewJSONCompiler(lookupIn(docs, reads), fastschema.Draft2020)
	require.NoError(t, err)
	locs := p.locations()
	own := make([]*fastschema.Validator, len(locs))
	for i, l := range locs {
		own[i], err = jc.Compile(l)
		require.NoError(t, err, l)
	}
	// The same nodes shared the same way: one program, byte for byte.
	_, _, _, want := projectProgram(t)
	got, err := fastschema.Encode(own)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	for u, n := range reads {
		assert.Equal(t, 1, n, "document %s read more than once", u)
	}
	again, err := jc.Compile(locs[0])
	require.NoError(t, err)
	assert.Same(t, own[0], again, "a location compiles once")
}

func TestAJSONCompilerKeepsAFailureAndForgetsItsHalfMadeNodes(t *testing.T) {
	const u = "mem:///set.json"
	docs := map[string][]byte{u: []byte(`{
		"$defs": {
			"bad":  {"properties": {"a": {"$ref": "#/$defs/gone"}}},
			"uses": {"properties": {"b": {"$ref": "#/$defs/bad"}}},
			"good": {"properties": {"c": {"type": "string"}}}
		}
	}`)}
	jc, err := fastschema.NewJSONCompiler(lookupIn(docs, map[string]int{}), fastschema.Draft2020)
	require.NoError(t, err)
	_, err = jc.Compile(u + "#/$defs/bad")
	var se *fastschema.SchemaError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, u+"#/$defs/bad/properties/a/$ref", se.Location)
	_, again := jc.Compile(u + "#/$defs/bad")
	assert.Same(t, err, again, "the failure is kept")
	// A location reaching the failed schema fails the same way, not with
	// a node left half made by the first attempt.
	_, err = jc.Compile(u + "#/$defs/uses")
	require.ErrorAs(t, err, &se)
	assert.Equal(t, u+"#/$defs/bad/properties/a/$ref", se.Location)
	good, err := jc.Compile(u + "#/$defs/good")
	require.NoError(t, err)
	assert.Equal(t, fastschema.Invalid, good.Check([]byte(`{"c": 1}`)))
	assert.Equal(t, fastschema.Valid, good.Check([]byte(`{"c": "x"}`)))
}

func TestAJSONCompilerRefusesBadArguments(t *testing.T) {
	_, err := fastschema.NewJSONCompiler(func(string) ([]byte, error) { return nil, fs.ErrNotExist }, 5)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "default draft 5")
	jc, err := fastschema.NewJSONCompiler(func(string) ([]byte, error) { return nil, fs.ErrNotExist }, fastschema.Draft7)
	require.NoError(t, err)
	_, err = jc.Compile("mem:///absent.json")
	var se *fastschema.SchemaError
	require.True(t, errors.As(err, &se))
	assert.Contains(t, se.Reason, "not among the schema documents")
}

func TestAJSONCompilerReportsADocumentItCannotReadAsUnreadableNotMissing(t *testing.T) {
	broken := errors.New("disk on fire")
	docs := func(u string) ([]byte, error) {
		switch u {
		case "mem:///custom.json":
			return []byte(`{"$schema": "mem:///meta.json", "type": "string"}`), nil
		case "mem:///missing-meta.json":
			return []byte(`{"$schema": "mem:///nowhere.json"}`), nil
		case "mem:///unreadable.json", "mem:///meta.json":
			return nil, broken
		}
		return nil, fs.ErrNotExist
	}
	for _, tc := range []struct{ location, want string }{
		{"mem:///unreadable.json", "the document cannot be read: disk on fire"},
		{"mem:///custom.json", "the document cannot be read: disk on fire"},
		{"mem:///absent.json", "not among the schema documents"},
		{"mem:///missing-meta.json", "neither a draft's URL nor among the schema documents"},
	} {
		jc, err := fastschema.NewJSONCompiler(docs, fastschema.Draft2020)
		require.NoError(t, err)
		_, err = jc.Compile(tc.location)
		var se *fastschema.SchemaError
		require.True(t, errors.As(err, &se), "%s: %v", tc.location, err)
		assert.Contains(t, se.Error(), tc.want, tc.location)
	}
}

func TestAJSONCompilerIsSafeForConcurrentUse(t *testing.T) {
	docs := projectDocs(t)
	jc, err := fastschema.NewJSONCompiler(lookupIn(docs, map[string]int{}), fastschema.Draft2020)
	require.NoError(t, err)
	locs := loadProject(t).locations()
	var wg sync.WaitGroup
	got := make([][]*fastschema.Validator, 4)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, l := range locs {
				v, err := jc.Compile(l)
				assert.NoError(t, err)
				got[g] = append(got[g], v)
			}
		}()
	}
	wg.Wait()
	for g := 1; g < len(got); g++ {
		assert.Equal(t, got[0], got[g])
	}
}
