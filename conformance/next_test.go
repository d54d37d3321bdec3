package conformance_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// bar is what a green leg reaches at least (conformance-suite.md §11.8): judged
// scenarios and passed checks.
var bar = map[string]struct{ scenarios, checks int }{
	harness.Revision20251125: {33, 84},
	harness.Revision20260728: {40, 153},
}

// TestConformanceNext runs both legs of the pinned 0.2.0 prerelease suite, the
// 2025-11-25 requirement set on the handshake wire and the 2026-07-28 set on the
// stateless wire, against ONE examples/everything process started without an era flag.
// Every scenario a leg runs, scored or not, must pass with no failing, warning or skipped
// check, except the optional extensions and the suite faults (harness.SuiteFaults, none
// known) that harness.DefaultExpectations excuse.
func TestConformanceNext(t *testing.T) {
	root := repoRoot(t)
	needs(t, harness.NextToolsAt(root).CheckSuite())
	binary := everything(t)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := harness.RunServerLegs(ctx, harness.LegsOptions{
		Root: root, Binary: binary, Log: logWriter{t}, ServerArgs: harness.LegServerArgs,
		Legs: []harness.Leg{
			{Revision: harness.Revision20251125, Expectations: harness.DefaultExpectations()},
			{Revision: harness.Revision20260728, Expectations: harness.DefaultExpectations()},
		},
	})
	require.NoError(t, err, "server stderr:\n%s", res.ServerStderr)
	require.Len(t, res.Legs, 2)
	for _, leg := range res.Legs {
		t.Run(leg.Leg.Revision, func(t *testing.T) {
			for _, line := range leg.Report.Lines() {
				t.Log(line)
			}
			if !leg.Report.Green(true) {
				t.Errorf("the %s leg is not green; CLI exit %d, output:\n%s\nserver stderr:\n%s",
					leg.Leg.Revision, leg.Run.ExitCode, leg.Run.Output, res.ServerStderr)
				return
			}
			want := bar[leg.Leg.Revision]
			assert.GreaterOrEqual(t, len(leg.Report.Verdicts), want.scenarios, "judged scenarios")
			assert.GreaterOrEqual(t, leg.Report.Passed, want.checks,
				"passed checks below the bar of conformance-suite.md §11.8 (%d informational checks: a behaviour the suite calls optional was not shown)", leg.Report.Info)
		})
	}
}
