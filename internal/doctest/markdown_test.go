package doctest_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snippet is one fenced code block of a document, or one code block of a
// package comment.
type snippet struct {
	doc  string // the document, relative to the repository root
	line int    // the line of the snippet's first line of code
	lang string // the fence's info string: go, sh, json, …
	mark string // the snippet marker's words ("body ctx context.Context"), "" when unmarked
	code string
}

// kind is the marker's first word: body, decls, skip, file, run; "" when
// unmarked.
func (s snippet) kind() string {
	k, _, _ := strings.Cut(s.mark, " ")
	return k
}

// arg is what follows the marker's first word.
func (s snippet) arg() string {
	_, a, _ := strings.Cut(s.mark, " ")
	return strings.TrimSpace(a)
}

func (s snippet) String() string { return fmt.Sprintf("%s:%d", s.doc, s.line) }

var (
	fenceOpen = regexp.MustCompile("^(\\s*)```+\\s*([A-Za-z0-9_+-]*)")
	marker    = regexp.MustCompile(`^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$`)
)

// markdownSnippets reads the fenced code blocks of a Markdown document.
func markdownSnippets(root, doc string) ([]snippet, error) {
	f, err := os.Open(filepath.Join(root, doc))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		out      []snippet
		lines    []string
		sc       = bufio.NewScanner(f)
		prevText string // the last non-blank line outside a fence
	)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for i := 0; i < len(lines); i++ {
		m := fenceOpen.FindStringSubmatch(lines[i])
		if m == nil {
			if strings.TrimSpace(lines[i]) != "" {
				prevText = lines[i]
			}
			continue
		}
		indent := m[1]
		s := snippet{doc: doc, line: i + 2, lang: m[2]}
		if mm := marker.FindStringSubmatch(prevText); mm != nil {
			s.mark = mm[1]
		}
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
			body = append(body, strings.TrimPrefix(lines[i], indent))
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%s:%d: the code block never ends", doc, s.line-1)
		}
		s.code = strings.Join(body, "\n") + "\n"
		out = append(out, s)
		prevText = ""
	}
	return out, nil
}

// packageCommentSnippets reads the code blocks (lines indented by a tab) of
// a package comment in a Go file: a block that begins with a package clause
// is Go, any other is text.
func packageCommentSnippets(root, file string) ([]snippet, error) {
	b, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	var (
		out []snippet
		cur *snippet
	)
	flush := func() {
		if cur != nil {
			cur.code = strings.TrimRight(cur.code, "\n") + "\n"
			out = append(out, *cur)
			cur = nil
		}
	}
	for i, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "//") {
			break // the end of the package comment
		}
		text := strings.TrimPrefix(line, "//")
		switch {
		case strings.HasPrefix(text, "\t"):
			if cur == nil {
				// A program is Go; anything else (a diagram, say) is text.
				lang := "text"
				if strings.HasPrefix(text, "\tpackage ") {
					lang = "go"
				}
				cur = &snippet{doc: file, line: i + 1, lang: lang}
			}
			cur.code += strings.TrimPrefix(text, "\t") + "\n"
		case text == "" && cur != nil:
			cur.code += "\n"
		default:
			flush()
		}
	}
	flush()
	return out, nil
}

func TestMarkdownSnippetsKeepTheirMarkersAndLines(t *testing.T) {
	dir := t.TempDir()
	doc := "Intro\n\n<!-- snippet: body ctx context.Context -->\n```go\nctx.Done()\n```\n\n" +
		"- a list item:\n\n  ```sh\n  $ go version\n  ```\n\n```json\n{}\n```\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "d.md"), []byte(doc), 0o644))
	got, err := markdownSnippets(dir, "d.md")
	require.NoError(t, err)
	assert.Equal(t, []snippet{
		{doc: "d.md", line: 5, lang: "go", mark: "body ctx context.Context", code: "ctx.Done()\n"},
		{doc: "d.md", line: 11, lang: "sh", code: "$ go version\n"},
		{doc: "d.md", line: 15, lang: "json", code: "{}\n"},
	}, got)
	assert.Equal(t, "body", got[0].kind())
	assert.Equal(t, "ctx context.Context", got[0].arg())
}

func TestAnUnendedCodeBlockIsAnError(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "d.md"), []byte("```go\nx\n"), 0o644))
	_, err := markdownSnippets(dir, "d.md")
	assert.ErrorContains(t, err, "d.md:1: the code block never ends")
}

func TestPackageCommentSnippetsAreItsIndentedBlocks(t *testing.T) {
	dir := t.TempDir()
	src := "// Package p does things.\n//\n//\tpackage main\n//\n//\tfunc main() {}\n//\n// More text.\n//\n//\tx := 1\npackage p\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "doc.go"), []byte(src), 0o644))
	got, err := packageCommentSnippets(dir, "doc.go")
	require.NoError(t, err)
	assert.Equal(t, []snippet{
		{doc: "doc.go", line: 3, lang: "go", code: "package main\n\nfunc main() {}\n"},
		{doc: "doc.go", line: 9, lang: "text", code: "x := 1\n"},
	}, got)
}
