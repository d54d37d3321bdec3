package doctest_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// packageComments are the Go files whose package comment shows code.
var packageComments = []string{"mcp/doc.go", "rpc/doc.go"}

// gettingStartedModule is the module path docs/getting-started.md creates.
const gettingStartedModule = "example.com/calc"

// knownImports are the packages a fragment may name without importing
// them, by package name.
var knownImports = map[string]string{
	"context": "context", "errors": "errors", "fmt": "fmt", "io": "io", "log": "log", "os": "os",
	"strings": "strings", "sync": "sync", "time": "time", "net": "net",
	"json": "encoding/json", "slog": "log/slog", "http": "net/http", "httptest": "net/http/httptest",
	"exec": "os/exec", "signal": "os/signal",
	"rpc": "github.com/schemarpc/schemarpc/rpc", "mcp": "github.com/schemarpc/schemarpc/mcp",
	"auth": "github.com/schemarpc/schemarpc/mcp/auth", "mcpotel": "github.com/schemarpc/schemarpc/mcp/mcpotel",
	"rpcotel": "github.com/schemarpc/schemarpc/rpc/rpcotel", "ratelimit": "github.com/schemarpc/schemarpc/mcp/ratelimit",
	"breaker": "github.com/schemarpc/schemarpc/mcp/breaker",
	"gen":     "github.com/schemarpc/schemarpc/gen", "schema": "github.com/schemarpc/schemarpc/schema",
	"v20251125": "github.com/schemarpc/schemarpc/mcp/v20251125", "v20260728": "github.com/schemarpc/schemarpc/mcp/v20260728",
	"otel": "go.opentelemetry.io/otel", "propagation": "go.opentelemetry.io/otel/propagation",
	"trace": "go.opentelemetry.io/otel/trace", "metric": "go.opentelemetry.io/otel/metric",
	"url": "net/url", "jsonschema": "github.com/santhosh-tekuri/jsonschema/v6",
	"calcrpc": gettingStartedModule + "/calcrpc",
}

