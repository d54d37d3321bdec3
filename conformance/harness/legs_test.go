package harness_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func TestJudgeLeg(t *testing.T) {
	req := harness.Requirements{Scored: []string{"ping", "tools-list"}, Unscored: []string{"tasks-lifecycle", "json-schema-2020-12"}}
	optional := []harness.Expectation{{Scenario: "tasks-lifecycle", Optional: true, Reason: "optional"}}
	tests := []struct {
		name      string
		scenarios []harness.Scenario
		exit      int
		green     bool
		want      string // a verdict line that must be there
	}{
		{"everything passed, the optional extension failed", []harness.Scenario{
			scenario("ping", "SUCCESS"), scenario("tools-list", "SUCCESS"),
			scenario("tasks-lifecycle", "FAILURE"), scenario("json-schema-2020-12", "SUCCESS"),
		}, 0, true, "scenarios 3: 3 pass"},
		{"an unscored scenario failing is not green", []harness.Scenario{
			scenario("ping", "SUCCESS"), scenario("tools-list", "SUCCESS"),
			scenario("tasks-lifecycle", "SUCCESS"), scenario("json-schema-2020-12", "FAILURE"),
		}, 0, false, "FAIL  json-schema-2020-12"},
		{"a warning is not green", []harness.Scenario{
			scenario("ping", "SUCCESS"), scenario("tools-list", "SUCCESS", "WARNING"),
			scenario("tasks-lifecycle", "SUCCESS"), scenario("json-schema-2020-12", "SUCCESS"),
		}, 0, false, "WARN  tools-list"},
		{"a skipped check is not green", []harness.Scenario{
			scenario("ping", "SUCCESS"), scenario("tools-list", "SUCCESS", "SKIPPED"),
			scenario("tasks-lifecycle", "SUCCESS"), scenario("json-schema-2020-12", "SUCCESS"),
		}, 0, false, "WARN  tools-list"},
		{"a required scenario that did not run fails", []harness.Scenario{
			scenario("ping", "SUCCESS"), scenario("tasks-lifecycle", "SUCCESS"), scenario("json-schema-2020-12", "SUCCESS"),
		}, 1, false, "no result: the scenario did not run"},
		{"a failing exit without a failing scored scenario fails the leg", []harness.Scenario{
			scenario("ping", "SUCCESS"), scenario("tools-list", "SUCCESS"),
			scenario("tasks-lifecycle", "FAILURE"), scenario("json-schema-2020-12", "SUCCESS"),
		}, 1, false, "FAIL  (suite)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := harness.JudgeLeg(tt.scenarios, req, optional, tt.exit)
			assert.Equal(t, tt.green, r.Green(true))
			found := false
			for _, line := range r.Lines() {
				if strings.Contains(line, tt.want) {
					found = true
				}
			}
			assert.True(t, found, "no line with %q in %q", tt.want, r.Lines())
		})
	}
}

func TestRunServerLegsWithoutTheToolsIsErrNotInstalled(t *testing.T) {
	_, err := harness.RunServerLegs(context.Background(), harness.LegsOptions{
		Root: t.TempDir(), Legs: []harness.Leg{{Revision: harness.Revision20260728}},
	})
	assert.ErrorIs(t, err, harness.ErrNotInstalled)
}

func TestRunServerLegsReportsAServerThatNeverAnswers(t *testing.T) {
	root, err := harness.FindRoot(".")
	require.NoError(t, err)
	if err := harness.NextToolsAt(root).CheckSuite(); err != nil {
		t.Skip(err)
	}
	t.Setenv(helperEnv, "idle") // the stand-in server never listens
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := harness.RunServerLegs(ctx, harness.LegsOptions{
		Root: root, Binary: os.Args[0], StartTimeout: 300 * time.Millisecond,
		Legs: []harness.Leg{{Revision: harness.Revision20251125}, {Revision: harness.Revision20260728}},
	})
	assert.ErrorIs(t, err, harness.ErrNeverAnswered)
	assert.Empty(t, res.Legs, "no leg ran against a server that is not there")
	assert.Equal(t, "helper idling\n", res.ServerStderr, "the server's stderr comes back for diagnosis")
}

func TestRunServerLegsRejectsAnUnknownRevision(t *testing.T) {
	root, err := harness.FindRoot(".")
	require.NoError(t, err)
	if err := harness.NextToolsAt(root).CheckSuite(); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = harness.RunServerLegs(ctx, harness.LegsOptions{Root: root, Legs: []harness.Leg{{Revision: "1999-01-01"}}})
	assert.ErrorContains(t, err, "conformance list --requirements 1999-01-01")
}
