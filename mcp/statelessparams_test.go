package mcp

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestScanStatelessParamsReadsTheProtocolsMembersInOnePass(t *testing.T) {
	var p statelessParams
	scanStatelessParamsOf(walk([]byte(`{"name":"t","arguments":{"a":1},"_meta":{"k":1},"uri":"u","inputResponses":{"x":{}},"requestState":"s","other":[1,2]}`)), &p, nil)
	assert.True(t, p.object)
	assert.Equal(t, `{"k":1}`, string(p.meta()))
	assert.Equal(t, `{"a":1}`, string(p.args()))
	assert.Equal(t, `{"x":{}}`, string(p.inputs()))
	assert.Equal(t, `"s"`, string(p.state()))
	assert.Equal(t, uint8(2), p.ntargets)
	assert.Equal(t, "name", p.targetName(0))
	assert.Equal(t, `"t"`, string(p.value(p.targets[0])))
	assert.Equal(t, "uri", p.targetName(1))
	assert.Equal(t, `"u"`, string(p.value(p.targets[1])))
}

func TestScanStatelessParamsTellsWhatIsNotAWellFormedObject(t *testing.T) {
	for _, params := range []string{``, `null`, `[1]`, `"x"`, `{"name":"a",`, `{"name":"a","uri":"b","name":"c"}`} {
		var p statelessParams
		scanStatelessParamsOf(walk([]byte(params)), &p, nil)
		assert.False(t, p.object, "%s", params)
	}
	var p statelessParams
	scanStatelessParamsOf(walk([]byte(`{}`)), &p, nil)
	assert.True(t, p.object)
	assert.Nil(t, p.meta(), "an absent member is nil")
}

func TestScanStatelessParamsKeepsTheFirstMeta(t *testing.T) {
	var p statelessParams
	scanStatelessParamsOf(walk([]byte(`{"_meta":{"a":1},"_meta":{"b":2}}`)), &p, nil)
	assert.Equal(t, `{"a":1}`, string(p.meta()), "as jsonscan.Member finds it")
}

func TestScanStatelessParamsReadsTheProtocolsMetaMembers(t *testing.T) {
	var p statelessParams
	scanStatelessParamsOf(walk([]byte(`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"a","io.modelcontextprotocol/clientCapabilities":{},"x":1,"io.modelcontextprotocol/logLevel":"info","io.modelcontextprotocol/protocolVersion":"b"}}`)), &p, nil)
	assert.True(t, p.metaObject)
	assert.Equal(t, `"b"`, string(p.version()), "the last of a name, as admission read it")
	assert.Equal(t, `{}`, string(p.caps()))
	assert.Equal(t, `"info"`, string(p.level()))

	for _, params := range []string{`{"_meta":null}`, `{"_meta":[1]}`, `{"name":"t"}`} {
		var p statelessParams
		scanStatelessParamsOf(walk([]byte(params)), &p, nil)
		assert.False(t, p.metaObject, "%s", params)
		assert.Nil(t, p.version(), "%s", params)
	}
}

func TestScanStatelessRequestTellsAStatelessRequestByItsMeta(t *testing.T) {
	for _, tc := range []struct {
		params    string
		stateless bool
	}{
		{`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, true},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":1}}`, true},
		{`{"_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28"}}`, true}, // names are read as a decoder reads them
		{`{"\u005fmeta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, true},
		{`{"name":"io.modelcontextprotocol/protocolVersion"}`, false},
		{`{"_meta":{"k":"io.modelcontextprotocol/protocolVersion"}}`, false},
		{`{"_meta":{"progressToken":1}}`, false},
		{`{"name":"t\n","arguments":{}}`, false},
		{`{"name":"t","arguments":{}}`, false},
		{`{"arguments":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, false},
		{``, false},
	} {
		var p statelessParams
		assert.Equal(t, tc.stateless, scanStatelessRequest([]byte(tc.params), &p, nil), "%s", tc.params)
		if tc.params == "" {
			continue
		}
		// Read with its message, the request is told by the reader's list
		// of its members: the same answer.
		req, _, rerr := rpc.ParseRequest([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + tc.params + `}`))
		require.Nil(t, rerr, tc.params)
		_, listed := req.IndexedParams()
		require.True(t, listed, tc.params)
		var q statelessParams
		assert.Equal(t, tc.stateless, scanStatelessRequestOf(req, &q, nil), "listed: %s", tc.params)
	}
}

func TestStatelessVersionDecodesTheVersionARequestNames(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
		ok        bool
	}{
		{`"2026-07-28"`, "2026-07-28", true},
		{`"2026\u002d07-28"`, "2026-07-28", true},
		{`"1999-01-01"`, "1999-01-01", true},
		{`20260728`, "", false},
		{`"unterminated`, "", false},
	} {
		got, ok := statelessVersion([]byte(tc.raw))
		assert.Equal(t, tc.ok, ok, tc.raw)
		assert.Equal(t, tc.want, got, tc.raw)
	}
	assert.Zero(t, testing.AllocsPerRun(10, func() { statelessVersion([]byte(`"2026-07-28"`)) }), "a version the server knows is not copied")
}

