package rpc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestMethodFactsAnswerFromWhatTheSchemaDeclared(t *testing.T) {
	f := rpc.MethodFacts{
		Results:       []string{"Done", "Waiting"},
		ResultMembers: []string{"output", "status"},
		Extensions:    []rpc.MethodExtension{{Name: "x-capability", Value: `"jobs"`}},
	}
	ext, ok := f.Extension("x-capability")
	assert.True(t, ok)
	assert.Equal(t, `"jobs"`, ext)
	_, ok = f.Extension("x-other")
	assert.False(t, ok, "an extension the method does not declare")
	assert.True(t, f.HasResult("Waiting"))
	assert.False(t, f.HasResult("Failed"))
	assert.True(t, f.HasResultMember("status"))
	assert.False(t, f.HasResultMember("ttlMs"))

	var none rpc.MethodFacts
	_, ok = none.Extension("x-capability")
	assert.False(t, ok, "the facts of a method that declares nothing")
	assert.False(t, none.HasResult("Done"))
	assert.False(t, none.HasResultMember("status"))
}
