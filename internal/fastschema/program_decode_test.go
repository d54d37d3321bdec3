package fastschema_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

func TestARootDecodesOnlyTheNodesItReaches(t *testing.T) {
	locs, _, _, prog := projectProgram(t)
	examples := loadExamples(t)
	p, err := fastschema.Open(prog)
	require.NoError(t, err)
	require.Equal(t, len(locs), p.Len())
	decoded, all := fastschema.DecodedNodes(p)
	require.Zero(t, decoded, "Open decodes no node")
	_, err = p.Root(0)
	require.NoError(t, err)
	decoded, _ = fastschema.DecodedNodes(p)
	assert.Positive(t, decoded)
	assert.Less(t, decoded, all, "the first root reaches part of the program")
	vs := make([]*fastschema.Validator, p.Len())
	for i := range p.Len() {
		vs[i], err = p.Root(i)
		require.NoError(t, err)
	}
	roots, _ := fastschema.DecodedNodes(p)
	assert.Less(t, roots, all, "members' schemas wait for a value that reaches them")
	for _, v := range vs {
		for _, ex := range examples {
			v.Check(ex.data)
		}
		v.Exact() // walks, and so decodes, every node the root reaches
	}
	decoded, _ = fastschema.DecodedNodes(p)
	assert.Equal(t, all, decoded, "the roots together reach every node")
}

func TestAMemberSchemaIsDecodedWhenAValueFirstReachesIt(t *testing.T) {
	prog, err := fastschema.Encode([]*fastschema.Validator{fastschema.Compile(compileDoc(t, `{
		"type": "object",
		"properties": {
			"a": {"type": "string", "minLength": 2},
			"b": {"$ref": "#/$defs/B"}
		},
		"$defs": {"B": {"type": "object", "properties": {"c": {"type": "integer"}}, "required": ["c"]}}
	}`))})
	require.NoError(t, err)
	p, err := fastschema.Open(prog)
	require.NoError(t, err)
	v, err := p.Root(0)
	require.NoError(t, err)
	first, all := fastschema.DecodedNodes(p)
	assert.Equal(t, 1, first, "the object's schema alone: its members' schemas wait")
	assert.Equal(t, fastschema.Valid, v.Check([]byte(`{}`)))
	after, _ := fastschema.DecodedNodes(p)
	assert.Equal(t, first, after, "a value without members reaches no member's schema")
	assert.Equal(t, fastschema.Invalid, v.Check([]byte(`{"a":"x"}`)))
	withA, _ := fastschema.DecodedNodes(p)
	assert.Equal(t, first+1, withA, "a's schema, decoded when a value held a")
	assert.Equal(t, fastschema.Invalid, v.Check([]byte(`{"b":{"c":"no"}}`)))
	assert.Equal(t, fastschema.Valid, v.Check([]byte(`{"a":"xy","b":{"c":1}}`)))
	withB, _ := fastschema.DecodedNodes(p)
	assert.Equal(t, all, withB, "b's schema with the definition it refers to in place, then c's")
}

func TestADamagedMemberSchemaAnswersUnknownAndFailsTheRootsAfterIt(t *testing.T) {
	good, err := fastschema.Encode([]*fastschema.Validator{
		fastschema.Compile(compileDoc(t, `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"id":{"format":"uuid"}}}`)),
		fastschema.Compile(compileDoc(t, `{"type":"string"}`)),
	})
	require.NoError(t, err)
	require.Contains(t, good, "\x04uuid")
	p, err := fastschema.Open(strings.Replace(good, "\x04uuid", "\x04uuix", 1))
	require.NoError(t, err)
	v, err := p.Root(0)
	require.NoError(t, err, "the damage lies in a member's schema, not decoded with the root")
	assert.Equal(t, fastschema.Valid, v.Check([]byte(`{"other":1}`)))
	for range 2 {
		assert.Equal(t, fastschema.Unknown, v.Check([]byte(`{"id":"x"}`)), "the damaged schema leaves the answer to the caller's slow path")
	}
	_, err = p.Root(1)
	assert.ErrorContains(t, err, "unknown format", "a damaged program is not trusted further")
}

