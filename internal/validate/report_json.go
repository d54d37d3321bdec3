package validate

import (
	"encoding/json"
	"io"

	"github.com/schemarpc/schemarpc/rpc"
)

// jsonFinding is the JSON form of a finding.
type jsonFinding struct {
	File       string          `json:"file"`
	Line       int             `json:"line,omitempty"`
	Index      int             `json:"index"`
	Pointer    string          `json:"pointer"`
	Code       int             `json:"code"`
	Reason     string          `json:"reason"`
	Kind       string          `json:"kind"`
	Method     string          `json:"method,omitempty"`
	From       string          `json:"from,omitempty"`
	Violations []rpc.Violation `json:"violations,omitempty"`
}

func toJSON(f Finding) jsonFinding {
	j := jsonFinding{File: f.File, Line: f.Line, Index: f.Index, Pointer: f.Pointer, Code: f.Code,
		Reason: oneLine(f.Reason), Kind: f.Kind, Method: f.Method, Violations: f.Violations}
	if f.From != Unknown {
		j.From = f.From.String()
	}
	return j
}

// jsonReporter writes one JSON document, {"findings": [...], "summary":
// {...}}, streaming the findings as they come.
type jsonReporter struct {
	w     io.Writer
	count int
}

func (r *jsonReporter) Finding(f Finding) error {
	sep := ",\n  "
	if r.count == 0 {
		sep = "{\"findings\": [\n  "
	}
	r.count++
	b, err := json.Marshal(toJSON(f))
	if err != nil {
		return err
	}
	if _, err := io.WriteString(r.w, sep); err != nil {
		return err
	}
	_, err = r.w.Write(b)
	return err
}

func (r *jsonReporter) Close(s Summary) error {
	head := "\n],\n"
	if r.count == 0 {
		head = "{\"findings\": [],\n"
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = io.WriteString(r.w, head+"\"summary\": "+string(b)+"}\n")
	return err
}
