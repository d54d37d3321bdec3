package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Leg is one run of the 0.2.0 suite: the server scenarios one spec revision requires,
// at that revision's wire.
type Leg struct {
	// Revision is the requirement set, Revision20251125 or Revision20260728.
	Revision string
	// Expectations excuse scenarios of this leg from the verdict (see Report.Excuse).
	Expectations []Expectation
}

// LegServerArgs are the server flags the legs run with. The everything server adds
// test_dynamic_tool two seconds after it starts, which is about when the second leg
// begins: a tool appearing between the two tools/list calls of the 2026-07-28 tools-list
// scenario turns its deterministic-order check into a WARNING. Without the dynamic tool
// the tool list changes only when a scenario asks (test_trigger_tool_change, which keeps
// the same names in the same order).
var LegServerArgs = []string{"-dynamic-after", "0"}

// LegsOptions configure RunServerLegs.
type LegsOptions struct {
	// Root is the repository root.
	Root string
	// Binary is a prebuilt examples/everything; empty means build it into a temporary directory.
	Binary string
	// Legs run one after the other against the same server process.
	Legs []Leg
	// ServerArgs are passed to the server after -http ADDR.
	ServerArgs []string
	// OutDir receives one subdirectory per leg (named for its revision) with the suite's
	// result directories; empty means a temporary directory.
	OutDir string
	// Log receives progress messages; nil discards them.
	Log io.Writer
	// StartTimeout bounds the wait for the server to answer HTTP (default 15 s).
	StartTimeout time.Duration
}

// LegResult is the outcome of one leg.
type LegResult struct {
	Leg Leg
	// Required is what the leg's requirement set runs.
	Required Requirements
	// Run is the CLI's output and exit status.
	Run SuiteRun
	// OutDir is where the leg's result directories are.
	OutDir string
	// Report judges every scenario the leg ran, scored or not; Leg.Expectations are excused.
	Report Report
}

// LegsResult is the outcome of RunServerLegs.
type LegsResult struct {
	Legs []LegResult
	// ServerStderr is what the server logged over all legs.
	ServerStderr string
}

// RunServerLegs builds (unless given) and starts ONE examples/everything process with
// -http on a free loopback port and no era flag, waits until it answers, then runs
// `conformance server --requirements REV` of the 0.2.0 suite (conformance/next) for each
// leg in turn against the same URL, without restarting the server, and judges each leg:
// every scenario the requirement set runs, scored or not, must pass without a failing,
// warning or skipped check unless an expectation excuses it. An error wrapping
// ErrNeverAnswered means the server did not come up; any other error means the run
// itself broke. Failing scenarios are reported in the result, not as an error.
func RunServerLegs(ctx context.Context, opts LegsOptions) (res LegsResult, err error) {
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	tools := NextToolsAt(opts.Root)
	if err := tools.CheckSuite(); err != nil {
		return res, err
	}
	work, err := os.MkdirTemp("", "schemarpc-conformance-next-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(work)

	required := make([]Requirements, len(opts.Legs))
	for i, leg := range opts.Legs {
		if required[i], err = tools.RequiredScenarios(ctx, leg.Revision); err != nil {
			return res, err
		}
	}
	server, url, err := startEverything(ctx, opts.Root, opts.Binary, work, opts.StartTimeout, log, opts.ServerArgs...)
	if server != nil {
		defer func() {
			server.Stop()
			res.ServerStderr = server.Stderr()
		}()
	}
	if err != nil {
		return res, err
	}
	outRoot := opts.OutDir
	if outRoot == "" {
		outRoot = work
	}
	for i, leg := range opts.Legs {
		lr := LegResult{Leg: leg, Required: required[i], OutDir: filepath.Join(outRoot, leg.Revision)}
		if err := os.MkdirAll(lr.OutDir, 0o755); err != nil {
			return res, err
		}
		fmt.Fprintf(log, "running the 0.2.0 suite (--requirements %s) against %s\n", leg.Revision, url)
		if lr.Run, err = tools.RunRequirements(ctx, url, leg.Revision, lr.OutDir); err != nil {
			return res, err
		}
		scenarios, err := ReadResults(lr.OutDir)
		if err != nil && !errors.Is(err, ErrNoResults) {
			return res, err
		}
		lr.Report = JudgeLeg(scenarios, lr.Required, leg.Expectations, lr.Run.ExitCode)
		if server.Exited() {
			lr.Report.add(Verdict{Scenario: "(server)", Outcome: Failed, Reason: "the server exited during the run"})
		}
		res.Legs = append(res.Legs, lr)
	}
	return res, nil
}

// JudgeLeg judges one leg's results against its requirement set, excuses what exps name,
// and adds a failure when the CLI's exit status (non-zero iff a scored scenario failed)
// contradicts the results.
func JudgeLeg(scenarios []Scenario, req Requirements, exps []Expectation, exitCode int) Report {
	r := Judge(scenarios, req.All())
	scoredFailed := false
	for _, v := range r.Verdicts {
		if req.IsScored(v.Scenario) && v.Failed > 0 {
			scoredFailed = true
		}
	}
	r = r.Excuse(exps)
	if exitCode != 0 && !scoredFailed {
		r.add(Verdict{Scenario: "(suite)", Outcome: Failed,
			Reason: fmt.Sprintf("the CLI exited %d although no scored scenario recorded a failing check", exitCode)})
	}
	return r
}