// qualifier finds the package names a fragment uses.
var qualifier = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.[A-Za-z_]`)

// goSource turns a Go snippet into the file that compiles it, named after
// doc positions (//line) so that errors point into the document.
func goSource(s snippet) (string, error) {
	line := fmt.Sprintf("//line %s:%d\n", s.doc, s.line)
	switch s.kind() {
	case "":
		if !strings.HasPrefix(strings.TrimSpace(stripComments(s.code)), "package ") {
			return "", errors.New(`not a complete Go file: mark it <!-- snippet: body PARAMS -->, <!-- snippet: decls --> or <!-- snippet: skip REASON -->`)
		}
		return line + s.code, nil
	case "file":
		return line + s.code, nil
	case "body", "decls":
	default:
		return "", fmt.Errorf("unknown snippet marker %q", s.mark)
	}
	names := map[string]bool{}
	for _, m := range qualifier.FindAllStringSubmatch(s.code+" "+s.arg(), -1) {
		if _, ok := knownImports[m[1]]; ok {
			names[m[1]] = true
		}
	}
	var b strings.Builder
	b.WriteString("package snippet\n\nimport (\n")
	for _, n := range sortedKeys(names) {
		fmt.Fprintf(&b, "\t%s %q\n", n, knownImports[n])
	}
	b.WriteString(")\n\n")
	if s.kind() == "decls" {
		b.WriteString(line + s.code)
		return b.String(), nil
	}
	fmt.Fprintf(&b, "func _(%s) error {\n%s%s\treturn nil\n}\n", s.arg(), line, s.code)
	return b.String(), nil
}

// stripComments drops the line comments before a file's package clause.
func stripComments(code string) string {
	var keep []string
	for _, l := range strings.Split(code, "\n") {
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// generateDirective matches a snippet that is only go:generate lines.
var generateDirective = regexp.MustCompile(`^(//go:generate [^\n]+\n)+$`)

// ignorable are compiler complaints a fragment may earn by being a
// fragment: what it declares is used by the code around it in the guide.
var ignorable = regexp.MustCompile(`declared and not used|imported and not used`)

// buildError is a compiler error at a position of a document.
var buildError = regexp.MustCompile(`^(?:\./)?([^\s:]+):(\d+)(?::\d+)?: (.*)$`)

// TestDocSnippetsCompile compiles every Go snippet of README.md, docs/*.md
// and the package overviews in the module docs/getting-started.md makes,
// with the bindings it generates; one subtest per document.
func TestDocSnippetsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module from scratch; skipped with -short")
	}
	root := repoRoot(t)
	docs := []string{"README.md"}
	mds, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	for _, m := range mds {
		docs = append(docs, "docs/"+filepath.Base(m))
	}
	bySource := map[string][]snippet{}
	for _, d := range docs {
		bySource[d], err = markdownSnippets(root, d)
		require.NoError(t, err)
	}
	for _, f := range packageComments {
		bySource[f], err = packageCommentSnippets(root, f)
		require.NoError(t, err)
		require.NotEmpty(t, bySource[f], "%s shows code", f)
	}

	// The module of getting-started, up to its generated bindings.
	// The docs speak of examples/calc: its schema stands in for the
	// smaller one of getting-started, so calcrpc has all of calc's methods.
	calcSchema, err := os.ReadFile(filepath.Join(root, "examples", "calc", "calc.json"))
	require.NoError(t, err)
	var setup []snippet
	for _, s := range bySource["docs/getting-started.md"] {
		if s.kind() == "file" && s.arg() == "calc.json" {
			s.code = string(calcSchema)
		}
		setup = append(setup, s)
	}
	w := newWorkspace(t, "local")
	followGettingStarted(t, w, setup, func(s snippet) bool {
		return s.kind() == "run" && strings.Contains(s.code, "go generate")
	})

	// One package per snippet; the problems found before compiling.
	problems := map[string][]string{} // by source
	var dirs []string
	for _, src := range sortedKeys(keysOf(bySource)) {
		for _, s := range bySource[src] {
			if s.lang != "go" || s.kind() == "skip" {
				if s.kind() == "skip" && s.arg() == "" {
					problems[src] = append(problems[src], fmt.Sprintf("%s: a skipped snippet says why", s))
				}
				continue
			}
			if generateDirective.MatchString(s.code) {
				problems[src] = append(problems[src], checkDirectives(w, s)...)
				continue
			}
			code, err := goSource(s)
			if err != nil {
				problems[src] = append(problems[src], fmt.Sprintf("%s: %v", s, err))
				continue
			}
			dir := s.arg()
			if s.kind() == "file" {
				dir = path.Dir(dir)
			} else {
				dir = fmt.Sprintf("snippets/%s_%d", strings.NewReplacer("/", "_", ".", "_").Replace(src), s.line)
			}
			name := "snippet.go"
			if s.kind() == "file" {
				name = path.Base(s.arg())
			}
			w.write(path.Join(dir, name), code)
			dirs = append(dirs, "./"+dir)
		}
	}
	require.NotEmpty(t, dirs)

	// One build for all; errors are reported at document positions.
	out, err := w.shell("go build -gcflags=-e " + strings.Join(uniq(dirs), " ") + " 2>&1")
	for src, ps := range buildProblems(out, err != nil, keysOf(bySource)) {
		problems[src] = append(problems[src], ps...)
	}

	for _, src := range sortedKeys(keysOf(bySource)) {
		t.Run(src, func(t *testing.T) {
			for _, p := range problems[src] {
				t.Error(p)
			}
		})
	}
	for _, p := range problems["(build)"] {
		t.Errorf("the build: %s", p)
	}
}

// buildProblems files the output of the snippets' build by source: each
// compiler error at a position of one of sources under it, other positioned
// errors under "(build)", fragments' ignorable complaints nowhere. A build
// that failed without a positioned error (the go command's own failure) is
// one problem under "(build)": its whole output.
func buildProblems(out string, failed bool, sources map[string]bool) map[string][]string {
	problems := map[string][]string{}
	positioned := false
	for _, l := range strings.Split(out, "\n") {
		m := buildError.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		positioned = true
		if ignorable.MatchString(m[3]) {
			continue
		}
		src := m[1]
		if !sources[src] {
			src = "(build)"
		}
		problems[src] = append(problems[src], l)
	}
	if failed && !positioned {
		problems["(build)"] = append(problems["(build)"], out)
	}
	return problems
}

