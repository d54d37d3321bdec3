package harness_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

const listOutput = `Server scenarios (test against a server):
  - server-initialize [2025-06-18,2025-11-25]
  - ping [2025-06-18,2025-11-25]
  - json-schema-2020-12 [2025-11-25]
  - server-sse-polling [2025-11-25]

Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
  - tools_call [2025-06-18,2025-11-25]
`

func TestParseServerScenariosTakesOnlyTheServerSection(t *testing.T) {
	got := harness.ParseServerScenarios([]byte(listOutput))
	assert.Equal(t, []string{"server-initialize", "ping", "json-schema-2020-12", "server-sse-polling"}, got)
}

func TestParseServerScenariosOfUnrelatedOutputIsEmpty(t *testing.T) {
	assert.Empty(t, harness.ParseServerScenarios([]byte("SyntaxError: The requested module 'fs' does not provide an export named 'globSync'\n")))
}

func TestExpectedScenariosPerSuite(t *testing.T) {
	known := []string{"server-initialize", "ping", "json-schema-2020-12", "server-sse-polling"}
	tests := []struct {
		suite string
		want  []string
	}{
		{"all", known},
		{"active", []string{"server-initialize", "ping"}},
		{"pending", nil},
	}
	for _, tt := range tests {
		t.Run(tt.suite, func(t *testing.T) {
			assert.Equal(t, tt.want, harness.Expected(tt.suite, known))
		})
	}
}
