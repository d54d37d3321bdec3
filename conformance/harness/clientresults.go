package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
)

// clientResultDir matches the directories the suite writes in client mode:
// <scenario>-<ISO time with dashes>, where a scenario named auth/x lands in auth/ as x-<time>.
var clientResultDir = regexp.MustCompile(`^(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)

// ClientScenarioName returns the scenario a client-mode result directory belongs to, given
// its path relative to the output directory with forward slashes (auth/x-<time> → auth/x),
// and false for a name the suite does not produce.
func ClientScenarioName(rel string) (string, bool) {
	m := clientResultDir.FindStringSubmatch(rel)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// maxClientStderr bounds how much of a client's stderr a Scenario keeps.
const maxClientStderr = 4 << 10

// ReadClientResults reads the results of a client-mode run under dir: every
// <scenario>-<time>/checks.json at the top and one directory level below it (the auth/
// family), sorted by scenario name, with the client's stderr.txt (its last 4 KiB) in
// Scenario.ClientStderr. A result directory without checks.json is a Broken scenario; an
// unreadable or malformed checks.json is an error; anything else is ignored. When a
// scenario ran more than once, its latest directory wins.
func ReadClientResults(dir string) ([]Scenario, error) {
	top, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading suite output: %w", err)
	}
	latest := map[string]string{} // scenario → its directory relative to dir
	consider := func(rel string) {
		name, ok := ClientScenarioName(rel)
		if !ok {
			return
		}
		if prev, seen := latest[name]; !seen || rel > prev {
			latest[name] = rel
		}
	}
	for _, e := range top {
		if !e.IsDir() {
			continue
		}
		if _, ok := ClientScenarioName(e.Name()); ok {
			consider(e.Name())
			continue
		}
		sub, err := os.ReadDir(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("reading suite output: %w", err)
		}
		for _, s := range sub {
			if s.IsDir() {
				consider(e.Name() + "/" + s.Name())
			}
		}
	}
	if len(latest) == 0 {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoResults)
	}
	scenarios := make([]Scenario, 0, len(latest))
	for name, rel := range latest {
		s, err := readClientScenario(name, filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		scenarios = append(scenarios, s)
	}
	sort.Slice(scenarios, func(i, j int) bool { return scenarios[i].Name < scenarios[j].Name })
	return scenarios, nil
}

// readClientScenario reads one client-mode result directory: its checks and the client's stderr.
func readClientScenario(name, dir string) (Scenario, error) {
	s, err := readScenario(name, dir)
	s.ClientStderr = readTail(filepath.Join(dir, "stderr.txt"), maxClientStderr)
	return s, err
}

// readTail returns the last max bytes of the file at path, "" when it cannot be read.
func readTail(path string, max int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if len(data) > max {
		data = append([]byte("…"), data[len(data)-max:]...)
	}
	return string(data)
}
