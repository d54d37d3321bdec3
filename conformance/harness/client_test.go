package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func TestParseClientScenariosTakesOnlyTheClientSection(t *testing.T) {
	assert.Equal(t, []string{"initialize", "tools_call"}, harness.ParseClientScenarios([]byte(listOutput)))
	assert.Empty(t, harness.ParseClientScenarios([]byte("conformance: command not found\n")))
}

func TestParseClientRequirementsSplitsScoredAndUnscoredClientScenarios(t *testing.T) {
	got := harness.ParseClientRequirements([]byte(requirementsOutput))
	assert.Equal(t, []string{"tools_call", "request-metadata"}, got.Scored)
	assert.Equal(t, []string{"auth/dpop", "json-schema-2020-12-preservation"}, got.Unscored)
}

func TestClientScenarioNameStripsTheTimestampAndKeepsTheFamily(t *testing.T) {
	tests := []struct {
		rel  string
		want string
		ok   bool
	}{
		{"initialize-2026-11-21T23-23-32-099Z", "initialize", true},
		{"auth/metadata-var1-2026-11-21T23-23-32-100Z", "auth/metadata-var1", true},
		{"elicitation-sep1034-client-defaults-2026-01-02T03-04-05-006Z", "elicitation-sep1034-client-defaults", true},
		{"auth", "", false},
		{"initialize", "", false},
		{"stdout.txt", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			got, ok := harness.ClientScenarioName(tt.rel)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestReadClientResultsReadsTopLevelAndAuthScenariosWithTheClientStderr(t *testing.T) {
	dir := t.TempDir()
	writeChecks(t, dir, "tools_call-2026-11-21T23-23-32-100Z", `[{"id":"tool-add-numbers","status":"SUCCESS"}]`)
	writeChecks(t, dir, "auth/metadata-default-2026-11-21T23-23-32-100Z", `[{"id":"prm","status":"FAILURE","errorMessage":"no PRM request"}]`)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "auth", "metadata-default-2026-11-21T23-23-32-100Z", "stderr.txt"), []byte("client: 401\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "initialize-2026-11-21T23-23-32-099Z"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o644))

	got, err := harness.ReadClientResults(dir)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "auth/metadata-default", got[0].Name)
	assert.Equal(t, "client: 401\n", got[0].ClientStderr)
	assert.Equal(t, []harness.Check{{ID: "prm", Status: "FAILURE", ErrorMessage: "no PRM request"}}, got[0].Checks)
	assert.Equal(t, "initialize", got[1].Name)
	assert.NotEmpty(t, got[1].Broken, "a result directory without checks.json is a broken scenario")
	assert.Equal(t, "tools_call", got[2].Name)
	assert.Empty(t, got[2].ClientStderr)
}

func TestReadClientResultsKeepsTheLatestRunAndTheTailOfALongStderr(t *testing.T) {
	dir := t.TempDir()
	writeChecks(t, dir, "tools_call-2026-11-21T23-23-32-100Z", `[{"id":"a","status":"FAILURE"}]`)
	writeChecks(t, dir, "tools_call-2026-11-21T23-24-00-000Z", `[{"id":"a","status":"SUCCESS"}]`)
	long := strings.Repeat("x", 10<<10) + "the end"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tools_call-2026-11-21T23-24-00-000Z", "stderr.txt"), []byte(long), 0o644))

	got, err := harness.ReadClientResults(dir)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, harness.StatusSuccess, got[0].Checks[0].Status)
	assert.True(t, strings.HasSuffix(got[0].ClientStderr, "the end"))
	assert.Less(t, len(got[0].ClientStderr), 5<<10)
}

func TestReadClientResultsErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"no scenario at all", func(t *testing.T, dir string) {}, "no scenario results"},
		{"malformed checks.json", func(t *testing.T, dir string) {
			writeChecks(t, dir, "tools_call-2026-11-21T23-23-32-100Z", `{"not":"a list"}`)
		}, "scenario tools_call: checks.json"},
		{"unreadable checks.json", func(t *testing.T, dir string) {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "tools_call-2026-11-21T23-23-32-100Z", "checks.json"), 0o755))
		}, "scenario tools_call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			_, err := harness.ReadClientResults(dir)
			assert.ErrorContains(t, err, tt.want)
		})
	}
	_, err := harness.ReadClientResults(filepath.Join(t.TempDir(), "missing"))
	assert.ErrorContains(t, err, "reading suite output")
}

