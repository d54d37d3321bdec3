package harness_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func TestScenarioNameStripsPrefixAndTimestamp(t *testing.T) {
	tests := []struct {
		dir  string
		want string
		ok   bool
	}{
		{"server-ping-2026-11-21T21-30-14-074Z", "ping", true},
		{"server-server-initialize-2026-11-21T21-30-14-055Z", "server-initialize", true},
		{"server-json-schema-2020-12-2026-01-02T03-04-05-006Z", "json-schema-2020-12", true},
		{"server-ping", "", false},
		{"ping-2026-11-21T21-30-14-074Z", "", false},
		{"checks.json", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			got, ok := harness.ScenarioName(tt.dir)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func writeChecks(t *testing.T, dir, sub, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, sub), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, sub, "checks.json"), []byte(content), 0o644))
}

func TestReadResultsReadsEveryScenarioSortedByName(t *testing.T) {
	dir := t.TempDir()
	writeChecks(t, dir, "server-tools-list-2026-11-21T21-30-14-077Z",
		`[{"id":"tools-list","name":"ToolsList","status":"SUCCESS","timestamp":"x","specReferences":[]}]`)
	writeChecks(t, dir, "server-ping-2026-11-21T21-30-14-074Z",
		`[{"id":"ping","name":"Ping","status":"FAILURE","errorMessage":"Failed: fetch failed"}]`)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o644))

	got, err := harness.ReadResults(dir)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "ping", got[0].Name)
	assert.Equal(t, []harness.Check{{ID: "ping", Name: "Ping", Status: "FAILURE", ErrorMessage: "Failed: fetch failed"}}, got[0].Checks)
	assert.Equal(t, "tools-list", got[1].Name)
}

func TestReadResultsKeepsTheLatestRunOfAScenario(t *testing.T) {
	dir := t.TempDir()
	writeChecks(t, dir, "server-ping-2026-11-21T21-30-14-074Z", `[{"id":"ping","status":"FAILURE"}]`)
	writeChecks(t, dir, "server-ping-2026-11-21T22-00-00-000Z", `[{"id":"ping","status":"SUCCESS"}]`)

	got, err := harness.ReadResults(dir)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "SUCCESS", got[0].Checks[0].Status)
}

func TestReadResultsErrors(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string)
		want    string
	}{
		{"missing directory", func(t *testing.T, dir string) { require.NoError(t, os.Remove(dir)) }, "reading suite output"},
		{"no scenario directory", func(t *testing.T, dir string) {}, "no scenario results"},
		{"unreadable checks.json", func(t *testing.T, dir string) {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "server-ping-2026-11-21T21-30-14-074Z", "checks.json"), 0o755))
		}, "scenario ping"},
		{"malformed checks.json", func(t *testing.T, dir string) {
			writeChecks(t, dir, "server-ping-2026-11-21T21-30-14-074Z", `{"not":"a list"}`)
		}, "scenario ping: checks.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			require.NoError(t, os.Mkdir(dir, 0o755))
			tt.prepare(t, dir)
			_, err := harness.ReadResults(dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestReadResultsWithoutScenariosIsErrNoResults(t *testing.T) {
	_, err := harness.ReadResults(t.TempDir())
	assert.ErrorIs(t, err, harness.ErrNoResults)
}

func TestReadResultsReportsAScenarioWithoutChecksAsBroken(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "server-tasks-lifecycle-2026-11-21T21-30-14-074Z"), 0o755))
	got, err := harness.ReadResults(dir)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "tasks-lifecycle", got[0].Name)
	assert.Empty(t, got[0].Checks)
	assert.Contains(t, got[0].Broken, "no checks.json")
}
