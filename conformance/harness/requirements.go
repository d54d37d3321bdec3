package harness

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
)

// The spec revisions whose frozen requirement sets the 0.2.0 suite runs: the handshake
// era (initialize and sessions) and the stateless protocol.
const (
	Revision20251125 = "2025-11-25"
	Revision20260728 = "2026-07-28"
)

// Requirements are the server scenarios one spec revision's requirement set runs.
type Requirements struct {
	// Scored scenarios decide the CLI's exit code.
	Scored []string
	// Unscored scenarios (extensions, pending, added after the release) run and are
	// reported, but never change the exit code.
	Unscored []string
}

// All returns the scored scenarios followed by the unscored ones.
func (r Requirements) All() []string {
	return append(r.Scored[:len(r.Scored):len(r.Scored)], r.Unscored...)
}

// IsScored reports whether name is one of the scored scenarios.
func (r Requirements) IsScored(name string) bool {
	for _, s := range r.Scored {
		if s == name {
			return true
		}
	}
	return false
}

// RequiredScenarios asks the CLI (0.2.0 line) which server scenarios the requirement set
// of revision runs.
func (t Tools) RequiredScenarios(ctx context.Context, revision string) (Requirements, error) {
	return t.required(ctx, revision, ParseRequirements, "server")
}

// RequiredClientScenarios asks the CLI (0.2.0 line) which client scenarios the
// requirement set of revision runs.
func (t Tools) RequiredClientScenarios(ctx context.Context, revision string) (Requirements, error) {
	return t.required(ctx, revision, ParseClientRequirements, "client")
}

// required runs `conformance list --requirements revision` and parses one role's part.
func (t Tools) required(ctx context.Context, revision string, parse func([]byte) Requirements, role string) (Requirements, error) {
	out, err := t.cli(ctx, "list", "--requirements", revision).CombinedOutput()
	if err != nil {
		return Requirements{}, fmt.Errorf("conformance list --requirements %s: %w\n%s", revision, err, out)
	}
	req := parse(out)
	if len(req.Scored) == 0 {
		return req, fmt.Errorf("conformance list --requirements %s: no %s scenarios in its output:\n%s", revision, role, out)
	}
	return req, nil
}

// ParseRequirements reads `conformance list --requirements REV` output: the scored names
// are the items under "Server scenarios", the unscored ones the items tagged [server]
// under "Run and reported, but never scored" (grouped there by why they are not scored).
func ParseRequirements(out []byte) Requirements { return parseRequirements(out, "server") }

// ParseClientRequirements reads the client side of the same output: the items under
// "Client scenarios" are scored, the ones tagged [client] are not.
func ParseClientRequirements(out []byte) Requirements { return parseRequirements(out, "client") }

// parseRequirements reads the scored and unscored scenarios of one role ("server" or
// "client") from `conformance list --requirements REV` output.
func parseRequirements(out []byte, role string) Requirements {
	req := Requirements{Scored: parseListSection(out, strings.ToUpper(role[:1])+role[1:]+" scenarios")}
	tag := "[" + role + "]"
	inUnscored := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Run and reported, but never scored"):
			inUnscored = true
		case strings.TrimSpace(line) == "":
		case !strings.HasPrefix(line, " "):
			inUnscored = false
		case inUnscored:
			item, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
			if f := strings.Fields(item); ok && len(f) == 2 && f[1] == tag {
				req.Unscored = append(req.Unscored, f[0])
			}
		}
	}
	return req
}

// RunRequirements runs `conformance server --url url --requirements revision -o outDir`
// (0.2.0 line) and waits for it. An error means the CLI could not be run at all; failing
// checks are in the results.
func (t Tools) RunRequirements(ctx context.Context, url, revision, outDir string) (SuiteRun, error) {
	return t.runServerMode(ctx, "--url", url, "--requirements", revision, "-o", outDir)
}