func TestClientLegLabelNamesTheSelection(t *testing.T) {
	assert.Equal(t, "0.1.16 --suite all", harness.ClientLeg{Suite: "all"}.Label())
	assert.Equal(t, "0.2.0 --requirements 2026-07-28", harness.ClientLeg{Revision: harness.Revision20260728}.Label())
	assert.Equal(t, "0.2.0 --suite backcompat", harness.ClientLeg{Next: true, Suite: "backcompat"}.Label())
}

func TestJudgeClientLeg(t *testing.T) {
	req := harness.Requirements{Scored: []string{"initialize", "tools_call"}, Unscored: []string{"auth/dpop"}}
	next := harness.ClientLeg{Revision: harness.Revision20251125}
	old := harness.ClientLeg{Suite: "all"}
	tests := []struct {
		name      string
		leg       harness.ClientLeg
		scenarios []harness.Scenario
		exit      int
		green     bool
		want      string
	}{
		{"everything passed", next, []harness.Scenario{
			scenario("initialize", "SUCCESS"), scenario("tools_call", "SUCCESS"), scenario("auth/dpop", "SUCCESS"),
		}, 0, true, "scenarios 3: 3 pass"},
		{"a scenario without checks fails although the suite calls it green", next, []harness.Scenario{
			scenario("initialize"), scenario("tools_call", "SUCCESS"), scenario("auth/dpop", "SUCCESS"),
		}, 0, false, "FAIL  initialize"},
		{"an unscored extension failing is not green", next, []harness.Scenario{
			scenario("initialize", "SUCCESS"), scenario("tools_call", "SUCCESS"), scenario("auth/dpop", "FAILURE"),
		}, 0, false, "FAIL  auth/dpop"},
		{"a warning is not green", old, []harness.Scenario{
			scenario("initialize", "SUCCESS"), scenario("tools_call", "SUCCESS", "WARNING"), scenario("auth/dpop", "SUCCESS"),
		}, 1, false, "WARN  tools_call"},
		{"a scenario that did not run fails", next, []harness.Scenario{
			scenario("initialize", "SUCCESS"), scenario("auth/dpop", "SUCCESS"),
		}, 0, false, "no result: the scenario did not run"},
		{"a --requirements exit without a scored failure fails the leg", next, []harness.Scenario{
			scenario("initialize", "SUCCESS"), scenario("tools_call", "SUCCESS", "WARNING"), scenario("auth/dpop", "FAILURE"),
		}, 1, false, "FAIL  (suite)"},
		{"a --suite exit without any failure or warning fails the leg", old, []harness.Scenario{
			scenario("initialize", "SUCCESS"), scenario("tools_call", "SUCCESS"), scenario("auth/dpop", "SUCCESS"),
		}, 1, false, "FAIL  (suite)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := harness.JudgeClientLeg(tt.scenarios, req, tt.leg, tt.exit)
			assert.Equal(t, tt.green, r.Green(true))
			assert.Contains(t, strings.Join(r.Lines(), "\n"), tt.want)
		})
	}
}

func TestJudgeClientLegExcusesAListedSuiteFault(t *testing.T) {
	leg := harness.ClientLeg{Revision: harness.Revision20260728, Expectations: []harness.Expectation{{Scenario: "auth/dpop", Reason: "suite fault"}}}
	r := harness.JudgeClientLeg([]harness.Scenario{scenario("tools_call", "SUCCESS"), scenario("auth/dpop", "FAILURE")},
		harness.Requirements{Scored: []string{"tools_call"}, Unscored: []string{"auth/dpop"}}, leg, 0)
	assert.True(t, r.Green(true))
	require.Len(t, r.Excused, 1)
	assert.Equal(t, "suite fault", r.Excused[0].Excuse)
}

func TestRunClientLegsWithoutTheToolsIsErrNotInstalled(t *testing.T) {
	for _, leg := range []harness.ClientLeg{{Suite: "all"}, {Revision: harness.Revision20260728}} {
		_, err := harness.RunClientLegs(context.Background(), harness.ClientOptions{Root: t.TempDir(), Legs: []harness.ClientLeg{leg}})
		assert.ErrorIs(t, err, harness.ErrNotInstalled, leg.Label())
	}
}

