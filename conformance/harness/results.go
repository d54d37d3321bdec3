package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
)

// Check statuses as the suite writes them in checks.json.
const (
	StatusSuccess = "SUCCESS"
	StatusFailure = "FAILURE"
	StatusWarning = "WARNING"
	StatusInfo    = "INFO"
	// StatusSkipped (0.2.0 line) marks a check the suite did not grade, for instance
	// because the server lacks what the check needs.
	StatusSkipped = "SKIPPED"
)

// Check is one record of a checks.json file.
type Check struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Description  string `json:"description"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	// Details are what the check measured, as the suite wrote them.
	Details json.RawMessage `json:"details,omitempty"`
}

// Scenario is the outcome of one suite scenario: its name and the checks it recorded.
type Scenario struct {
	Name   string
	Checks []Check
	// Broken says why the scenario left no checks behind (the 0.2.0 CLI creates a
	// scenario's directory first and writes no checks.json when the scenario throws).
	Broken string
	// ClientStderr is what the client under test wrote to stderr (client mode only; its
	// last 4 KiB).
	ClientStderr string
}

// resultDir matches the directories the suite writes: server-<scenario>-<ISO time with dashes>.
var resultDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)

// ScenarioName returns the scenario a result directory belongs to, and false for a name
// the suite does not produce.
func ScenarioName(dir string) (string, bool) {
	m := resultDir.FindStringSubmatch(dir)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// ErrNoResults reports an output directory without any scenario result.
var ErrNoResults = errors.New("no scenario results")

// ReadResults reads every server-<scenario>-<time>/checks.json under dir, sorted by
// scenario name. A scenario directory without checks.json is a Broken scenario; one with
// an unreadable or malformed checks.json is an error; entries that are not scenario directories are ignored. When a scenario ran more
// than once, its latest directory wins.
func ReadResults(dir string) ([]Scenario, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading suite output: %w", err)
	}
	latest := map[string]string{}
	for _, e := range entries {
		name, ok := ScenarioName(e.Name())
		if !ok || !e.IsDir() {
			continue
		}
		if prev, seen := latest[name]; !seen || e.Name() > prev {
			latest[name] = e.Name()
		}
	}
	if len(latest) == 0 {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoResults)
	}
	scenarios := make([]Scenario, 0, len(latest))
	for name, sub := range latest {
		s, err := readScenario(name, filepath.Join(dir, sub))
		if err != nil {
			return nil, err
		}
		scenarios = append(scenarios, s)
	}
	sort.Slice(scenarios, func(i, j int) bool { return scenarios[i].Name < scenarios[j].Name })
	return scenarios, nil
}

// readScenario reads the checks.json of scenario name's result directory dir. A directory
// without one is a Broken scenario; an unreadable or malformed one is an error.
func readScenario(name, dir string) (Scenario, error) {
	s := Scenario{Name: name}
	data, err := os.ReadFile(filepath.Join(dir, "checks.json"))
	if errors.Is(err, fs.ErrNotExist) {
		s.Broken = "no checks.json: the scenario broke off (the CLI's output says why)"
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("scenario %s: %w", name, err)
	}
	if err := json.Unmarshal(data, &s.Checks); err != nil {
		return s, fmt.Errorf("scenario %s: checks.json: %w", name, err)
	}
	return s, nil
}
