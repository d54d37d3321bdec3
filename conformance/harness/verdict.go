package harness

import (
	"fmt"
	"strings"
)

// Outcome is the judgement on one scenario.
type Outcome string

// The outcomes, from best to worst.
const (
	// Passed: at least one graded check succeeded and none failed or warned.
	Passed Outcome = "PASS"
	// Warned: no check failed, at least one warned.
	Warned Outcome = "WARN"
	// Failed: a check failed, the scenario recorded no graded check at all, or it is
	// missing from the output although the suite should have run it.
	Failed Outcome = "FAIL"
)

// Verdict is one scenario's outcome with its counts and the message that explains it.
type Verdict struct {
	Scenario string
	Outcome  Outcome
	Passed   int
	Failed   int
	Warnings int
	// Reason is the first failing (else warning) check's message, empty for a pass.
	Reason string
}

// Report is the judgement on a whole suite run.
type Report struct {
	Verdicts []Verdict
	Passed   int
	Failed   int
	Warnings int
}

// Judge turns scenario results into verdicts. Every name in expected that has no result
// becomes a failed verdict, so a scenario that silently did not run cannot look green.
func Judge(scenarios []Scenario, expected []string) Report {
	var r Report
	seen := map[string]bool{}
	for _, s := range scenarios {
		seen[s.Name] = true
		r.add(judgeScenario(s))
	}
	for _, name := range expected {
		if !seen[name] {
			r.add(Verdict{Scenario: name, Outcome: Failed, Reason: "no result: the scenario did not run"})
		}
	}
	return r
}

func (r *Report) add(v Verdict) {
	r.Verdicts = append(r.Verdicts, v)
	r.Passed += v.Passed
	r.Failed += v.Failed
	r.Warnings += v.Warnings
}

func judgeScenario(s Scenario) Verdict {
	v := Verdict{Scenario: s.Name}
	var firstFailure, firstWarning string
	for _, c := range s.Checks {
		switch c.Status {
		case StatusSuccess:
			v.Passed++
		case StatusFailure:
			v.Failed++
			if firstFailure == "" {
				firstFailure = describe(c)
			}
		case StatusWarning:
			v.Warnings++
			if firstWarning == "" {
				firstWarning = describe(c)
			}
		}
	}
	switch {
	case v.Failed > 0:
		v.Outcome, v.Reason = Failed, firstFailure
	case v.Warnings > 0:
		v.Outcome, v.Reason = Warned, firstWarning
	case v.Passed == 0:
		v.Outcome, v.Reason = Failed, "no graded check recorded"
	default:
		v.Outcome = Passed
	}
	return v
}

func describe(c Check) string {
	msg := c.ErrorMessage
	if msg == "" {
		msg = c.Description
	}
	return fmt.Sprintf("%s: %s", c.ID, msg)
}

// Green reports whether no scenario failed; with strict, warnings count against it too.
func (r Report) Green(strict bool) bool {
	for _, v := range r.Verdicts {
		if v.Outcome == Failed || (strict && v.Outcome == Warned) {
			return false
		}
	}
	return true
}

// Lines renders one line per scenario and a closing total.
func (r Report) Lines() []string {
	width := 0
	for _, v := range r.Verdicts {
		width = max(width, len(v.Scenario))
	}
	lines := make([]string, 0, len(r.Verdicts)+1)
	scenarios := map[Outcome]int{}
	for _, v := range r.Verdicts {
		scenarios[v.Outcome]++
		line := fmt.Sprintf("%s  %-*s  %d passed", v.Outcome, width, v.Scenario, v.Passed)
		if v.Failed > 0 {
			line += fmt.Sprintf(", %d failed", v.Failed)
		}
		if v.Warnings > 0 {
			line += fmt.Sprintf(", %d warnings", v.Warnings)
		}
		if v.Reason != "" {
			line += " — " + oneLine(v.Reason)
		}
		lines = append(lines, line)
	}
	lines = append(lines, fmt.Sprintf("scenarios %d: %d pass, %d warn, %d fail; checks %d passed, %d failed, %d warnings",
		len(r.Verdicts), scenarios[Passed], scenarios[Warned], scenarios[Failed], r.Passed, r.Failed, r.Warnings))
	return lines
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
