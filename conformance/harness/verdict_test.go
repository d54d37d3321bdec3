package harness_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func check(id, status, msg string) harness.Check {
	return harness.Check{ID: id, Status: status, ErrorMessage: msg, Description: "describes " + id}
}

func TestJudgeScenario(t *testing.T) {
	tests := []struct {
		name   string
		checks []harness.Check
		want   harness.Verdict
	}{
		{"every check succeeded", []harness.Check{check("a", "SUCCESS", ""), check("b", "SUCCESS", ""), check("c", "INFO", "")},
			harness.Verdict{Scenario: "s", Outcome: harness.Passed, Passed: 2, Info: 1}},
		{"a failure wins over warnings and names the first failure",
			[]harness.Check{check("a", "WARNING", "meh"), check("b", "FAILURE", "broken"), check("c", "FAILURE", "also")},
			harness.Verdict{Scenario: "s", Outcome: harness.Failed, Failed: 2, Warnings: 1, Reason: "b: broken"}},
		{"a warning without failure", []harness.Check{check("a", "SUCCESS", ""), check("b", "WARNING", "no priming event")},
			harness.Verdict{Scenario: "s", Outcome: harness.Warned, Passed: 1, Warnings: 1, Reason: "b: no priming event"}},
		{"a check without message is described", []harness.Check{check("a", "FAILURE", "")},
			harness.Verdict{Scenario: "s", Outcome: harness.Failed, Failed: 1, Reason: "a: describes a"}},
		{"only informational checks fail the scenario", []harness.Check{check("a", "INFO", "")},
			harness.Verdict{Scenario: "s", Outcome: harness.Failed, Info: 1, Reason: "no graded check recorded"}},
		{"a skipped check warns", []harness.Check{check("a", "SUCCESS", ""), check("b", "SKIPPED", "not declared")},
			harness.Verdict{Scenario: "s", Outcome: harness.Warned, Passed: 1, Skipped: 1, Reason: "skipped b: not declared"}},
		{"a warning is named before a skipped check", []harness.Check{check("a", "SKIPPED", "x"), check("b", "WARNING", "w"), check("c", "SUCCESS", "")},
			harness.Verdict{Scenario: "s", Outcome: harness.Warned, Passed: 1, Warnings: 1, Skipped: 1, Reason: "b: w"}},
		{"only skipped checks fail the scenario", []harness.Check{check("a", "SKIPPED", "x")},
			harness.Verdict{Scenario: "s", Outcome: harness.Failed, Skipped: 1, Reason: "no graded check recorded"}},
		{"no checks at all fail the scenario", nil,
			harness.Verdict{Scenario: "s", Outcome: harness.Failed, Reason: "no graded check recorded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := harness.Judge([]harness.Scenario{{Name: "s", Checks: tt.checks}}, nil)
			require.Len(t, r.Verdicts, 1)
			assert.Equal(t, tt.want, r.Verdicts[0])
		})
	}
}

func TestJudgeFailsExpectedScenariosWithoutResult(t *testing.T) {
	r := harness.Judge([]harness.Scenario{{Name: "ping", Checks: []harness.Check{check("ping", "SUCCESS", "")}}},
		[]string{"ping", "tools-list"})
	require.Len(t, r.Verdicts, 2)
	assert.Equal(t, harness.Verdict{Scenario: "tools-list", Outcome: harness.Failed, Reason: "no result: the scenario did not run"}, r.Verdicts[1])
	assert.False(t, r.Green(false))
}

func TestReportTotalsAndGreen(t *testing.T) {
	pass := harness.Scenario{Name: "ping", Checks: []harness.Check{check("ping", "SUCCESS", "")}}
	warn := harness.Scenario{Name: "sse", Checks: []harness.Check{check("a", "SUCCESS", ""), check("b", "WARNING", "w")}}
	fail := harness.Scenario{Name: "tools", Checks: []harness.Check{check("t", "FAILURE", "f")}}

	tests := []struct {
		name                string
		scenarios           []harness.Scenario
		green, greenStrict  bool
		passed, failed, wrn int
	}{
		{"all passed", []harness.Scenario{pass}, true, true, 1, 0, 0},
		{"a warning is green only when not strict", []harness.Scenario{pass, warn}, true, false, 2, 0, 1},
		{"a failure is never green", []harness.Scenario{pass, warn, fail}, false, false, 2, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := harness.Judge(tt.scenarios, nil)
			assert.Equal(t, tt.green, r.Green(false))
			assert.Equal(t, tt.greenStrict, r.Green(true))
			assert.Equal(t, []int{tt.passed, tt.failed, tt.wrn}, []int{r.Passed, r.Failed, r.Warnings})
		})
	}
}

func TestLinesShowOneLinePerScenarioAndATotal(t *testing.T) {
	r := harness.Judge([]harness.Scenario{
		{Name: "ping", Checks: []harness.Check{check("ping", "SUCCESS", "")}},
		{Name: "tools-call-sampling", Checks: []harness.Check{check("sampling", "FAILURE", "Server did not\nrequest sampling")}},
		{Name: "server-sse-polling", Checks: []harness.Check{check("a", "SUCCESS", ""), check("prime", "WARNING", "no priming event")}},
	}, nil)
	lines := r.Lines()
	require.Len(t, lines, 4)
	assert.Equal(t, "PASS  ping                 1 passed", lines[0])
	assert.Equal(t, "FAIL  tools-call-sampling  0 passed, 1 failed — sampling: Server did not request sampling", lines[1])
	assert.Equal(t, "WARN  server-sse-polling   1 passed, 1 warnings — prime: no priming event", lines[2])
	assert.Equal(t, "scenarios 3: 1 pass, 1 warn, 1 fail; checks 2 passed, 1 failed, 1 warnings", lines[3])
}

func TestLinesShortenLongReasons(t *testing.T) {
	r := harness.Judge([]harness.Scenario{{Name: "s", Checks: []harness.Check{check("c", "FAILURE", strings.Repeat("x", 1000))}}}, nil)
	assert.Less(t, len(r.Lines()[0]), 400)
	assert.True(t, strings.HasSuffix(r.Lines()[0], "…"))
}

func TestJudgeFailsABrokenScenario(t *testing.T) {
	r := harness.Judge([]harness.Scenario{{Name: "tasks-lifecycle", Broken: "no checks.json"}}, nil)
	require.Len(t, r.Verdicts, 1)
	assert.Equal(t, harness.Verdict{Scenario: "tasks-lifecycle", Outcome: harness.Failed, Reason: "no checks.json"}, r.Verdicts[0])
}

func TestLinesCountSkippedAndInformationalChecks(t *testing.T) {
	r := harness.Judge([]harness.Scenario{{Name: "s", Checks: []harness.Check{
		check("a", "SUCCESS", ""), check("b", "SKIPPED", "why"), check("c", "INFO", "optional"),
	}}}, nil)
	assert.Equal(t, []string{
		"WARN  s  1 passed, 1 skipped, 1 info — skipped b: why",
		"scenarios 1: 0 pass, 1 warn, 0 fail; checks 1 passed, 0 failed, 0 warnings, 1 skipped, 1 info",
	}, r.Lines())
	assert.True(t, r.Green(false))
	assert.False(t, r.Green(true))
}
