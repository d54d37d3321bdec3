package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScanStatelessParamsReadsTheProtocolsMembersInOnePass(t *testing.T) {
	var p statelessParams
	scanStatelessParams([]byte(`{"name":"t","arguments":{"a":1},"_meta":{"k":1},"uri":"u","inputResponses":{"x":{}},"requestState":"s","other":[1,2]}`), &p)
	assert.True(t, p.object)
	assert.Equal(t, `{"k":1}`, string(p.meta))
	assert.Equal(t, `{"a":1}`, string(p.args))
	assert.Equal(t, `{"x":{}}`, string(p.inputs))
	assert.Equal(t, `"s"`, string(p.state))
	assert.Equal(t, 2, p.ntargets)
	assert.Equal(t, statelessTarget{"name", []byte(`"t"`)}, p.targets[0])
	assert.Equal(t, statelessTarget{"uri", []byte(`"u"`)}, p.targets[1])
}

func TestScanStatelessParamsTellsWhatIsNotAWellFormedObject(t *testing.T) {
	for _, params := range []string{``, `null`, `[1]`, `"x"`, `{"name":"a",`, `{"name":"a","uri":"b","name":"c"}`} {
		var p statelessParams
		scanStatelessParams([]byte(params), &p)
		assert.False(t, p.object, "%s", params)
	}
	var p statelessParams
	scanStatelessParams([]byte(`{}`), &p)
	assert.True(t, p.object)
	assert.Nil(t, p.meta, "an absent member is nil")
}

func TestScanStatelessParamsKeepsTheFirstMeta(t *testing.T) {
	var p statelessParams
	scanStatelessParams([]byte(`{"_meta":{"a":1},"_meta":{"b":2}}`), &p)
	assert.Equal(t, `{"a":1}`, string(p.meta), "as jsonscan.Member finds it")
}
