package conformance_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// conformanceClient builds examples/conformance-client once per test binary and returns its path.
func conformanceClient(t *testing.T) string {
	t.Helper()
	return clientBuild.get(t, harness.ClientPackage)
}

// runClientLegs runs the given client legs with examples/conformance-client and requires
// every scenario of every leg, scored or not, auth extensions included, to pass with no
// failing, warning or skipped check. Excused are only the suite faults the harness lists:
// harness.ClientSuiteFaults (whole scenarios, none known) and harness.ClientCheckFaults
// (single checks; an entry whose check passes, changes status or disappears fails the leg,
// so each entry stays demonstrated by every run).
func runClientLegs(t *testing.T, legs ...harness.ClientLeg) {
	t.Helper()
	root := repoRoot(t)
	binary := conformanceClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := harness.RunClientLegs(ctx, harness.ClientOptions{
		Root: root, Binary: binary, Legs: legs, Log: logWriter{t}, ScenarioTimeout: 30 * time.Second,
	})
	require.NoError(t, err)
	require.Len(t, res, len(legs))
	for _, leg := range res {
		t.Run(leg.Leg.Label(), func(t *testing.T) {
			for _, line := range leg.Report.Lines() {
				t.Log(line)
			}
			if leg.Report.Green(true) {
				return
			}
			for _, v := range leg.Report.Verdicts {
				if v.Outcome != harness.Passed {
					if stderr := leg.ClientStderr(v.Scenario); stderr != "" {
						t.Logf("client stderr in %s:\n%s", v.Scenario, stderr)
					}
				}
			}
			t.Errorf("the client leg %s is not green; CLI exit %d, output:\n%s", leg.Leg.Label(), leg.Run.ExitCode, leg.Run.Output)
		})
	}
}

// TestConformanceClient runs every client scenario of the 0.1.16 suite (--suite all,
// auth, backcompat, draft and extensions included) against examples/conformance-client.
func TestConformanceClient(t *testing.T) {
	needs(t, harness.ToolsAt(repoRoot(t)).CheckSuite())
	runClientLegs(t, harness.ClientLeg{Suite: "all", Expectations: harness.ClientSuiteFaults, CheckFaults: harness.ClientCheckFaults})
}

// TestConformanceClientNext runs both client legs of the pinned 0.2.0 prerelease: the
// 2025-11-25 requirement set on the handshake wire and the 2026-07-28 set on the
// stateless wire, each with its not-scored scenarios (auth extensions,
// json-schema-2020-12-preservation), and its backcompat suite (the 2025-03-26
// authorization pair).
func TestConformanceClientNext(t *testing.T) {
	needs(t, harness.NextToolsAt(repoRoot(t)).CheckSuite())
	runClientLegs(t,
		harness.ClientLeg{Revision: harness.Revision20251125, Expectations: harness.ClientSuiteFaults, CheckFaults: harness.ClientCheckFaults},
		harness.ClientLeg{Revision: harness.Revision20260728, Expectations: harness.ClientSuiteFaults, CheckFaults: harness.ClientCheckFaults},
		// The 2025-03-26 authorization back-compat pair is in neither requirement set.
		harness.ClientLeg{Next: true, Suite: "backcompat", Scenarios: []string{
			"auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
		}},
	)
}
