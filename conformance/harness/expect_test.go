package harness_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func scenario(name string, statuses ...string) harness.Scenario {
	s := harness.Scenario{Name: name}
	for _, st := range statuses {
		s.Checks = append(s.Checks, check(name, st, "msg"))
	}
	return s
}

func TestExcuseMovesListedVerdictsOutOfTheJudgement(t *testing.T) {
	r := harness.Judge([]harness.Scenario{
		scenario("ping", "SUCCESS"),
		scenario("tasks-lifecycle", "FAILURE", "FAILURE"),
		scenario("tasks-wire-fields", "SUCCESS"),
		scenario("suite-bug", "FAILURE"),
	}, nil).Excuse([]harness.Expectation{
		{Scenario: "tasks-lifecycle", Optional: true, Reason: "optional"},
		{Scenario: "tasks-wire-fields", Optional: true, Reason: "optional"},
		{Scenario: "suite-bug", Reason: "the suite is wrong"},
	})
	require.Len(t, r.Verdicts, 1)
	assert.Equal(t, "ping", r.Verdicts[0].Scenario)
	assert.Equal(t, []int{1, 0, 0}, []int{r.Passed, r.Failed, r.Warnings}, "totals cover the judged verdicts only")
	require.Len(t, r.Excused, 3)
	assert.Equal(t, "optional", r.Excused[0].Excuse)
	assert.Equal(t, harness.Failed, r.Excused[0].Outcome, "the outcome is kept for the report")
	assert.Equal(t, harness.Passed, r.Excused[1].Outcome, "an optional scenario may pass")
	assert.Equal(t, "the suite is wrong", r.Excused[2].Excuse)
	assert.True(t, r.Green(true))
}

func TestExcuseFailsAnExpectedFailureThatPassed(t *testing.T) {
	r := harness.Judge([]harness.Scenario{scenario("suite-bug", "SUCCESS", "SUCCESS")}, nil).
		Excuse([]harness.Expectation{{Scenario: "suite-bug", Reason: "the suite is wrong"}})
	require.Len(t, r.Verdicts, 1)
	assert.Empty(t, r.Excused)
	v := r.Verdicts[0]
	assert.Equal(t, harness.Failed, v.Outcome)
	assert.Contains(t, v.Reason, "listed as an expected failure (the suite is wrong) but it passed")
	assert.False(t, r.Green(false))
}

func TestOptionalExtensionsAreTheSkillsScenarios(t *testing.T) {
	assert.Len(t, harness.OptionalExtensions, 3)
	for _, e := range harness.OptionalExtensions {
		assert.True(t, e.Optional, e.Scenario)
		assert.Regexp(t, `^sep-2640-`, e.Scenario)
		assert.NotEmpty(t, e.Reason, e.Scenario)
	}
}

func TestLinesListExcusedVerdictsAfterTheJudgedOnes(t *testing.T) {
	r := harness.Judge([]harness.Scenario{
		scenario("ping", "SUCCESS"),
		scenario("tasks-lifecycle", "FAILURE"),
	}, nil).Excuse([]harness.Expectation{{Scenario: "tasks-lifecycle", Optional: true, Reason: "optional extension"}})
	assert.Equal(t, []string{
		"PASS  ping             1 passed",
		"(excused) FAIL  tasks-lifecycle  0 passed, 1 failed — tasks-lifecycle: msg [optional extension]",
		"scenarios 1: 1 pass, 0 warn, 0 fail; checks 1 passed, 0 failed, 0 warnings",
		"excused (not judged): scenarios 1: 0 pass, 0 warn, 1 fail; checks 0 passed, 1 failed, 0 warnings",
	}, r.Lines())
}

func TestTheTasksScenariosAreJudgedExceptThePlaceholder(t *testing.T) {
	for _, e := range harness.DefaultExpectations() {
		if e.Scenario == "tasks-status-notifications" {
			assert.False(t, e.Optional, "a suite fault, not an optional extension")
			continue
		}
		assert.NotRegexp(t, `^tasks-`, e.Scenario)
	}
}

func TestDefaultExpectationsAreACopy(t *testing.T) {
	exps := harness.DefaultExpectations()
	assert.Len(t, exps, len(harness.OptionalExtensions)+len(harness.SuiteFaults))
	exps[0].Reason = "changed"
	assert.NotEqual(t, "changed", harness.OptionalExtensions[0].Reason)
}
