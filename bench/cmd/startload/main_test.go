package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// savedReport is a minimal -format json report.
const savedReport = `{"date":"2026-11-27T00:00:00Z","machine":"go1.26.8 linux/amd64, 2 CPUs","command":"startload -spawns 1",
"settings":{"spawns":1,"sessions":0,"settle_interval_ms":50,"settle_samples":40},
"ours":"schemarpc","servers":["schemarpc"],
"startup":[{"transport":"stdio","protocol":"2025-11-25","servers":[{"server":"schemarpc","spawns":[{"ms":12.5,"peak_rss_mib":15}],
"ms":{"n":1,"min":12.5,"q1":12.5,"median":12.5,"q3":12.5,"max":12.5},
"peak_rss_mib":{"n":1,"min":15,"q1":15,"median":15,"q3":15,"max":15}}]}],
"comparisons":[{"measure":"spawn → first call, ms","where":"stdio 2025-11-25","ours":12.5,"best_peer_value":null,"limit":null,
"ours_over_best_peer":null,"ours_over_limit":null}],"targets":[]}`

func TestFromRendersASavedReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	require.NoError(t, os.WriteFile(path, []byte(savedReport), 0o600))
	var out, errs bytes.Buffer
	require.NoError(t, run([]string{"-from", path, "-format", "markdown"}, &out, &errs))
	assert.Contains(t, out.String(), "| stdio | 2025-11-25 | schemarpc | 12.50 |")
	assert.Contains(t, out.String(), "command: startload -spawns 1", "the saved command line is kept")

	outFile := filepath.Join(t.TempDir(), "run.txt")
	require.NoError(t, run([]string{"-from", path, "-out", outFile}, &out, &errs))
	text, err := os.ReadFile(outFile)
	require.NoError(t, err)
	assert.Contains(t, string(text), "Spawn → first tools/call")
}

func TestRunRejectsBadArguments(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(saved, []byte("{"), 0o600))
	good := filepath.Join(t.TempDir(), "good.json")
	require.NoError(t, os.WriteFile(good, []byte(savedReport), 0o600))
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"an unknown format", []string{"-format", "yaml"}, `unknown format "yaml"`},
		{"a stray argument", []string{"extra"}, "unexpected arguments"},
		{"an unknown flag", []string{"-nope"}, "flag provided but not defined"},
		{"a missing saved report", []string{"-from", filepath.Join(t.TempDir(), "none.json")}, "no such file"},
		{"a broken saved report", []string{"-from", saved}, "bad.json"},
		{"no spawn", []string{"-spawns", "0", "-dir", t.TempDir()}, "spawns must be at least 1"},
		{"an output in a missing directory", []string{"-from", good, "-out", filepath.Join(t.TempDir(), "no", "report.md")}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			assert.ErrorContains(t, run(tt.args, &out, &errs), tt.wantErr)
		})
	}
}
