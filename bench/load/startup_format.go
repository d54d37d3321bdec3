package load

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteStartup renders a start-up report to w as text, markdown or json.
func WriteStartup(w io.Writer, rep *StartupReport, format string) error {
	switch format {
	case FormatText:
		return writeStartupTables(w, rep, false)
	case FormatMarkdown:
		return writeStartupTables(w, rep, true)
	case FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return fmt.Errorf("unknown format %q (want %s, %s or %s)", format, FormatText, FormatMarkdown, FormatJSON)
}

func writeStartupTables(w io.Writer, rep *StartupReport, markdown bool) error {
	pg := &page{w: w, markdown: markdown}
	s := rep.Settings
	pg.heading(1, "startload "+rep.Date)
	lines := []string{"machine: " + rep.Machine}
	if rep.Load != "" {
		lines = append(lines, "load average (1, 5, 15 min): "+rep.Load)
	}
	if rep.Command != "" {
		lines = append(lines, "command: "+rep.Command)
	}
	lines = append(lines,
		fmt.Sprintf("spawns: %d of each server in each configuration, interleaved, after one unmeasured spawn of each", s.Spawns),
		"spawn → first call: from the spawn of the process to the verified reply to its first tools/call "+
			"(2025-11-25: after initialize and notifications/initialized); peak RSS = VmHWM right after that reply; "+
			"file and anon = the RssFile and RssAnon resident at that moment (the executable and libraries; heap and stacks)",
		"figures: median (q1–q3) and min–max over the spawns",
	)
	pg.para(lines...)

	pg.heading(2, "Spawn → first tools/call")
	t := &table{markdown: markdown}
	t.add("transport", "protocol", "server", "ms", "ms q1–q3", "ms min–max", "peak RSS MiB", "RSS min–max", "file MiB", "anon MiB")
	for _, c := range rep.Startup {
		for _, sr := range c.Servers {
			t.add(c.Transport, c.Protocol, sr.Server, num(sr.Ms.Median, 2, ""), between(sr.Ms.Q1, sr.Ms.Q3, 2),
				between(sr.Ms.Min, sr.Ms.Max, 2), num(sr.PeakRSSMiB.Median, 1, ""), between(sr.PeakRSSMiB.Min, sr.PeakRSSMiB.Max, 1),
				num(sr.FileRSSMiB.Median, 2, ""), num(sr.AnonRSSMiB.Median, 2, ""))
		}
	}
	if err := pg.table(t); err != nil {
		return err
	}

	if len(rep.Memory) > 0 {
		pg.heading(2, fmt.Sprintf("Memory per idle session (%s, %s, %d sessions)", TransportHTTP, Protocol20251125, s.Sessions))
		pg.para(
			"RSS = VmRSS once settled: sampled every "+fmt.Sprintf("%g ms", s.SettleIntervalMs)+
				fmt.Sprintf(" until %d samples in a row lie within %d KiB, at most %d samples", settleRun, settleTolerance>>10, s.SettleSamples),
			"base = after one session and one call; per session = (with the sessions − base) / sessions; "+
				"per stream = (with a GET stream on each − with the sessions) / sessions",
		)
		t := &table{markdown: markdown}
		t.add("server", "base MiB", "sessions MiB", "+ streams MiB", "KiB/session", "KiB/stream", "note")
		for _, m := range rep.Memory {
			note := m.NA
			if note == "" {
				note = m.StreamNA
			}
			if len(m.Unsettled) > 0 {
				note = strings.TrimPrefix(note+"; not settled "+strings.Join(m.Unsettled, ", "), "; ")
			}
			if note == "" {
				note = "—"
			}
			t.add(m.Server, num(m.BaseMiB, 1, ""), num(m.SessionsMiB, 1, ""), num(m.StreamsMiB, 1, ""),
				num(m.PerSessionKiB, 1, ""), num(m.PerStreamKiB, 1, ""), note)
		}
		if err := pg.table(t); err != nil {
			return err
		}
	}

	pg.heading(2, rep.Ours+" beside the best peer and the limit server (medians; less is better)")
	t = &table{markdown: markdown}
	t.add("measure", "where", rep.Ours, "best peer", "limit", "×best peer", "×limit")
	for _, c := range rep.Comparisons {
		best := "—"
		if c.Best.OK() {
			best = c.BestPeer + " " + num(c.Best, 2, "")
		}
		t.add(c.Measure, c.Where, num(c.Ours, 2, ""), best, num(c.Limit, 2, ""), num(c.OverBestPeer, 2, ""), num(c.OverLimit, 2, ""))
	}
	if err := pg.table(t); err != nil {
		return err
	}

	if len(rep.Targets) > 0 {
		pg.heading(2, "Targets (figures vary by machine, nothing fails on them)")
		t := &table{markdown: markdown}
		t.add("status", "goal", "where", "value")
		for _, tg := range rep.Targets {
			t.add(tg.Status, tg.Goal, tg.Where, num(tg.Value, 2, ""))
		}
		if err := pg.table(t); err != nil {
			return err
		}
	}
	return pg.flush()
}

// between formats a range "a–b", or "—" when either end is missing.
func between(a, b Num, prec int) string {
	if !a.OK() || !b.OK() {
		return "—"
	}
	return num(a, prec, "") + "–" + num(b, prec, "")
}
