package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ClientPackage is the client the client legs drive: a binary that plays the scenario
// named in MCP_CONFORMANCE_SCENARIO against the URL it is given.
const ClientPackage = "./examples/conformance-client"

// ClientLeg is one run of the suite in client mode: either a --suite selection of the
// 0.1.16 suite or a --requirements revision of the 0.2.0 prerelease.
type ClientLeg struct {
	// Revision selects `--requirements Revision` of the 0.2.0 suite (conformance/next);
	// empty selects the 0.1.16 suite with Suite.
	Revision string
	// Suite is the --suite selection (core, all, auth, backcompat, …), of the 0.1.16 suite
	// unless Next is set. "all" of 0.1.16 expects every client scenario the CLI knows;
	// another selection expects the scenarios listed in Scenarios.
	Suite string
	// Next runs Suite on the 0.2.0 prerelease (conformance/next) instead of 0.1.16.
	Next bool
	// Scenarios names what a Suite other than 0.1.16's "all" must run; each one missing
	// from the results fails the leg. Such a leg must name at least one.
	Scenarios []string
	// Expectations excuse scenarios of this leg from the verdict (see Report.Excuse).
	Expectations []Expectation
	// CheckFaults excuse single checks of this leg from the verdict (see ExcuseChecks).
	CheckFaults []CheckFault
}

// Label names the leg the way its command line selects it.
func (l ClientLeg) Label() string {
	switch {
	case l.Revision != "":
		return "0.2.0 --requirements " + l.Revision
	case l.Next:
		return "0.2.0 --suite " + l.Suite
	}
	return "0.1.16 --suite " + l.Suite
}

// dirName is the leg's subdirectory of the output directory.
func (l ClientLeg) dirName() string {
	switch {
	case l.Revision != "":
		return "client-" + l.Revision
	case l.Next:
		return "client-0.2.0-" + l.Suite
	}
	return "client-0.1.16-" + l.Suite
}

// ClientOptions configure RunClientLegs.
type ClientOptions struct {
	// Root is the repository root.
	Root string
	// Binary is a prebuilt client; empty means build ClientPackage into a temporary
	// directory. The suite splits the command on spaces, so the path must have none.
	Binary string
	// Legs run one after the other; the suite runs each leg's scenarios in parallel.
	Legs []ClientLeg
	// OutDir receives one subdirectory per leg with the suite's result directories;
	// empty means a temporary directory.
	OutDir string
	// Log receives progress messages; nil discards them.
	Log io.Writer
	// ScenarioTimeout bounds each client run (the suite's --timeout; default 30 s).
	ScenarioTimeout time.Duration
}

// ClientLegResult is the outcome of one client leg.
type ClientLegResult struct {
	Leg ClientLeg
	// Required is what the leg must produce: for a revision its requirement set, for
	// --suite all every client scenario the CLI knows (all scored).
	Required Requirements
	// Run is the CLI's output and exit status.
	Run SuiteRun
	// OutDir is where the leg's result directories are.
	OutDir string
	// Scenarios are the results as read, with the client's stderr.
	Scenarios []Scenario
	// Report judges every scenario the leg ran, scored or not; Leg.Expectations are excused.
	Report Report
}

// ClientStderr returns what the client wrote to stderr in scenario name, "" if nothing.
func (r ClientLegResult) ClientStderr(name string) string {
	for _, s := range r.Scenarios {
		if s.Name == name {
			return s.ClientStderr
		}
	}
	return ""
}

// ErrBadClientPath reports a client binary path the suite cannot run (it splits the
// command on spaces).
var ErrBadClientPath = errors.New("the client path contains white space")

