package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// PendingScenarios are the server scenarios the 0.1.16 suite runs only with --suite all
// (or pending): they are not part of the active set.
var PendingScenarios = []string{"json-schema-2020-12", "server-sse-polling"}

// SuiteRun is what one run of the conformance CLI produced.
type SuiteRun struct {
	// Output is the CLI's combined stdout and stderr.
	Output string
	// ExitCode is the CLI's exit status (1 when any check failed).
	ExitCode int
}

// RunSuite runs `conformance server --url url --suite suite -o outDir` and waits for it.
// An error means the CLI could not be run at all; failing checks are in the results.
func (t Tools) RunSuite(ctx context.Context, url, suite, outDir string) (SuiteRun, error) {
	return t.runServerMode(ctx, "--url", url, "--suite", suite, "-o", outDir)
}

// runServerMode runs `conformance server ARGS…` and waits for it.
func (t Tools) runServerMode(ctx context.Context, args ...string) (SuiteRun, error) {
	return t.runCLI(ctx, append([]string{"server"}, args...)...)
}

// runCLI runs the conformance CLI with args and waits for it. An error means the CLI
// could not be run at all; a non-zero exit status is only recorded.
func (t Tools) runCLI(ctx context.Context, args ...string) (SuiteRun, error) {
	out, err := t.cli(ctx, args...).CombinedOutput()
	run := SuiteRun{Output: string(out)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && ctx.Err() == nil:
		run.ExitCode = exit.ExitCode()
	default:
		return run, fmt.Errorf("running the conformance suite: %w\n%s", err, out)
	}
	return run, nil
}

// cli returns the command that runs the conformance CLI with args in t.Dir on the pinned Node.
func (t Tools) cli(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, t.Suite(), args...)
	cmd.Dir = t.Dir
	cmd.Env = t.NodeEnv()
	return cmd
}

// ServerScenarios asks the CLI which server scenarios it knows.
func (t Tools) ServerScenarios(ctx context.Context) ([]string, error) {
	return t.listed(ctx, ParseServerScenarios, "server")
}

// ClientScenarios asks the CLI which client scenarios it knows.
func (t Tools) ClientScenarios(ctx context.Context) ([]string, error) {
	return t.listed(ctx, ParseClientScenarios, "client")
}

// listed runs `conformance list` and parses one role's section.
func (t Tools) listed(ctx context.Context, parse func([]byte) []string, role string) ([]string, error) {
	out, err := t.cli(ctx, "list").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("conformance list: %w\n%s", err, out)
	}
	names := parse(out)
	if len(names) == 0 {
		return nil, fmt.Errorf("conformance list: no %s scenarios in its output:\n%s", role, out)
	}
	return names, nil
}

// ParseServerScenarios extracts the names under "Server scenarios" from `conformance list`
// output, where each is a line "  - <name> [<spec versions>]".
func ParseServerScenarios(out []byte) []string { return parseListSection(out, "Server scenarios") }

// ParseClientScenarios extracts the names under "Client scenarios" from `conformance list`
// output, in the same shape as the server section.
func ParseClientScenarios(out []byte) []string { return parseListSection(out, "Client scenarios") }

// parseListSection returns the first word of every "  - " item of the section whose
// heading line starts with header; the section ends at the next unindented line.
func parseListSection(out []byte, header string) []string {
	var names []string
	inSection := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, header):
			inSection = true
		case strings.TrimSpace(line) == "":
		case !strings.HasPrefix(line, " "):
			inSection = false
		case inSection:
			item, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
			if f := strings.Fields(item); ok && len(f) > 0 {
				names = append(names, f[0])
			}
		}
	}
	return names
}

// Expected returns the scenarios a run of suite must produce, given every server scenario
// the CLI knows: all of them for "all", all but the pending ones for "active", and none
// (no expectation) for any other selection.
func Expected(suite string, known []string) []string {
	switch suite {
	case "all":
		return known
	case "active":
		var active []string
		for _, name := range known {
			if !slices.Contains(PendingScenarios, name) {
				active = append(active, name)
			}
		}
		return active
	default:
		return nil
	}
}