func TestConcurrentChecksDecodeEachMemberSchemaOnce(t *testing.T) {
	locs, compiled, _, prog := projectProgram(t)
	examples := loadExamples(t)
	p, err := fastschema.Open(prog)
	require.NoError(t, err)
	const workers = 8
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range p.Len() {
				i := (k + w*p.Len()/workers) % p.Len() // each worker starts elsewhere
				v, err := p.Root(i)
				if !assert.NoError(t, err) {
					return
				}
				for e := range examples {
					ex := examples[(e+w*len(examples)/workers)%len(examples)]
					if got, want := v.Check(ex.data), compiled[i].Check(ex.data); got != want {
						assert.Equal(t, want, got, "%s on %s", locs[i], ex.data)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestEachRootDecodedAloneAnswersAsItsValidator(t *testing.T) {
	locs, compiled, _, prog := projectProgram(t)
	examples := loadExamples(t)
	p, err := fastschema.Open(prog)
	require.NoError(t, err)
	// Last root first, so that shared nodes are first reached from
	// another root than in Decode.
	for i := len(locs) - 1; i >= 0; i-- {
		v, err := p.Root(i)
		require.NoError(t, err)
		again, err := p.Root(i)
		require.NoError(t, err)
		assert.Same(t, v, again, "a root is decoded once")
		assert.Equal(t, compiled[i].Exact(), v.Exact(), locs[i])
		for _, ex := range examples {
			require.Equal(t, compiled[i].Check(ex.data), v.Check(ex.data), "%s on %s", locs[i], ex.data)
		}
	}
}

func TestConcurrentFirstUsesOfARootGetOneValidator(t *testing.T) {
	_, _, _, prog := projectProgram(t)
	p, err := fastschema.Open(prog)
	require.NoError(t, err)
	const workers = 8
	got := make([][]*fastschema.Validator, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[w] = make([]*fastschema.Validator, p.Len())
			for k := range p.Len() {
				i := (k + w*p.Len()/workers) % p.Len() // each worker starts elsewhere
				v, err := p.Root(i)
				assert.NoError(t, err)
				v.Check([]byte(`{"a":1}`))
				got[w][i] = v
			}
		}()
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		for i := range got[0] {
			assert.Same(t, got[0][i], got[w][i], "root %d", i)
		}
	}
}

func TestRootRefusesAnIndexOutsideTheProgram(t *testing.T) {
	prog, err := fastschema.Encode([]*fastschema.Validator{fastschema.Compile(compileDoc(t, `{"type":"string"}`))})
	require.NoError(t, err)
	p, err := fastschema.Open(prog)
	require.NoError(t, err)
	for _, i := range []int{-1, 1} {
		v, err := p.Root(i)
		assert.Nil(t, v)
		assert.ErrorContains(t, err, "fastschema: no root")
	}
}

// damagedSecondRoot returns a program of two roots whose second one names
// a format no one knows, and the first one's schema.
func damagedSecondRoot(t *testing.T) string {
	t.Helper()
	good, err := fastschema.Encode([]*fastschema.Validator{
		fastschema.Compile(compileDoc(t, `{"type":"string"}`)),
		fastschema.Compile(compileDoc(t, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"uuid"}`)),
	})
	require.NoError(t, err)
	require.Contains(t, good, "\x04uuid")
	return strings.Replace(good, "\x04uuid", "\x04uuix", 1)
}

func TestADamagedRootFailsAtItsFirstUseAndLeavesTheRootsDecodedBefore(t *testing.T) {
	p, err := fastschema.Open(damagedSecondRoot(t))
	require.NoError(t, err, "the damage lies in a node, which Open does not read")
	first, err := p.Root(0)
	require.NoError(t, err)
	for range 2 {
		v, err := p.Root(1)
		assert.Nil(t, v)
		assert.ErrorContains(t, err, "unknown format")
	}
	again, err := p.Root(0)
	require.NoError(t, err)
	assert.Same(t, first, again)
	assert.Equal(t, fastschema.Valid, again.Check([]byte(`"x"`)))
	assert.Equal(t, fastschema.Invalid, again.Check([]byte(`1`)))
}

func TestAfterADamageRootsNotYetDecodedFail(t *testing.T) {
	p, err := fastschema.Open(damagedSecondRoot(t))
	require.NoError(t, err)
	_, err = p.Root(1)
	require.ErrorContains(t, err, "unknown format")
	v, err := p.Root(0)
	assert.Nil(t, v)
	assert.ErrorContains(t, err, "unknown format", "a damaged program is not trusted further")
	_, err = fastschema.Decode(damagedSecondRoot(t))
	assert.ErrorContains(t, err, "unknown format")
}

func TestOpenRefusesABrokenHeader(t *testing.T) {
	m := fastschema.ProgramMagic
	// The header: nodes, roots, each root's node index + 1, the offset
	// width, the offsets.
	for name, tc := range map[string]struct{ prog, want string }{
		"root out of range":         {m + "\x01\x01\x02\x01\x00" + "x", "node index out of range"},
		"offset width 0":            {m + "\x01\x01\x01\x00", "bad offset width"},
		"offset width 5":            {m + "\x01\x01\x01\x05\x00\x00\x00\x00\x00x", "bad offset width"},
		"offset table past the end": {m + "\x01\x01\x01\x02\x00", "offset table past the end"},
		"first offset not 0":        {m + "\x02\x01\x01\x01\x01\x02xyz", "offset of node 0 out of order"},
		"offsets out of order":      {m + "\x03\x01\x01\x01\x00\x02\x01xyz", "offset of node 2 out of order"},
		"offset past the end":       {m + "\x02\x01\x01\x01\x00\x05xy", "offset of node 1 out of order"},
		"trailing bytes":            {m + "\x00\x00\x01z", "trailing bytes"},
		"no offset width":           {m + "\x00\x00", "unexpected end"},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := fastschema.Open(tc.prog)
			assert.Nil(t, p)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "fastschema: damaged program at byte ")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// FuzzProgramDecodesOrFails feeds Open, Root and Decode damaged programs:
// none may panic or make Check loop, and a program Decode reads answers
// root by root exactly as it does whole.
func FuzzProgramDecodesOrFails(f *testing.F) {
	for _, tc := range keywordCases {
		prog, err := fastschema.Encode([]*fastschema.Validator{fastschema.Compile(compileDoc(f, tc.schema)), nil})
		require.NoError(f, err)
		f.Add(prog)
	}
	_, _, _, project := projectProgram(f)
	f.Add(project)
	inputs := [][]byte{[]byte(`{"a":[1,"x",{"b":null}],"type":"text"}`), []byte(`[1,2,2]`), []byte(`"abc"`), []byte(`12.5`), []byte(`{}`)}
	f.Fuzz(func(t *testing.T, prog string) {
		whole, wholeErr := fastschema.Decode(prog)
		p, err := fastschema.Open(prog)
		if err != nil {
			require.Error(t, wholeErr, "Decode reads what Open refuses")
			return
		}
		for i := range p.Len() {
			v, err := p.Root(i)
			if wholeErr == nil {
				require.NoError(t, err, "root %d of a program Decode reads", i)
			}
			if err != nil || v == nil {
				continue
			}
			for _, in := range inputs {
				got := v.Check(in)
				if wholeErr == nil {
					require.Equal(t, whole[i].Check(in), got, "root %d on %s", i, in)
				}
			}
		}
	})
}