// installedRoot returns the checkout's root, skipping the test unless both suites are installed.
func installedRoot(t *testing.T) string {
	t.Helper()
	root, err := harness.FindRoot(".")
	require.NoError(t, err)
	for _, tools := range []harness.Tools{harness.ToolsAt(root), harness.NextToolsAt(root)} {
		if err := tools.CheckSuite(); err != nil {
			t.Skip(err)
		}
	}
	return root
}

func TestRunClientLegsRejectsAPathWithSpaces(t *testing.T) {
	root := installedRoot(t)
	_, err := harness.RunClientLegs(context.Background(), harness.ClientOptions{
		Root: root, Binary: filepath.Join(t.TempDir(), "a client"), Legs: []harness.ClientLeg{{Suite: "all"}},
	})
	assert.ErrorIs(t, err, harness.ErrBadClientPath)
}

func TestRunClientLegsRejectsALegWithoutSelection(t *testing.T) {
	root := installedRoot(t)
	_, err := harness.RunClientLegs(context.Background(), harness.ClientOptions{
		Root: root, Binary: os.Args[0], Legs: []harness.ClientLeg{{}},
	})
	assert.ErrorContains(t, err, "needs a revision or a suite")
}

func TestRunClientLegsRejectsASuiteLegThatNamesNoScenarios(t *testing.T) {
	root := installedRoot(t)
	_, err := harness.RunClientLegs(context.Background(), harness.ClientOptions{
		Root: root, Binary: os.Args[0], Legs: []harness.ClientLeg{{Next: true, Suite: "backcompat"}},
	})
	assert.ErrorContains(t, err, "0.2.0 --suite backcompat names no scenarios")
}

