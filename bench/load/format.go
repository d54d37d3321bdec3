package load

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Output formats.
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Write renders rep to w as text, markdown or json.
func Write(w io.Writer, rep *Report, format string) error {
	switch format {
	case FormatText:
		return writeTables(w, rep, false)
	case FormatMarkdown:
		return writeTables(w, rep, true)
	case FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return fmt.Errorf("unknown format %q (want %s, %s or %s)", format, FormatText, FormatMarkdown, FormatJSON)
}

// table collects rows and prints them aligned (text) or as a markdown table.
type table struct {
	markdown bool
	rows     [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) error {
	if t.markdown {
		var b strings.Builder
		for i, row := range t.rows {
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
			if i == 0 {
				b.WriteString("|" + strings.Repeat("---|", len(row)) + "\n")
			}
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, row := range t.rows {
		fmt.Fprint(tw, strings.Join(row, "\t")+"\t\n")
	}
	return tw.Flush()
}

// page writes a report's headings and paragraphs as plain text or
// markdown, buffered until flush.
type page struct {
	w        io.Writer
	markdown bool
	b        strings.Builder
}

// heading adds a heading; level 1 is a report's title.
func (p *page) heading(level int, s string) {
	if p.markdown {
		fmt.Fprintf(&p.b, "%s %s\n\n", strings.Repeat("#", level+2), s)
	} else {
		fmt.Fprintf(&p.b, "%s\n\n", s)
	}
}

// para adds lines as one paragraph (with hard line breaks in markdown).
func (p *page) para(lines ...string) {
	for _, l := range lines {
		if p.markdown {
			p.b.WriteString(l + "  \n")
		} else {
			p.b.WriteString(l + "\n")
		}
	}
	p.b.WriteString("\n")
}

// flush writes what was added since the last flush.
func (p *page) flush() error {
	_, err := io.WriteString(p.w, p.b.String())
	p.b.Reset()
	return err
}

// table writes t after what the page holds, then a blank line.
func (p *page) table(t *table) error {
	if err := p.flush(); err != nil {
		return err
	}
	if err := t.write(p.w); err != nil {
		return err
	}
	_, err := io.WriteString(p.w, "\n")
	return err
}

func writeTables(w io.Writer, rep *Report, markdown bool) error {
	pg := &page{w: w, markdown: markdown}
	heading, para, flush := pg.heading, pg.para, pg.flush

	s := rep.Settings
	heading(1, "mcpload "+rep.Date)
	lines := []string{
		"machine: " + rep.Machine + fmt.Sprintf(", %d clock ticks/s", s.ClockTicks),
	}
	if rep.Load != "" {
		lines = append(lines, "load average (1, 5, 15 min): "+rep.Load)
	}
	if rep.Command != "" {
		lines = append(lines, "command: "+rep.Command)
	}
	lines = append(lines,
		fmt.Sprintf("rounds: %d; each phase: at most %d calls and %gs, after %d warm-up calls; pipelined: %d in flight; sessions: %d",
			s.Rounds, s.Calls, s.DurationSec, s.Warmup, s.Depth, s.Sessions),
		"figures: medians over the rounds; CPU = server user+system CPU ms per 1000 calls; RSS = peak (VmHWM)",
		"ratios to "+rep.Ours+" per round, then → median: CPU ours/theirs and calls/s theirs/ours, so below 1 ours is better in both",
		"×limit = CPU per call over the limit server's; %limit = calls/s as a share of the limit server's",
	)
	para(lines...)
	if err := flush(); err != nil {
		return err
	}
	for _, c := range rep.Results {
		heading(2, c.Transport+" · "+c.Protocol+" · "+c.Mode)
		if err := flush(); err != nil {
			return err
		}
		t := &table{markdown: markdown}
		t.add("server", "calls/s", "CPU ms/1k", "p50 µs", "p90 µs", "p99 µs", "RSS MiB", "×limit", "%limit",
			"CPU ours/theirs", "calls/s theirs/ours")
		for _, sr := range c.Servers {
			m := sr.Median
			t.add(sr.Server, strconv.FormatFloat(m.CallsPerSecond, 'f', 0, 64), fixed(m.CPUMsPer1000, 2),
				fixed(m.P50, 1), fixed(m.P90, 1), fixed(m.P99, 1), fixed(m.PeakRSSMiB, 1),
				num(sr.CPUOverLimit, 2, ""), percent(sr.ThroughputOfLimit),
				ratioCell(sr, rep.Ours, sr.CPURatio), ratioCell(sr, rep.Ours, sr.ThroughputRatio))
		}
		if err := t.write(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if len(rep.Targets) > 0 {
		heading(1, "Targets ("+rep.Ours+" against mcpgo; figures vary by machine, nothing fails on them)")
		if err := flush(); err != nil {
			return err
		}
		t := &table{markdown: markdown}
		t.add("status", "goal", "where", "server", "value")
		for _, tg := range rep.Targets {
			t.add(tg.Status, tg.Goal, tg.Where, tg.Server, num(tg.Value, 2, ""))
		}
		if err := t.write(w); err != nil {
			return err
		}
	}
	return nil
}

func fixed(f float64, prec int) string { return strconv.FormatFloat(f, 'f', prec, 64) }

// num formats n, or "—" when it is missing.
func num(n Num, prec int, suffix string) string {
	if !n.OK() {
		return "—"
	}
	return fixed(float64(n), prec) + suffix
}

func percent(n Num) string {
	if !n.OK() {
		return "—"
	}
	return fixed(float64(n)*100, 0) + "%"
}

// ratioCell lists the per-round ratios and their median, or "—" for ours.
func ratioCell(sr ServerResult, ours string, r Ratio) string {
	if sr.Server == ours || len(r.Rounds) == 0 {
		return "—"
	}
	parts := make([]string, len(r.Rounds))
	for i, x := range r.Rounds {
		parts[i] = num(x, 2, "")
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, " ") + " → " + num(r.Median, 2, "")
}
