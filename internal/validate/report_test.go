package validate_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/validate"
	"github.com/schemarpc/schemarpc/rpc"
)

var sampleFindings = []validate.Finding{
	{Position: validate.Position{File: "dir/a b.jsonl", Line: 4, Index: 3}, Pointer: "/params/name", Code: -32602,
		Reason: "got number,\nwant string", Kind: "request", Method: "tools/call", From: validate.FromClient,
		Violations: []rpc.Violation{{InstanceLocation: "/name", KeywordLocation: "https://x/s.json#/properties/name/type", Message: "got number, want string"}}},
	{Position: validate.Position{File: "-", Index: 1}, Code: -32700, Reason: "not JSON: 100% wrong", Kind: "invalid"},
}

func report(t *testing.T, format string, fs []validate.Finding) string {
	t.Helper()
	var b bytes.Buffer
	r, err := validate.NewReporter(format, &b, validate.ToolInfo{Name: "rpcgen", Version: "v1.2.3", URI: "https://example.test/rpcgen"})
	require.NoError(t, err)
	for _, f := range fs {
		require.NoError(t, r.Finding(f))
	}
	require.NoError(t, r.Close(validate.Summary{Files: 2, Messages: 5, Findings: len(fs)}))
	return b.String()
}

func TestTextReportNamesTheMCPVersionCodes(t *testing.T) {
	got := report(t, "text", []validate.Finding{
		{Position: validate.Position{File: "f", Index: 1}, Code: validate.CodeHeaderMismatch, Reason: "r", Kind: "request"},
		{Position: validate.Position{File: "f", Index: 2}, Code: validate.CodeUnsupportedVersion, Reason: "r", Kind: "request"},
	})
	assert.Contains(t, got, "f: message 1 (request): -32020 header mismatch: r\n")
	assert.Contains(t, got, "f: message 2 (request): -32022 unsupported protocol version: r\n")
	assert.Contains(t, report(t, "sarif", []validate.Finding{{Code: validate.CodeUnsupportedVersion, Kind: "request"}}), `"ruleId":"jsonrpc-32022"`)
}

func TestTextReport(t *testing.T) {
	assert.Equal(t, `dir/a b.jsonl:4: message 3 (request tools/call from the client): -32602 invalid params at /params/name: got number, want string
-: message 1 (invalid): -32700 parse error: not JSON: 100% wrong
5 messages in 2 inputs checked, 2 findings
`, report(t, "text", sampleFindings))
	assert.Equal(t, "1 message in 1 input checked, 0 findings\n", func() string {
		var b bytes.Buffer
		r, _ := validate.NewReporter("text", &b, validate.ToolInfo{})
		require.NoError(t, r.Close(validate.Summary{Files: 1, Messages: 1}))
		return b.String()
	}())
}

func TestJSONReport(t *testing.T) {
	for _, fs := range [][]validate.Finding{sampleFindings, nil} {
		var doc struct {
			Findings []map[string]any `json:"findings"`
			Summary  validate.Summary `json:"summary"`
		}
		require.NoError(t, json.Unmarshal([]byte(report(t, "json", fs)), &doc))
		require.Len(t, doc.Findings, len(fs))
		assert.Equal(t, validate.Summary{Files: 2, Messages: 5, Findings: len(fs)}, doc.Summary)
		if len(fs) > 0 {
			f := doc.Findings[0]
			assert.Equal(t, "dir/a b.jsonl", f["file"])
			assert.EqualValues(t, 4, f["line"])
			assert.EqualValues(t, 3, f["index"])
			assert.Equal(t, "/params/name", f["pointer"])
			assert.EqualValues(t, -32602, f["code"])
			assert.Equal(t, "got number, want string", f["reason"], "one line")
			assert.Equal(t, "client", f["from"])
			assert.Len(t, f["violations"], 1)
		}
	}
}

func TestGitHubReport(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(report(t, "github", sampleFindings)), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, "::error file=dir/a b.jsonl,line=4,title=JSON-RPC -32602 invalid params::message 3 (request tools/call from the client) at /params/name: got number, want string", lines[0])
	assert.Equal(t, "::error title=JSON-RPC -32700 parse error::message 1 (invalid): not JSON: 100%25 wrong", lines[1], "stdin has no file; % is escaped")
	assert.True(t, strings.HasPrefix(lines[2], "::notice "))
}

func TestSARIFReport(t *testing.T) {
	for _, fs := range [][]validate.Finding{sampleFindings, nil} {
		var log struct {
			Schema  string `json:"$schema"`
			Version string `json:"version"`
			Runs    []struct {
				Tool struct {
					Driver struct {
						Name, Version string
						Rules         []struct{ ID string }
					}
				}
				Results []struct {
					RuleID    string `json:"ruleId"`
					RuleIndex int    `json:"ruleIndex"`
					Level     string
					Message   struct{ Text string }
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           *struct{ StartLine int }
						}
						LogicalLocations []struct{ FullyQualifiedName string }
					}
				}
			}
		}
		out := report(t, "sarif", fs)
		require.NoError(t, json.Unmarshal([]byte(out), &log), out)
		assert.Equal(t, "2.1.0", log.Version)
		assert.Contains(t, log.Schema, "sarif-schema-2.1.0.json")
		require.Len(t, log.Runs, 1)
		run := log.Runs[0]
		assert.Equal(t, "rpcgen", run.Tool.Driver.Name)
		assert.Equal(t, "v1.2.3", run.Tool.Driver.Version)
		require.Len(t, run.Results, len(fs))
		if len(fs) == 0 {
			continue
		}
		r := run.Results[0]
		assert.Equal(t, "jsonrpc-32602", r.RuleID)
		assert.Equal(t, r.RuleID, run.Tool.Driver.Rules[r.RuleIndex].ID)
		assert.Equal(t, "error", r.Level)
		assert.Equal(t, "dir/a%20b.jsonl", r.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		assert.Equal(t, 4, r.Locations[0].PhysicalLocation.Region.StartLine)
		assert.Equal(t, "/params/name", r.Locations[0].LogicalLocations[0].FullyQualifiedName)
		r = run.Results[1]
		assert.Equal(t, "stdin", r.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		assert.Nil(t, r.Locations[0].PhysicalLocation.Region, "no line, no region")
		assert.Equal(t, r.RuleID, run.Tool.Driver.Rules[r.RuleIndex].ID)
	}
}

func TestUnknownReportFormat(t *testing.T) {
	_, err := validate.NewReporter("xml", &bytes.Buffer{}, validate.ToolInfo{})
	assert.ErrorContains(t, err, "unknown format")
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, assert.AnError }

func TestReportersReturnWriteErrors(t *testing.T) {
	for _, format := range validate.Formats {
		r, err := validate.NewReporter(format, failingWriter{}, validate.ToolInfo{Name: "rpcgen"})
		require.NoError(t, err)
		assert.Error(t, r.Finding(sampleFindings[0]), format)
		assert.Error(t, r.Close(validate.Summary{}), format)
	}
}
