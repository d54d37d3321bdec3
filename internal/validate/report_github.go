package validate

import (
	"fmt"
	"io"
	"strings"
)

// githubReporter writes GitHub Actions workflow commands: one ::error
// annotation per finding, which the checks page shows on the file and line.
type githubReporter struct{ w io.Writer }

func (r *githubReporter) Finding(f Finding) error {
	var props []string
	if f.File != "" && f.File != "-" {
		props = append(props, "file="+escapeProperty(f.File))
		if f.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Line))
		}
	}
	props = append(props, "title="+escapeProperty(fmt.Sprintf("JSON-RPC %d %s", f.Code, codeName(f.Code))))
	at := ""
	if f.Pointer != "" {
		at = " at " + f.Pointer
	}
	msg := fmt.Sprintf("message %d (%s)%s: %s", f.Index, subject(f), at, oneLine(f.Reason))
	_, err := fmt.Fprintf(r.w, "::error %s::%s\n", strings.Join(props, ","), escapeData(msg))
	return err
}

func (r *githubReporter) Close(s Summary) error {
	_, err := fmt.Fprintf(r.w, "::notice title=rpcgen validate::%d messages in %d inputs checked, %d findings\n", s.Messages, s.Files, s.Findings)
	return err
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
