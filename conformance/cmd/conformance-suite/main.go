// Command conformance-suite runs the official MCP conformance suite (server mode) against
// examples/everything served over Streamable HTTP on a free loopback port, prints one line
// per scenario with the first failing or warning check's message, and exits
//
// By default it runs the pinned 0.1.16 suite (-suite all|active|pending). With
// -requirements 2025-11-25,2026-07-28 it runs those legs of the pinned 0.2.0 prerelease
// (conformance/next) one after the other against ONE server process, judging every
// scenario each leg runs, scored or not, except the optional extensions.
//
//	0  every scenario passed (with -strict: and nothing warned)
//	1  a scenario failed, or the run broke
//	2  usage error, or the pinned tools are not installed
//	3  the server never answered HTTP
//
// The suite's result directories are kept (and their location printed) when the run is
// not green; pass -out to keep them always.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance-suite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	suite := fs.String("suite", "all", "scenario set of the 0.1.16 suite: all, active or pending")
	requirements := fs.String("requirements", "", "comma-separated spec revisions (2025-11-25, 2026-07-28): run these legs of the 0.2.0 suite instead")
	out := fs.String("out", "", "directory for the suite's results (default: a temporary one, removed when green)")
	binary := fs.String("binary", "", "a prebuilt examples/everything (default: build it)")
	strict := fs.Bool("strict", true, "count warnings as failures")
	timeout := fs.Duration("timeout", 5*time.Minute, "bound for the whole run")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "unexpected arguments: %v\n", fs.Args())
		return 2
	}
	var legs []harness.Leg
	if *requirements != "" {
		for _, rev := range strings.Split(*requirements, ",") {
			rev = strings.TrimSpace(rev)
			if rev != harness.Revision20251125 && rev != harness.Revision20260728 {
				fmt.Fprintf(stderr, "-requirements: unknown revision %q (want %s or %s)\n", rev, harness.Revision20251125, harness.Revision20260728)
				return 2
			}
			legs = append(legs, harness.Leg{Revision: rev, Expectations: harness.DefaultExpectations()})
		}
	}
	root, err := harness.FindRoot(".")
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	outDir, keep := *out, *out != ""
	if !keep {
		if outDir, err = os.MkdirTemp("", "schemarpc-conformance-out-"); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, *timeout)
	defer cancelTimeout()

	var reports []labelled
	var serverStderr string
	if len(legs) == 0 {
		res, err := harness.RunServerSuite(ctx, harness.Options{
			Root: root, Binary: *binary, Suite: *suite, OutDir: outDir, Log: stderr,
		})
		reports, serverStderr = []labelled{{"--suite " + *suite, res.Report}}, res.ServerStderr
		if code, failed := runError(err, serverStderr, stderr); failed {
			return code
		}
	} else {
		res, err := harness.RunServerLegs(ctx, harness.LegsOptions{
			Root: root, Binary: *binary, Legs: legs, OutDir: outDir, Log: stderr, ServerArgs: harness.LegServerArgs,
		})
		serverStderr = res.ServerStderr
		if code, failed := runError(err, serverStderr, stderr); failed {
			return code
		}
		for _, leg := range res.Legs {
			reports = append(reports, labelled{"--requirements " + leg.Leg.Revision, leg.Report})
		}
	}
	green := true
	for _, r := range reports {
		if len(reports) > 1 {
			fmt.Fprintf(stdout, "== %s\n", r.label)
		}
		for _, line := range r.report.Lines() {
			fmt.Fprintln(stdout, line)
		}
		green = green && r.report.Green(*strict)
	}
	if green {
		if !keep {
			_ = os.RemoveAll(outDir)
		}
		return 0
	}
	fmt.Fprintf(stdout, "suite output kept in %s\n", outDir)
	return 1
}

// labelled is one run's report with the selection that produced it.
type labelled struct {
	label  string
	report harness.Report
}

// runError maps an error of a run to the exit status and message; failed is false when
// there was no error.
func runError(err error, serverStderr string, stderr io.Writer) (code int, failed bool) {
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, harness.ErrNotInstalled):
		fmt.Fprintln(stderr, err)
		return 2, true
	case errors.Is(err, harness.ErrNeverAnswered):
		fmt.Fprintln(stderr, err)
		return 3, true
	default:
		fmt.Fprintln(stderr, err)
		fmt.Fprintf(stderr, "server stderr:\n%s", serverStderr)
		return 1, true
	}
}
