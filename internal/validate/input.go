package validate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// InputMode says how an input holds its messages.
type InputMode int

// The input modes.
const (
	// Auto tells the layouts apart: a .jsonl or .ndjson file is JSON
	// Lines; otherwise an input whose first line is one complete JSON
	// value followed by more is JSON Lines, and anything else is one JSON
	// document.
	Auto InputMode = iota
	// JSONLines: one message (or batch) per line; blank lines are skipped.
	JSONLines
	// Document: one JSON document: an object is one message, an array is
	// a list of messages (each of which may itself be a batch).
	Document
	// Message: the whole input is one frame, so an array is one batch.
	Message
)

// ParseInputMode reads auto, jsonl, json or message.
func ParseInputMode(s string) (InputMode, error) {
	switch s {
	case "auto":
		return Auto, nil
	case "jsonl":
		return JSONLines, nil
	case "json":
		return Document, nil
	case "message":
		return Message, nil
	}
	return Auto, fmt.Errorf("unknown input mode %q (want auto, jsonl, json or message)", s)
}

// DefaultMaxMessage is the default bound on one message's size.
const DefaultMaxMessage = 64 << 20

// TooLong is the reason given for a message longer than max bytes, which
// is skipped without being held whole.
func TooLong(max int) string { return fmt.Sprintf("a message longer than %d bytes", max) }

// Item is one message read from an input.
type Item struct {
	Position
	// Bytes are the message as read.
	Bytes []byte
	// From is the sender a transcript record names; Unknown otherwise.
	From Direction
	// Session is the conversation a transcript record names ("session",
	// as rpcgen proxy writes for Streamable HTTP); "" otherwise.
	Session string
	// ProtocolVersion is the MCP-Protocol-Version header of the Streamable
	// HTTP request that carried a client's message, as a transcript record
	// names it ("protocolVersion"); "" when there was none.
	ProtocolVersion string
	// Broken, when set, says why the input could not be read as a message
	// here (not JSON, too large, a malformed record); Bytes may be empty.
	Broken string
}

// Read reads the messages of r in the given mode and calls fn with each, in
// order, holding one message in memory at a time. name labels positions.
// It stops at the first error fn returns, and returns read errors; bytes
// that are not JSON are Broken items, not errors.
//
// In JSON Lines, a line may be a transcript record instead of a bare
// message: an object with "message" (the message), "from" ("client" or
// "server"), optionally "session" (a conversation's name) and
// "protocolVersion" (the MCP-Protocol-Version header that came with it), and
// no "jsonrpc". Other members of a record are ignored.
func Read(r io.Reader, name string, mode InputMode, maxSize int, fn func(Item) error) error {
	if maxSize <= 0 {
		maxSize = DefaultMaxMessage
	}
	lt := &lineTracker{r: r}
	br := bufio.NewReaderSize(lt, 64<<10)
	if mode == Auto {
		switch strings.ToLower(filepath.Ext(name)) {
		case ".jsonl", ".ndjson":
			mode = JSONLines
		}
	}
	rd := &reader{name: name, br: br, lt: lt, max: maxSize, fn: fn}
	switch mode {
	case JSONLines:
		return rd.lines()
	case Message:
		return rd.whole(false)
	case Document:
		return rd.whole(true)
	}
	return rd.auto()
}

type reader struct {
	name  string
	br    *bufio.Reader
	lt    *lineTracker
	max   int
	fn    func(Item) error
	index int
	line  int // lines consumed so far (lines mode)
}

func (rd *reader) emit(it Item) error {
	rd.index++
	it.File, it.Index = rd.name, rd.index
	return rd.fn(it)
}

