// Command conformance-suite runs the official MCP conformance suite (server mode) against
// examples/everything served over Streamable HTTP on a free loopback port, prints one line
// per scenario with the first failing or warning check's message, and exits
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
	"time"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance-suite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	suite := fs.String("suite", "all", "scenario set: all, active or pending")
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

	res, err := harness.RunServerSuite(ctx, harness.Options{
		Root: root, Binary: *binary, Suite: *suite, OutDir: outDir, Log: stderr,
	})
	switch {
	case errors.Is(err, harness.ErrNotInstalled):
		fmt.Fprintln(stderr, err)
		return 2
	case errors.Is(err, harness.ErrNeverAnswered):
		fmt.Fprintln(stderr, err)
		return 3
	case err != nil:
		fmt.Fprintln(stderr, err)
		fmt.Fprintf(stderr, "server stderr:\n%s", res.ServerStderr)
		return 1
	}
	for _, line := range res.Report.Lines() {
		fmt.Fprintln(stdout, line)
	}
	if res.Report.Green(*strict) {
		if !keep {
			_ = os.RemoveAll(outDir)
		}
		return 0
	}
	fmt.Fprintf(stdout, "suite output kept in %s\n", outDir)
	return 1
}