// RunClientLegs builds the client (unless given) and runs `conformance client --command
// BINARY` for each leg in turn, reading every checks.json the leg wrote and judging every
// scenario, scored or not: a scenario passes only with at least one graded check and none
// failing, warning or skipped. An error means the run itself broke; failing scenarios are
// in the results.
func RunClientLegs(ctx context.Context, opts ClientOptions) ([]ClientLegResult, error) {
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	for _, leg := range opts.Legs {
		tools := clientTools(opts.Root, leg)
		if err := tools.CheckSuite(); err != nil {
			return nil, err
		}
	}
	work, err := os.MkdirTemp("", "schemarpc-conformance-client-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	binary := opts.Binary
	if binary == "" {
		fmt.Fprintf(log, "building %s\n", ClientPackage)
		if binary, err = Build(ctx, opts.Root, ClientPackage, work); err != nil {
			return nil, err
		}
	}
	if binary, err = filepath.Abs(binary); err != nil {
		return nil, err
	}
	if strings.ContainsAny(binary, " \t\n") {
		return nil, fmt.Errorf("%w: %q", ErrBadClientPath, binary)
	}
	outRoot := opts.OutDir
	if outRoot == "" {
		outRoot = work
	}
	var results []ClientLegResult
	for _, leg := range opts.Legs {
		lr, err := runClientLeg(ctx, opts, leg, binary, filepath.Join(outRoot, leg.dirName()), log)
		if err != nil {
			return results, err
		}
		results = append(results, lr)
	}
	return results, nil
}

// clientTools returns the suite a leg runs on.
func clientTools(root string, leg ClientLeg) Tools {
	if leg.Revision != "" || leg.Next {
		return NextToolsAt(root)
	}
	return ToolsAt(root)
}

// runClientLeg runs and judges one leg.
func runClientLeg(ctx context.Context, opts ClientOptions, leg ClientLeg, binary, outDir string, log io.Writer) (ClientLegResult, error) {
	lr := ClientLegResult{Leg: leg, OutDir: outDir}
	tools := clientTools(opts.Root, leg)
	var selection []string
	switch {
	case leg.Revision != "":
		req, err := tools.RequiredClientScenarios(ctx, leg.Revision)
		if err != nil {
			return lr, err
		}
		lr.Required = req
		selection = []string{"--requirements", leg.Revision}
	case leg.Suite == "all" && !leg.Next:
		known, err := tools.ClientScenarios(ctx)
		if err != nil {
			return lr, err
		}
		lr.Required = Requirements{Scored: known}
		selection = []string{"--suite", leg.Suite}
	case leg.Suite != "":
		if len(leg.Scenarios) == 0 {
			return lr, fmt.Errorf("the client leg %s names no scenarios it must run", leg.Label())
		}
		lr.Required = Requirements{Scored: leg.Scenarios}
		selection = []string{"--suite", leg.Suite}
	default:
		return lr, errors.New("a client leg needs a revision or a suite")
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return lr, err
	}
	timeout := opts.ScenarioTimeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	args := append([]string{"client", "--command", binary}, selection...)
	args = append(args, "--timeout", strconv.FormatInt(timeout.Milliseconds(), 10), "-o", outDir)
	fmt.Fprintf(log, "running the %s suite in client mode\n", leg.Label())
	run, err := tools.runCLI(ctx, args...)
	lr.Run = run
	if err != nil {
		return lr, err
	}
	scenarios, err := ReadClientResults(outDir)
	if err != nil && !errors.Is(err, ErrNoResults) {
		return lr, err
	}
	exitCode := run.ExitCode
	if leg.Suite == "all" && !leg.Next {
		if scenarios, exitCode, err = runSolo(ctx, tools, binary, timeout, outDir, scenarios, exitCode, log); err != nil {
			return lr, err
		}
	}
	lr.Scenarios = scenarios
	lr.Report = JudgeClientLeg(scenarios, lr.Required, leg, exitCode)
	return lr, nil
}

// SoloClientScenarios are the 0.1.16 client scenarios whose checks time the client on
// the suite's wall clock (sse-retry: the reconnection after the retry delay). The CLI
// runs a suite's scenarios in parallel, their mock servers in its one Node process, whose
// event loop, busy with the others, can take the GET of a punctual client half a second
// late. So each of these runs again alone after the suite, into the same output directory,
// and is judged from that run (ReadClientResults keeps the latest).
var SoloClientScenarios = []string{"sse-retry"}

// runSolo runs each of SoloClientScenarios that ran in the suite again alone, and returns
// the results with the solo runs in place and the exit status that goes with them
// (ExitWithoutSolo's, then the solo runs' worst).
func runSolo(ctx context.Context, tools Tools, binary string, timeout time.Duration, outDir string, scenarios []Scenario, exitCode int, log io.Writer) ([]Scenario, int, error) {
	exitCode = ExitWithoutSolo(scenarios, exitCode)
	ran := map[string]bool{}
	for _, s := range scenarios {
		ran[s.Name] = true
	}
	again := false
	for _, name := range SoloClientScenarios {
		if !ran[name] {
			continue
		}
		fmt.Fprintf(log, "running %s again alone\n", name)
		run, err := tools.runCLI(ctx, "client", "--command", binary, "--scenario", name,
			"--timeout", strconv.FormatInt(timeout.Milliseconds(), 10), "-o", outDir)
		if err != nil {
			return scenarios, exitCode, err
		}
		exitCode = max(exitCode, run.ExitCode)
		again = true
	}
	if !again {
		return scenarios, exitCode, nil
	}
	scenarios, err := ReadClientResults(outDir)
	return scenarios, exitCode, err
}

// ExitWithoutSolo returns the exit status of a --suite run with what its
// SoloClientScenarios contributed taken out: 0 when they alone had failing or warning
// checks (the CLI exits non-zero iff any check failed or warned), else exitCode.
func ExitWithoutSolo(scenarios []Scenario, exitCode int) int {
	soloBad := false
	for _, s := range scenarios {
		v := judgeScenario(s)
		if v.Failed == 0 && v.Warnings == 0 {
			continue
		}
		if !slices.Contains(SoloClientScenarios, s.Name) {
			return exitCode
		}
		soloBad = true
	}
	if soloBad {
		return 0
	}
	return exitCode
}

// JudgeClientLeg judges one client leg's results: every scenario req names must have run,
// everything that ran is judged (scored or not), leg.Expectations are excused, and a CLI
// exit status that contradicts the results fails the leg. leg.CheckFaults are taken out
// of their scenarios first and reported as excused (or as failures when stale), and so
// are the warnings of a reconnection late on a busy machine (ExcuseLateReconnects). A
// --requirements leg is judged by JudgeLeg (the CLI exits non-zero iff a scored scenario
// recorded a FAILURE); with --suite the CLI exits non-zero iff any check failed or warned.
func JudgeClientLeg(scenarios []Scenario, req Requirements, leg ClientLeg, exitCode int) Report {
	scenarios, excused, stale := ExcuseChecks(scenarios, leg.CheckFaults)
	scenarios, late := ExcuseLateReconnects(scenarios)
	var r Report
	if leg.Revision != "" {
		r = JudgeLeg(scenarios, req, leg.Expectations, exitCode)
	} else {
		r = judgeSuiteLeg(scenarios, req, leg.Expectations, exitCode, len(late) > 0)
	}
	for _, v := range stale {
		r.add(v)
	}
	r.Excused = append(append(r.Excused, excused...), late...)
	return r
}

// judgeSuiteLeg is JudgeLeg for a --suite run, whose exit status is non-zero iff any
// check of any scenario failed or warned; warned tells that a warning was taken out of
// the scenarios before (ExcuseLateReconnects).
func judgeSuiteLeg(scenarios []Scenario, req Requirements, exps []Expectation, exitCode int, warned bool) Report {
	r := Judge(scenarios, req.All())
	cliFailure := warned
	for _, v := range r.Verdicts {
		cliFailure = cliFailure || v.Failed > 0 || v.Warnings > 0
	}
	r = r.Excuse(exps)
	if exitCode != 0 && !cliFailure {
		r.add(Verdict{Scenario: "(suite)", Outcome: Failed,
			Reason: fmt.Sprintf("the CLI exited %d although no scenario recorded a failing or warning check", exitCode)})
	}
	return r
}

// ClientSuiteFaults lists client scenarios of the pinned suites that cannot pass because
// the suite itself is wrong, each with its reason. None is known.
var ClientSuiteFaults []Expectation