// readLine returns the next line without its newline, or, for a line longer
// than max, nil and too=true after skipping it.
func (rd *reader) readLine() (line []byte, too bool, err error) {
	var buf []byte
	for {
		chunk, err := rd.br.ReadSlice('\n')
		if len(buf)+len(chunk) > rd.max+1 { // +1: the newline
			too = true
			buf = nil
		} else if !too {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && (len(buf) > 0 || too) && errors.Is(err, io.EOF) {
			return bytes.TrimRight(buf, "\r\n"), too, nil
		}
		if err != nil {
			return nil, false, err
		}
		return bytes.TrimRight(buf, "\r\n"), too, nil
	}
}

// lines reads JSON Lines.
func (rd *reader) lines() error {
	for {
		line, too, err := rd.readLine()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		rd.line++
		if too {
			if err := rd.emit(Item{Position: Position{Line: rd.line}, Broken: TooLong(rd.max)}); err != nil {
				return err
			}
			continue
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		it := Item{Position: Position{Line: rd.line}, Bytes: trimmed}
		record(&it)
		if err := rd.emit(it); err != nil {
			return err
		}
	}
}

// record unwraps a transcript record in place.
func record(it *Item) {
	if len(it.Bytes) == 0 || it.Bytes[0] != '{' || !bytes.Contains(it.Bytes, []byte(`"message"`)) {
		return
	}
	var rec map[string]json.RawMessage
	if json.Unmarshal(it.Bytes, &rec) != nil {
		return // not JSON: the checker says so
	}
	msg, ok := rec["message"]
	if _, bare := rec["jsonrpc"]; !ok || bare {
		return
	}
	it.Bytes = msg
	if raw, ok := rec["session"]; ok {
		if json.Unmarshal(raw, &it.Session) != nil {
			it.Broken = fmt.Sprintf("a transcript record whose session is %s, not a string", raw)
			return
		}
	}
	if raw, ok := rec["protocolVersion"]; ok {
		if json.Unmarshal(raw, &it.ProtocolVersion) != nil {
			it.Broken = fmt.Sprintf("a transcript record whose protocolVersion is %s, not a string", raw)
			return
		}
	}
	if raw, ok := rec["from"]; ok {
		var from string
		d, ok := Unknown, false
		if json.Unmarshal(raw, &from) == nil {
			d, ok = ParseDirection(from)
		}
		if !ok {
			it.Broken = fmt.Sprintf("a transcript record whose from is %s, not \"client\" or \"server\"", raw)
			return
		}
		it.From = d
	}
}

// auto reads the first line to tell JSON Lines from one document.
func (rd *reader) auto() error {
	// Skip leading blank lines, counting them.
	skipped := 0
	for {
		b, err := rd.br.Peek(1)
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if len(b) == 0 {
			return nil // empty input: no messages
		}
		if b[0] == '\n' {
			skipped++
		}
		if b[0] != ' ' && b[0] != '\t' && b[0] != '\r' && b[0] != '\n' {
			break
		}
		rd.br.ReadByte()
	}
	// Peek the first line without consuming it: one complete value with
	// more after it means JSON Lines.
	n, scanned := -1, 0
	for {
		b, err := rd.br.Peek(min(rd.br.Buffered()+1, rd.br.Size()))
		if i := bytes.IndexByte(b[scanned:], '\n'); i >= 0 {
			n = scanned + i
			break
		}
		if err != nil || len(b) == rd.br.Size() {
			break // one line filling the buffer, or no newline at all
		}
		scanned = len(b)
	}
	if n >= 0 {
		b, _ := rd.br.Peek(n + 1)
		first := bytes.TrimSpace(b[:n])
		if json.Valid(first) {
			rest, _ := rd.br.Peek(min(rd.br.Buffered(), rd.br.Size()))
			if len(bytes.TrimSpace(rest[n+1:])) > 0 || rd.moreAfter(n+1) {
				rd.line = skipped
				return rd.lines()
			}
		}
	}
	return rd.whole(true)
}

// moreAfter reports whether anything but white space follows the first off
// bytes, reading further into the buffer when it must.
func (rd *reader) moreAfter(off int) bool {
	for size := rd.br.Buffered(); ; {
		b, err := rd.br.Peek(min(size+4096, rd.br.Size()))
		if len(bytes.TrimSpace(b[off:])) > 0 {
			return true
		}
		if err != nil || len(b) == rd.br.Size() || len(b) == size {
			return false
		}
		size = len(b)
	}
}

// whole reads one JSON document; list says an array is a list of messages
// rather than one batch.
func (rd *reader) whole(list bool) error {
	var first byte
	for {
		b, err := rd.br.ReadByte()
		if errors.Is(err, io.EOF) {
			return nil // nothing but white space
		}
		if err != nil {
			return err
		}
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			first = b
			rd.br.UnreadByte()
			break
		}
	}
	startLine := rd.lt.lineAt(rd.lt.total - int64(rd.br.Buffered()))
	if !list || first != '[' {
		b, err := io.ReadAll(io.LimitReader(rd.br, int64(rd.max)+1))
		if err != nil {
			return err
		}
		if len(b) > rd.max {
			return rd.emit(Item{Position: Position{Line: startLine}, Broken: TooLong(rd.max)})
		}
		return rd.emit(Item{Position: Position{Line: startLine}, Bytes: bytes.TrimSpace(b)})
	}
	return rd.array()
}

// array streams the elements of a top-level array, one at a time.
func (rd *reader) array() error {
	consumedBefore := rd.lt.total - int64(rd.br.Buffered())
	dec := json.NewDecoder(rd.br)
	lineAt := func(off int64) int { return rd.lt.lineAt(consumedBefore + off) }
	if _, err := dec.Token(); err != nil {
		return rd.emit(Item{Position: Position{Line: lineAt(0)}, Broken: "not JSON: " + err.Error()})
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return rd.emit(Item{Position: Position{Line: lineAt(se.Offset)}, Broken: "not JSON: " + err.Error()})
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return rd.emit(Item{Position: Position{Line: lineAt(dec.InputOffset())}, Broken: "not JSON: " + err.Error()})
			}
			return err
		}
		start := dec.InputOffset() - int64(len(raw))
		if err := rd.emit(Item{Position: Position{Line: lineAt(start)}, Bytes: raw}); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return rd.emit(Item{Position: Position{Line: lineAt(dec.InputOffset())}, Broken: "not JSON: " + err.Error()})
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return rd.emit(Item{Position: Position{Line: lineAt(dec.InputOffset())}, Broken: "not JSON: more after the top-level array"})
	}
	return nil
}

// lineTracker counts the bytes and newlines read through it, remembering
// the offsets of newlines not yet asked about, so that the line of any
// later offset can be told in constant memory (queries only move forward).
type lineTracker struct {
	r     io.Reader
	total int64   // bytes read
	nl    []int64 // offsets of newlines past the last query
	base  int     // newlines before the last query's offset
}

func (t *lineTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	for i, c := range p[:n] {
		if c == '\n' {
			t.nl = append(t.nl, t.total+int64(i))
		}
	}
	t.total += int64(n)
	return n, err
}

// lineAt returns the line (from 1) of the byte at off.
func (t *lineTracker) lineAt(off int64) int {
	i := 0
	for i < len(t.nl) && t.nl[i] < off {
		i++
	}
	t.base += i
	t.nl = t.nl[i:]
	if len(t.nl) == 0 {
		t.nl = nil
	}
	return t.base + 1
}
