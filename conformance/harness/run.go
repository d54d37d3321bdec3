package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// EverythingPackage is the server the suite and the interop clients drive.
const EverythingPackage = "./examples/everything"

// Options configure RunServerSuite.
type Options struct {
	// Root is the repository root.
	Root string
	// Binary is a prebuilt examples/everything; empty means build it into a temporary directory.
	Binary string
	// Suite selects the scenarios: "all", "active" or "pending".
	Suite string
	// OutDir receives the suite's result directories; empty means a temporary directory.
	OutDir string
	// Log receives progress messages; nil discards them.
	Log io.Writer
	// StartTimeout bounds the wait for the server to answer HTTP (default 15 s).
	StartTimeout time.Duration
}

// SuiteResult is the outcome of RunServerSuite.
type SuiteResult struct {
	Report Report
	// Run is the CLI's output and exit status.
	Run SuiteRun
	// OutDir is where the result directories are.
	OutDir string
	// ServerStderr is what the server logged.
	ServerStderr string
}

// RunServerSuite builds (unless given) and starts examples/everything with -http on a free
// loopback port, waits until it answers, runs the conformance suite against
// http://ADDR/mcp, judges the results and stops the server. An error wrapping
// ErrNeverAnswered means the server did not come up; any other error means the run
// itself broke. Failing scenarios are reported in the result, not as an error.
func RunServerSuite(ctx context.Context, opts Options) (res SuiteResult, err error) {
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	tools := ToolsAt(opts.Root)
	if err := tools.CheckNode(); err != nil {
		return res, err
	}
	work, err := os.MkdirTemp("", "schemarpc-conformance-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(work)

	known, err := tools.ServerScenarios(ctx)
	if err != nil {
		return res, err
	}
	server, url, err := startEverything(ctx, opts.Root, opts.Binary, work, opts.StartTimeout, log)
	if server != nil {
		defer func() {
			server.Stop()
			res.ServerStderr = server.Stderr()
		}()
	}
	if err != nil {
		return res, err
	}
	res.OutDir = opts.OutDir
	if res.OutDir == "" {
		res.OutDir = work
	}
	fmt.Fprintf(log, "running the conformance suite (--suite %s) against %s\n", opts.Suite, url)
	if res.Run, err = tools.RunSuite(ctx, url, opts.Suite, res.OutDir); err != nil {
		return res, err
	}
	scenarios, err := ReadResults(res.OutDir)
	if err != nil && !errors.Is(err, ErrNoResults) {
		return res, err
	}
	res.Report = Judge(scenarios, Expected(opts.Suite, known))
	if res.Run.ExitCode != 0 && res.Report.Green(false) {
		res.Report.add(Verdict{Scenario: "(suite)", Outcome: Failed,
			Reason: fmt.Sprintf("the CLI exited %d although no check failed", res.Run.ExitCode)})
	}
	if server.Exited() {
		res.Report.add(Verdict{Scenario: "(server)", Outcome: Failed, Reason: "the server exited during the run"})
	}
	return res, nil
}

// startEverything builds examples/everything into work unless binary is given, starts it
// with -http on a free loopback port and args (no era flag: one process serves both eras), and
// waits until http://ADDR/mcp answers. A non-nil process is returned whenever one was
// started, also together with an error, so that the caller stops it and reads its stderr.
func startEverything(ctx context.Context, root, binary, work string, startTimeout time.Duration, log io.Writer, args ...string) (*Process, string, error) {
	if binary == "" {
		fmt.Fprintf(log, "building %s\n", EverythingPackage)
		var err error
		if binary, err = Build(ctx, root, EverythingPackage, work); err != nil {
			return nil, "", err
		}
	}
	addr, err := FreeAddr()
	if err != nil {
		return nil, "", err
	}
	url := "http://" + addr + "/mcp"
	server, err := Start(ctx, binary, append([]string{"-http", addr}, args...)...)
	if err != nil {
		return nil, "", err
	}
	if startTimeout == 0 {
		startTimeout = 15 * time.Second
	}
	waitCtx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	return server, url, WaitHTTP(waitCtx, server, url)
}
