package harness_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// requirementsOutput is the shape of `conformance list --requirements 2026-07-28`
// (0.2.0-alpha.12), shortened.
const requirementsOutput = `Required for 2026-07-28 (69 scenarios, frozen; run at the 2026-07-28 wire):

Server scenarios (test against a server):
  - server-stateless
  - tools-list
  - caching

Client scenarios (test against a client):
  - tools_call
  - request-metadata

Run and reported, but never scored:
  extension (16):
    - auth/dpop [client]
    - tasks-lifecycle [server]
    - tasks-mrtr-composition [server]
  added-after-release (1):
    - json-schema-2020-12-preservation [client]
  pending (3):
    - json-schema-2020-12 [server]
    - http-header-validation [server]
`

func TestParseRequirementsSplitsScoredAndUnscoredServerScenarios(t *testing.T) {
	got := harness.ParseRequirements([]byte(requirementsOutput))
	assert.Equal(t, []string{"server-stateless", "tools-list", "caching"}, got.Scored)
	assert.Equal(t, []string{"tasks-lifecycle", "tasks-mrtr-composition", "json-schema-2020-12", "http-header-validation"}, got.Unscored)
	assert.Equal(t, append(got.Scored, got.Unscored...), got.All())
	assert.True(t, got.IsScored("caching"))
	assert.False(t, got.IsScored("tasks-lifecycle"))
}

func TestParseRequirementsOfUnrelatedOutputIsEmpty(t *testing.T) {
	got := harness.ParseRequirements([]byte("error: option '--requirements <revision>' argument missing\n"))
	assert.Empty(t, got.Scored)
	assert.Empty(t, got.Unscored)
}

func TestRequirementsAllDoesNotAliasScored(t *testing.T) {
	req := harness.Requirements{Scored: make([]string, 1, 4), Unscored: []string{"x"}}
	req.Scored[0] = "a"
	all := req.All()
	all[0] = "changed"
	assert.Equal(t, "a", req.Scored[0])
}
