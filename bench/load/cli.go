package load

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// What the commands (mcpload, startload, scaleload) share in reading their
// flags and writing their reports.

// List cuts a comma-separated flag value, dropping empty items.
func List(s string) []string {
	var out []string
	for v := range strings.SplitSeq(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// CheckFormat refuses a -format value other than text, markdown or json.
func CheckFormat(format string) error {
	switch format {
	case FormatText, FormatMarkdown, FormatJSON:
		return nil
	}
	return fmt.Errorf("unknown format %q (want text, markdown or json)", format)
}

// ReadSaved reads into rep a report saved with -format json at path.
func ReadSaved(path string, rep any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, rep); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Emit writes a report with write: to the file out, or to stdout when out
// is empty.
func Emit(out string, stdout io.Writer, write func(io.Writer) error) error {
	if out == "" {
		return write(stdout)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