// checkDirectives runs the rpcgen command of each go:generate line of s
// with its flags, in an empty directory: whatever its input, the command
// line must be one rpcgen takes (exit status 2 is a usage error) and must
// run the tool as go.mod pins it.
func checkDirectives(w *workspace, s snippet) []string {
	var problems []string
	for _, l := range strings.Split(strings.TrimSpace(s.code), "\n") {
		args, _ := strings.CutPrefix(l, "//go:generate ")
		rest, ok := strings.CutPrefix(args, "go tool rpcgen ")
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: %q does not run rpcgen as `go tool rpcgen` (pinned with go get -tool)", s, l))
			continue
		}
		dir := filepath.Join(w.dir, "directives")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		bin, err := w.rpcgen()
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", s, err))
			continue
		}
		run := exec.Command(bin, strings.Fields(rest)...)
		run.Dir = dir
		out, err := run.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 2 {
			problems = append(problems, fmt.Sprintf("%s: rpcgen refuses the command line %q:\n%s", s, rest, out))
		}
	}
	return problems
}

// rpcgen builds the rpcgen of the workspace's go.mod, once, and returns
// the path of the binary.
func (w *workspace) rpcgen() (string, error) {
	if w.rpcgenBin != "" {
		return w.rpcgenBin, nil
	}
	bin := filepath.Join(w.t.TempDir(), "rpcgen")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/schemarpc/schemarpc/cmd/rpcgen")
	cmd.Dir, cmd.Env = w.dir, w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building rpcgen: %w\n%s", err, out)
	}
	w.rpcgenBin = bin
	return bin, nil
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

func uniq(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func TestAFragmentGetsTheImportsItNamesAndItsDocPosition(t *testing.T) {
	got, err := goSource(snippet{doc: "docs/x.md", line: 7, lang: "go", mark: "body ctx context.Context", code: "mcp.Text(fmt.Sprint(ctx))\n"})
	require.NoError(t, err)
	assert.Equal(t, "package snippet\n\nimport (\n\tcontext \"context\"\n\tfmt \"fmt\"\n\tmcp \"github.com/schemarpc/schemarpc/mcp\"\n)\n\n"+
		"func _(ctx context.Context) error {\n//line docs/x.md:7\nmcp.Text(fmt.Sprint(ctx))\n\treturn nil\n}\n", got)
}

func TestAnUnmarkedFragmentIsRefused(t *testing.T) {
	_, err := goSource(snippet{doc: "docs/x.md", line: 7, lang: "go", code: "x := 1\n"})
	assert.ErrorContains(t, err, "not a complete Go file")
	_, err = goSource(snippet{doc: "docs/x.md", line: 7, lang: "go", mark: "wrap", code: "x := 1\n"})
	assert.ErrorContains(t, err, `unknown snippet marker "wrap"`)
}

func TestBuildProblemsAreFiledByTheirSource(t *testing.T) {
	sources := map[string]bool{"docs/x.md": true}
	goFailure := "go: go.mod requires go >= 1.99 (running go 1.26.8; GOTOOLCHAIN=local)\n"
	for _, tc := range []struct {
		name   string
		out    string
		failed bool
		want   map[string][]string
	}{
		{"a clean build", "", false, map[string][]string{}},
		{"an error in a document", "# example.com/calc/snippets/x\ndocs/x.md:7:3: undefined: foo\n", true,
			map[string][]string{"docs/x.md": {"docs/x.md:7:3: undefined: foo"}}},
		{"a fragment's unused variable", "docs/x.md:7:3: declared and not used: n\n", true, map[string][]string{}},
		{"an error in a file of no document", "./snippets/a/snippet.go:3:1: syntax error\n", true,
			map[string][]string{"(build)": {"./snippets/a/snippet.go:3:1: syntax error"}}},
		{"the go command's own failure", goFailure, true, map[string][]string{"(build)": {goFailure}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, buildProblems(tc.out, tc.failed, sources))
		})
	}
}