func TestAStatelessCallFitsTheRuntimesSmallestAllocationsWithoutAHeader(t *testing.T) {
	assert.LessOrEqual(t, unsafe.Sizeof(statelessCall{}), uintptr(512),
		"past 512 bytes each stateless call's allocation takes the runtime's slower path, with a header")
}

// TestScanStatelessParamsReadsTheReadersListAsItReadsTheParams pins that
// params taken from the list the message's reader made of their members
// (rpc.Request.IndexedParams) scan as the walk of their bytes does, with
// and without the server's remembered _meta.
func TestScanStatelessParamsReadsTheReadersListAsItReadsTheParams(t *testing.T) {
	const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}`
	s := NewServer(&Implementation{Name: "s", Version: "1"}, nil)
	_, err := s.admitStateless(&rpc.Request{Method: "tools/list", Params: []byte(`{"_meta":` + meta + `}`)}, nil)
	require.NoError(t, err) // the server now remembers meta
	for _, params := range []string{
		`{"name":"t","arguments":{"a":1},"_meta":` + meta + `}`,
		`{ "_meta" : ` + meta + ` , "uri" : "file:///x" }`,
		`{"n\u0061me":"t","\u005fmeta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"requestState":"s","inputResponses":{"q":{}}}`,
		`{"name":"t","uri":"u","arguments":{},"other":[1,{"name":"x"}],"_meta":{}}`,
		`{}`,
		`{"arguments":{"_meta":` + meta + `}}`,
	} {
		req, _, rerr := rpc.ParseRequest([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`))
		require.Nil(t, rerr, params)
		_, listed := req.IndexedParams()
		require.True(t, listed, params)
		for _, memo := range []*metaMemo{nil, &s.metaMemo} {
			var walked, read statelessParams
			scanStatelessParamsOf(walk(req.Params), &walked, memo)
			scanStatelessParamsOf(req, &read, memo)
			assert.Equal(t, walked, read, "%s (memo %v)", params, memo != nil)
		}
	}
}

func TestScanStatelessParamsReadsMemberNamesWithoutCopyingThem(t *testing.T) {
	params := []byte(`{"aMemberNameLongerThanThirtyTwoBytesAndThenSome":1,"name":"t","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`)
	var p statelessParams
	assert.Zero(t, testing.AllocsPerRun(20, func() { scanStatelessParamsOf(walk(params), &p, nil) }))
	assert.Equal(t, `"t"`, string(p.value(p.targets[0])))
	assert.Equal(t, `{}`, string(p.args()))
	assert.NotNil(t, p.version())
	// An escaped name is decoded (and only it copied): \u0061 is a.
	scanStatelessParamsOf(walk([]byte(`{"\u0061rguments":[1],"n\u0061me":"u"}`)), &p, nil)
	assert.Equal(t, `[1]`, string(p.args()))
	assert.Equal(t, `"u"`, string(p.value(p.targets[0])))
	// A name whose escape does not decode is none of the protocol's.
	scanStatelessParamsOf(walk([]byte(`{"n\u00zzme":"u"}`)), &p, nil)
	assert.Zero(t, p.ntargets)
}

// walk is a request made of params alone, with no list of their members
// (rpc.Request.IndexedParams): the stateless scans walk its params.
func walk(params []byte) *rpc.Request { return &rpc.Request{Params: params} }
