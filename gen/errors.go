package gen

import (
	"fmt"
	"strings"
)

// Error is one problem in the input, located by file and JSON pointer.
type Error struct {
	// File is the document's path relative to the index's directory, with
	// forward slashes ("calc.json", "types/common.json").
	File string
	// Pointer is the RFC 6901 JSON pointer of the offending value inside File;
	// empty for the whole document.
	Pointer string
	// Message says what is wrong.
	Message string
}

// Error renders the problem as "file#pointer: message".
func (e *Error) Error() string {
	return e.File + "#" + e.Pointer + ": " + e.Message
}

// ErrorList is every problem found in one generation run, in the order they
// were found. Generate returns it when there is at least one.
type ErrorList []*Error

// Error renders every problem, one per line.
func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap lets errors.As find each *Error.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// loc is a place in the input: a document and a pointer into it.
type loc struct {
	doc *document
	ptr string
}

func (l loc) String() string { return l.doc.rel + "#" + l.ptr }

func (l loc) at(toks ...string) loc { return loc{l.doc, pointerJoin(l.ptr, toks...)} }

// url is the location's absolute URL: its document's, with the pointer as
// the fragment. Validators compile schemas by it.
func (l loc) url() string { return l.doc.url + "#" + fragment(l.ptr) }

// problems collects errors without stopping at the first, so one run reports
// everything that is wrong with the input.
type problems struct {
	list ErrorList
	seen map[Error]bool
}

// add records a problem, once: a schema reached on several paths is
// reported at its own location a single time.
func (p *problems) add(at loc, format string, args ...any) {
	e := Error{File: at.doc.rel, Pointer: at.ptr, Message: fmt.Sprintf(format, args...)}
	if p.seen[e] {
		return
	}
	if p.seen == nil {
		p.seen = map[Error]bool{}
	}
	p.seen[e] = true
	p.list = append(p.list, &e)
}

func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return p.list
}