func TestRunClientLegsRejectsAnUnknownRevision(t *testing.T) {
	root := installedRoot(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := harness.RunClientLegs(ctx, harness.ClientOptions{
		Root: root, Binary: os.Args[0], Legs: []harness.ClientLeg{{Revision: "1999-01-01"}},
	})
	assert.ErrorContains(t, err, "conformance list --requirements 1999-01-01")
	assert.Empty(t, res, "no leg ran")
}

// TestJudgeClientLegFailsAMissingScenarioOfASuiteLeg: a --suite leg other than 0.1.16's
// "all" is held to the scenarios it names.
func TestJudgeClientLegFailsAMissingScenarioOfASuiteLeg(t *testing.T) {
	leg := harness.ClientLeg{Next: true, Suite: "backcompat", Scenarios: []string{"auth/a", "auth/b"}}
	ran := []harness.Scenario{{Name: "auth/a", Checks: []harness.Check{{ID: "x", Status: "SUCCESS"}}}}
	r := harness.JudgeClientLeg(ran, harness.Requirements{Scored: leg.Scenarios}, leg, 0)
	assert.False(t, r.Green(true))
}

// TestRunClientLegsFailsEveryScenarioOfAClientThatGivesUp drives the real CLI with a
// stand-in client that exits 1 at once: every scenario fails, including those for which
// the suite records no check and prints a pass, and the client's stderr comes back.
func TestRunClientLegsFailsEveryScenarioOfAClientThatGivesUp(t *testing.T) {
	root := installedRoot(t)
	t.Setenv(helperEnv, "client")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := t.TempDir()
	res, err := harness.RunClientLegs(ctx, harness.ClientOptions{
		Root: root, Binary: os.Args[0], OutDir: out, ScenarioTimeout: 10 * time.Second,
		Legs: []harness.ClientLeg{{Suite: "all"}, {Revision: harness.Revision20251125}},
	})
	require.NoError(t, err)
	require.Len(t, res, 2)
	for _, leg := range res {
		t.Run(leg.Leg.Label(), func(t *testing.T) {
			assert.NotZero(t, leg.Run.ExitCode)
			assert.False(t, leg.Report.Green(false))
			assert.DirExists(t, leg.OutDir)
			assert.True(t, strings.HasPrefix(leg.OutDir, out))
			judged := map[string]harness.Outcome{}
			for _, v := range leg.Report.Verdicts {
				judged[v.Scenario] = v.Outcome
			}
			for _, name := range leg.Required.All() {
				assert.Contains(t, judged, name)
			}
			assert.Equal(t, harness.Failed, judged["initialize"], "no check recorded is a failure")
			assert.Equal(t, harness.Failed, judged["tools_call"])
			assert.Equal(t, "helper client gives up on tools_call\n", leg.ClientStderr("tools_call"))
			assert.Empty(t, leg.ClientStderr("no-such-scenario"))
		})
	}
}

func TestExcuseChecks(t *testing.T) {
	named := func(name, status string) harness.Check {
		return harness.Check{ID: "sep-2243-client-includes-standard-headers", Name: name, Status: status}
	}
	fault := harness.CheckFault{Scenario: "http-standard-headers", Check: "ClientMcpMethodHeader_initialize", Status: harness.StatusSkipped, Reason: "no initialize at 2026-07-28"}
	tests := []struct {
		name        string
		checks      []harness.Check
		wantKept    int
		wantExcused int
		wantStale   string
	}{
		{"the listed check with the listed status is excused",
			[]harness.Check{named("ClientMcpMethodHeader_tools_list", "SUCCESS"), named("ClientMcpMethodHeader_initialize", "SKIPPED")}, 1, 1, ""},
		{"the listed check with another status makes the entry stale",
			[]harness.Check{named("ClientMcpMethodHeader_tools_list", "SUCCESS"), named("ClientMcpMethodHeader_initialize", "SUCCESS")}, 2, 0, "but it is SUCCESS"},
		{"the listed check gone makes the entry stale",
			[]harness.Check{named("ClientMcpMethodHeader_tools_list", "SUCCESS")}, 1, 0, "the check is gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, excused, stale := harness.ExcuseChecks([]harness.Scenario{
				{Name: "http-standard-headers", Checks: tt.checks}, scenario("tools_call", "SUCCESS"),
			}, []harness.CheckFault{fault})
			require.Len(t, kept, 2)
			assert.Len(t, kept[0].Checks, tt.wantKept)
			assert.Equal(t, []harness.Check{check("tools_call", "SUCCESS", "msg")}, kept[1].Checks, "other scenarios are untouched")
			assert.Len(t, excused, tt.wantExcused)
			for _, v := range excused {
				assert.Equal(t, "http-standard-headers:ClientMcpMethodHeader_initialize", v.Scenario)
				assert.Equal(t, "no initialize at 2026-07-28", v.Excuse)
			}
			if tt.wantStale == "" {
				assert.Empty(t, stale)
				return
			}
			require.Len(t, stale, 1)
			assert.Equal(t, harness.Failed, stale[0].Outcome)
			assert.Contains(t, stale[0].Reason, tt.wantStale)
		})
	}
}

func TestExcuseChecksLeavesAFaultOfAScenarioThatDidNotRunAlone(t *testing.T) {
	kept, excused, stale := harness.ExcuseChecks([]harness.Scenario{scenario("tools_call", "SUCCESS")},
		[]harness.CheckFault{{Scenario: "http-standard-headers", Check: "x", Status: harness.StatusSkipped}})
	assert.Len(t, kept, 1)
	assert.Empty(t, excused)
	assert.Empty(t, stale)
}

func TestJudgeClientLegReportsExcusedChecksAndStaysGreen(t *testing.T) {
	leg := harness.ClientLeg{Revision: harness.Revision20260728, CheckFaults: []harness.CheckFault{
		{Scenario: "http-standard-headers", Check: "init", Status: harness.StatusSkipped, Reason: "no initialize"},
	}}
	s := harness.Scenario{Name: "http-standard-headers", Checks: []harness.Check{
		{ID: "a", Name: "list", Status: "SUCCESS"}, {ID: "a", Name: "init", Status: "SKIPPED"},
	}}
	r := harness.JudgeClientLeg([]harness.Scenario{s}, harness.Requirements{Scored: []string{"http-standard-headers"}}, leg, 0)
	assert.True(t, r.Green(true), r.Lines())
	assert.Contains(t, strings.Join(r.Lines(), "\n"), "(excused) WARN  http-standard-headers:init")
}
