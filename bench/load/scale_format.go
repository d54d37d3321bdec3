package load

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteScale writes a scale-out report as a markdown table or as JSON.
func WriteScale(w io.Writer, rep *ScaleReport, format string) error {
	switch format {
	case FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	case FormatMarkdown:
		return writeScaleMarkdown(w, rep)
	}
	return fmt.Errorf("unknown format %q (want %s or %s)", format, FormatMarkdown, FormatJSON)
}

func writeScaleMarkdown(w io.Writer, rep *ScaleReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s; %d rounds of %s phases, %d sessions (sessions mode), %d in flight (pipelined); medians over the rounds.\n\n",
		rep.Date, rep.Machine, rep.Rounds, rep.Duration, rep.Sessions, rep.Depth)
	b.WriteString("| setup | protocol | mode | calls/s | × first setup | p50 µs | p99 µs | CPU ms / 1000 calls |\n")
	b.WriteString("|---|---|---|--:|--:|--:|--:|--:|\n")
	base := map[string]float64{}
	for _, r := range rep.Rows {
		key := r.Configuration.Protocol + "|" + r.Configuration.Mode
		m := r.Median
		if _, ok := base[key]; !ok {
			base[key] = m.CallsPerSecond
		}
		rel := "—"
		if b := base[key]; b > 0 {
			rel = fmt.Sprintf("%.2f", m.CallsPerSecond/b)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.0f | %s | %.0f | %.0f | %.1f |\n",
			r.Setup, r.Configuration.Protocol, r.Configuration.Mode, m.CallsPerSecond, rel, m.P50, m.P99, m.CPUMsPer1000)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
