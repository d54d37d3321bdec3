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
const savedReport = `{"date":"2026-11-22T00:00:00Z","machine":"go1.26.8 linux/amd64, 2 CPUs","command":"mcpload -rounds 1",
"settings":{"rounds":1,"max_calls_per_phase":10,"max_seconds_per_phase":1,"warmup_calls":0,"sessions":1,"pipeline_depth":1,"clock_ticks_per_s":100},
"ours":"schemarpc","servers":["schemarpc"],
"results":[{"transport":"stdio","protocol":"2025-11-25","mode":"sequential","servers":[{"server":"schemarpc",
"rounds":[{"calls":10,"wall_s":1,"cpu_s":0.01,"cpu_ms_per_1000":1,"calls_per_s":10,"p50_us":1,"p90_us":2,"p99_us":3,"peak_rss_mib":5}],
"median":{"calls":10,"wall_s":1,"cpu_s":0.01,"cpu_ms_per_1000":1,"calls_per_s":10,"p50_us":1,"p90_us":2,"p99_us":3,"peak_rss_mib":5},
"cpu_ours_over_theirs":{"rounds":null,"median":null},"throughput_theirs_over_ours":{"rounds":null,"median":null},
"cpu_over_limit":null,"throughput_of_limit":null}]}],"targets":[]}`

func TestFromRendersASavedReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	require.NoError(t, os.WriteFile(path, []byte(savedReport), 0o600))
	var out, errs bytes.Buffer
	require.NoError(t, run([]string{"-from", path, "-format", "markdown"}, &out, &errs))
	assert.Contains(t, out.String(), "### stdio · 2025-11-25 · sequential")
	assert.Contains(t, out.String(), "command: mcpload -rounds 1", "the saved command line is kept")

	outFile := filepath.Join(t.TempDir(), "run.txt")
	require.NoError(t, run([]string{"-from", path, "-out", outFile}, &out, &errs))
	text, err := os.ReadFile(outFile)
	require.NoError(t, err)
	assert.Contains(t, string(text), "stdio · 2025-11-25 · sequential")
}

func TestRunRejectsBadArguments(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(saved, []byte("{"), 0o600))
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
		{"an unknown transport", []string{"-transports", "ws", "-dir", t.TempDir()}, `unknown transport "ws"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			assert.ErrorContains(t, run(tt.args, &out, &errs), tt.wantErr)
		})
	}
}
