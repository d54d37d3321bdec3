package doctest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// command is one command of a run snippet and, when the snippet shows a
// session ("$ " before each command), the lines it must print.
type command struct {
	script string
	want   []string // nil: the output is not checked
}

// commands splits a run snippet into its commands. Without a "$ " prompt
// the whole snippet is one script whose output is not checked.
func commands(code string) []command {
	lines := strings.Split(strings.TrimRight(code, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "$ ") {
		return []command{{script: code}}
	}
	var out []command
	for _, l := range lines {
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			out = append(out, command{script: cmd, want: []string{}})
			continue
		}
		last := &out[len(out)-1]
		last.want = append(last.want, l)
	}
	return out
}

// followGettingStarted does what docs/getting-started.md says in w: it
// writes its files and runs its commands, checking what they print. It
// stops after the snippet for which stop reports true (nil: at the end).
func followGettingStarted(t *testing.T, w *workspace, snippets []snippet, stop func(snippet) bool) {
	t.Helper()
	for _, s := range snippets {
		switch s.kind() {
		case "file":
			w.write(s.arg(), s.code)
		case "run":
			for _, c := range commands(s.code) {
				out, err := w.shell(c.script)
				require.NoError(t, err, "%s: %s", s, c.script)
				if c.want == nil {
					continue
				}
				got := strings.Split(strings.TrimRight(out, "\n"), "\n")
				if s.arg() == "unordered" {
					assert.ElementsMatch(t, c.want, got, "%s: %s", s, c.script)
				} else {
					assert.Equal(t, c.want, got, "%s: %s", s, c.script)
				}
			}
		}
		if stop != nil && stop(s) {
			return
		}
	}
}

func TestCommandsOfARunSnippet(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		want       []command
	}{
		{"a script", "mkdir a && cd a\ngo version\n", []command{{script: "mkdir a && cd a\ngo version\n"}}},
		{"a session", "$ echo a\na\n$ true\n$ printf 'b\\nc\\n'\nb\nc\n", []command{
			{script: "echo a", want: []string{"a"}},
			{script: "true", want: []string{}},
			{script: `printf 'b\nc\n'`, want: []string{"b", "c"}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, commands(tc.code))
		})
	}
}

// TestGettingStartedWorksOnEverySupportedGo follows docs/getting-started.md
// from an empty directory: a module, rpcgen as its tool, a schema, the
// generated bindings, a JSON-RPC server and client, an MCP server and
// client, every command's output as the guide shows it; once per supported
// Go release.
func TestGettingStartedWorksOnEverySupportedGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modules from scratch; skipped with -short")
	}
	snippets, err := markdownSnippets(repoRoot(t), "docs/getting-started.md")
	require.NoError(t, err)
	kinds := map[string]int{}
	for _, s := range snippets {
		kinds[s.kind()]++
	}
	require.GreaterOrEqual(t, kinds["file"], 4, "getting-started has its files marked")
	require.GreaterOrEqual(t, kinds["run"], 4, "getting-started has its commands marked")
	for _, g := range supportedGo {
		t.Run(g.release, func(t *testing.T) {
			w := newWorkspace(t, haveToolchain(t, g.release, g.toolchain))
			out, err := w.shell("go version")
			require.NoError(t, err)
			require.Contains(t, out, "go version "+g.release)
			followGettingStarted(t, w, snippets, nil)
		})
	}
}
