package harness

import (
	"fmt"
	"strings"
)

// Outcome is the judgement on one scenario.
type Outcome string

// The outcomes, from best to worst.
const (
	// Passed: at least one graded check succeeded and none failed, warned or was skipped.
	Passed Outcome = "PASS"
	// Warned: no check failed, at least one warned or was skipped.
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
	// Skipped counts the checks the suite did not grade (0.2.0 line).
	Skipped int
	// Info counts the informational checks (neither pass nor fail; a check whose
	// requirement is optional, say).
	Info int
	// Reason is the first failing (else warning, else skipped) check's message, empty for a pass.
	Reason string
	// Excuse is why the verdict does not count (see Report.Excuse); empty for a judged one.
	Excuse string
}

// Report is the judgement on a whole suite run. The totals cover the judged verdicts only.
type Report struct {
	Verdicts []Verdict
	Passed   int
	Failed   int
	Warnings int
	Skipped  int
	Info     int
	// Excused are the verdicts of scenarios an Expectation covers: reported, not judged.
	Excused []Verdict
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
	r.Skipped += v.Skipped
	r.Info += v.Info
}

func judgeScenario(s Scenario) Verdict {
	v := Verdict{Scenario: s.Name}
	var firstFailure, firstWarning, firstSkip string
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
		case StatusInfo:
			v.Info++
		case StatusSkipped:
			v.Skipped++
			if firstSkip == "" {
				firstSkip = "skipped " + describe(c)
			}
		}
	}
	switch {
	case s.Broken != "":
		v.Outcome, v.Reason = Failed, s.Broken
	case v.Failed > 0:
		v.Outcome, v.Reason = Failed, firstFailure
	case v.Warnings > 0:
		v.Outcome, v.Reason = Warned, firstWarning
	case v.Passed == 0:
		v.Outcome, v.Reason = Failed, "no graded check recorded"
	case v.Skipped > 0:
		v.Outcome, v.Reason = Warned, firstSkip
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

// Green reports whether no judged scenario failed; with strict, warnings and skipped
// checks count against it too. Excused verdicts never do.
func (r Report) Green(strict bool) bool {
	for _, v := range r.Verdicts {
		if v.Outcome == Failed || (strict && v.Outcome == Warned) {
			return false
		}
	}
	return true
}

// Lines renders one line per scenario, the excused ones after the judged ones, and a
// closing total (plus one for the excused verdicts, if any).
func (r Report) Lines() []string {
	width := 0
	for _, v := range append(r.Verdicts[:len(r.Verdicts):len(r.Verdicts)], r.Excused...) {
		width = max(width, len(v.Scenario))
	}
	lines := make([]string, 0, len(r.Verdicts)+len(r.Excused)+2)
	for _, v := range r.Verdicts {
		lines = append(lines, verdictLine(v, width, string(v.Outcome)))
	}
	for _, v := range r.Excused {
		lines = append(lines, verdictLine(v, width, "(excused) "+string(v.Outcome)))
	}
	lines = append(lines, "scenarios "+summary(r.Verdicts))
	if len(r.Excused) > 0 {
		lines = append(lines, "excused (not judged): scenarios "+summary(r.Excused))
	}
	return lines
}

func verdictLine(v Verdict, width int, outcome string) string {
	line := fmt.Sprintf("%s  %-*s  %d passed", outcome, width, v.Scenario, v.Passed)
	if v.Failed > 0 {
		line += fmt.Sprintf(", %d failed", v.Failed)
	}
	if v.Warnings > 0 {
		line += fmt.Sprintf(", %d warnings", v.Warnings)
	}
	if v.Skipped > 0 {
		line += fmt.Sprintf(", %d skipped", v.Skipped)
	}
	if v.Info > 0 {
		line += fmt.Sprintf(", %d info", v.Info)
	}
	if v.Reason != "" {
		line += " — " + oneLine(v.Reason)
	}
	if v.Excuse != "" {
		line += " [" + v.Excuse + "]"
	}
	return line
}

// summary counts scenarios by outcome and adds up their checks.
func summary(verdicts []Verdict) string {
	scenarios := map[Outcome]int{}
	var passed, failed, warnings, skipped, info int
	for _, v := range verdicts {
		scenarios[v.Outcome]++
		passed += v.Passed
		failed += v.Failed
		warnings += v.Warnings
		skipped += v.Skipped
		info += v.Info
	}
	s := fmt.Sprintf("%d: %d pass, %d warn, %d fail; checks %d passed, %d failed, %d warnings",
		len(verdicts), scenarios[Passed], scenarios[Warned], scenarios[Failed], passed, failed, warnings)
	if skipped > 0 {
		s += fmt.Sprintf(", %d skipped", skipped)
	}
	if info > 0 {
		s += fmt.Sprintf(", %d info", info)
	}
	return s
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
