package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// monitor is where the proxy's messages are checked: it serialises the
// checkers of every conversation, numbers the messages of each direction,
// writes findings to the report as they come and records the transcript.
type monitor struct {
	set *validate.Set
	max int

	mu         sync.Mutex
	rep        validate.Reporter
	closers    []io.Closer // the report and transcript files
	transcript io.Writer   // nil without --transcript
	record     []byte      // reused to build one transcript record
	index      [3]int      // messages seen, by sender
	sum        validate.Summary
	err        error // the first failure to write the report or transcript
}

// openMonitor opens the report (stderr unless --report) and the
// transcript.
func openMonitor(cfg proxyConfig, set *validate.Set, stderr io.Writer) (*monitor, error) {
	m := &monitor{set: set, max: cfg.maxMessage}
	w := stderr
	if cfg.report != "" {
		f, err := os.Create(cfg.report)
		if err != nil {
			return nil, fmt.Errorf("--report: %w", err)
		}
		m.closers = append(m.closers, f)
		w = f
	}
	if cfg.transcript != "" {
		f, err := os.Create(cfg.transcript)
		if err != nil {
			m.closeFiles()
			return nil, fmt.Errorf("--transcript: %w", err)
		}
		m.closers = append(m.closers, f)
		m.transcript = f
	}
	rep, err := validate.NewReporter(cfg.format, w, validate.ToolInfo{Name: "rpcgen", Version: buildVersion(), URI: "https://github.com/schemarpc/schemarpc"})
	if err != nil {
		m.closeFiles()
		return nil, err
	}
	m.rep = rep
	// Both directions count as inputs, even when one stays silent.
	m.sum.Files = 2
	return m, nil
}

// check checks one message (or batch) that from sent in the conversation
// c, reports its findings and records it in the transcript. session, when
// known, labels the transcript record; version is the MCP-Protocol-Version
// header that came with a client's message over HTTP, "" when none did.
func (m *monitor) check(c *validate.Checker, msg []byte, from validate.Direction, session, version string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.report(c.CheckItem(validate.Item{Position: m.next(from), Bytes: msg, ProtocolVersion: version}, from))
	if m.transcript != nil && json.Valid(msg) {
		m.writeRecord(msg, from, session, version)
	}
}

// tooLong reports a message longer than the bound, which is forwarded but
// neither checked nor recorded.
func (m *monitor) tooLong(c *validate.Checker, from validate.Direction) {
	m.mu.Lock()
	defer m.mu.Unlock()
	at := m.next(from)
	m.report(c.CheckItem(validate.Item{Position: at, Broken: validate.TooLong(m.max)}, from))
}

// next numbers the next message from a side.
func (m *monitor) next(from validate.Direction) validate.Position {
	m.index[from]++
	m.sum.Messages++
	return validate.Position{File: from.String(), Index: m.index[from]}
}

func (m *monitor) report(fs []validate.Finding) {
	for _, f := range fs {
		m.sum.Findings++
		if err := m.rep.Finding(f); err != nil && m.err == nil {
			m.err = fmt.Errorf("writing the report: %w", err)
		}
	}
}

// writeRecord appends {"from":…,"session":…,"protocolVersion":…,"message":…}
// to the transcript, the message's bytes as they travelled.
func (m *monitor) writeRecord(msg []byte, from validate.Direction, session, version string) {
	b := validate.AppendRecord(m.record[:0], msg, from, session, version)
	if _, err := m.transcript.Write(b); err != nil && m.err == nil {
		m.err = fmt.Errorf("writing the transcript: %w", err)
	}
	if cap(b) <= 1<<20 {
		m.record = b // keep a small buffer, not the largest message ever seen
	}
}

// findings returns how many findings were reported so far.
func (m *monitor) findings() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sum.Findings
}

// close finishes the report with its summary and closes the files. It
// returns the summary and the first error met writing them.
func (m *monitor) close() (validate.Summary, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.err
	if cerr := m.rep.Close(m.sum); cerr != nil && err == nil {
		err = fmt.Errorf("writing the report: %w", cerr)
	}
	if cerr := m.closeFiles(); cerr != nil && err == nil {
		err = cerr
	}
	return m.sum, err
}

func (m *monitor) closeFiles() error {
	var errs []error
	for _, c := range m.closers {
		errs = append(errs, c.Close())
	}
	m.closers = nil
	return errors.Join(errs...)
}
