package validate

import (
	"fmt"
	"io"
	"strings"
)

// Summary counts what a run checked.
type Summary struct {
	// Files is the number of inputs read.
	Files int `json:"files"`
	// Messages is the number of messages (frames) checked.
	Messages int `json:"messages"`
	// Findings is the number of findings reported.
	Findings int `json:"findings"`
}

// Reporter writes findings in one output format. Findings are written as
// they come, so a long run streams its report in constant memory; Close
// writes what must come last (a summary, closing brackets).
type Reporter interface {
	// Finding writes one finding.
	Finding(f Finding) error
	// Close finishes the report.
	Close(s Summary) error
}

// Formats lists the output formats, in the order they are documented.
var Formats = []string{"text", "json", "github", "sarif"}

// NewReporter returns a Reporter writing the format (text, json, github or
// sarif) to w. tool names the program in SARIF output.
func NewReporter(format string, w io.Writer, tool ToolInfo) (Reporter, error) {
	switch format {
	case "text":
		return &textReporter{w: w}, nil
	case "json":
		return &jsonReporter{w: w}, nil
	case "github":
		return &githubReporter{w: w}, nil
	case "sarif":
		return &sarifReporter{w: w, tool: tool}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// ToolInfo names the program that produced a report.
type ToolInfo struct {
	Name    string
	Version string
	URI     string
}

// codeName names a JSON-RPC error code.
func codeName(code int) string {
	switch code {
	case -32700:
		return "parse error"
	case -32600:
		return "invalid request"
	case -32601:
		return "method not found"
	case -32602:
		return "invalid params"
	case -32603:
		return "invalid result"
	case CodeHeaderMismatch:
		return "header mismatch"
	case CodeUnsupportedVersion:
		return "unsupported protocol version"
	}
	return "error"
}

// subject describes the message a finding is about: "request tools/call".
func subject(f Finding) string {
	s := f.Kind
	if f.Method != "" {
		s += " " + f.Method
	}
	if f.From != Unknown {
		s += " from the " + f.From.String()
	}
	return s
}

// oneLine keeps a reason on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// textReporter writes one line per finding, like a compiler:
// file:line: message N (kind method): code name at pointer: reason.
type textReporter struct {
	w   io.Writer
	err error
}

func (r *textReporter) Finding(f Finding) error {
	loc := f.File
	if f.Line > 0 {
		loc += fmt.Sprintf(":%d", f.Line)
	}
	at := ""
	if f.Pointer != "" {
		at = " at " + f.Pointer
	}
	_, err := fmt.Fprintf(r.w, "%s: message %d (%s): %d %s%s: %s\n", loc, f.Index, subject(f), f.Code, codeName(f.Code), at, oneLine(f.Reason))
	return err
}

func (r *textReporter) Close(s Summary) error {
	_, err := fmt.Fprintf(r.w, "%d %s in %d %s checked, %d %s\n",
		s.Messages, plural(s.Messages, "message", "messages"), s.Files, plural(s.Files, "input", "inputs"),
		s.Findings, plural(s.Findings, "finding", "findings"))
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
