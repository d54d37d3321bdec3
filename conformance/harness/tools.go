package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ModulePath is the module whose root FindRoot looks for.
const ModulePath = "github.com/schemarpc/schemarpc"

// ErrNotInstalled reports a pinned tool that is not installed; its message says how to
// install it.
var ErrNotInstalled = errors.New("not installed")

// FindRoot walks up from start to the directory whose go.mod declares ModulePath.
func FindRoot(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for range 64 {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && declaresModule(data) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("no go.mod of %s above %s", ModulePath, start)
}

func declaresModule(gomod []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "module" {
			return f[1] == ModulePath
		}
	}
	return false
}

// Tools locates the pinned tools inside the conformance directory of a checkout.
type Tools struct {
	// Dir is the conformance directory (holding package.json and interop/).
	Dir string
}

// ToolsAt returns the tools of the checkout rooted at root: the 0.1.16 suite, the
// TypeScript SDK and the Python SDK.
func ToolsAt(root string) Tools { return Tools{Dir: filepath.Join(root, "conformance")} }

// NextToolsAt returns the 0.2.0 prerelease suite of the checkout rooted at root, installed
// with its own Node 22 in conformance/next (the package names its binary like 0.1.16's,
// so it needs a directory of its own).
func NextToolsAt(root string) Tools { return Tools{Dir: filepath.Join(root, "conformance", "next")} }

// Node is the Node 22 binary the node npm package installs.
func (t Tools) Node() string { return filepath.Join(t.Dir, "node_modules", ".bin", "node") }

// Suite is the conformance CLI.
func (t Tools) Suite() string { return filepath.Join(t.Dir, "node_modules", ".bin", "conformance") }

// Python is the interpreter of the virtual environment holding the Python SDK.
func (t Tools) Python() string { return filepath.Join(t.Dir, ".venv", "bin", "python") }

// TypeScriptClient is the interop client script for the TypeScript SDK.
func (t Tools) TypeScriptClient() string { return filepath.Join(t.Dir, "interop", "client.mjs") }

// PythonClient is the interop client script for the Python SDK.
func (t Tools) PythonClient() string { return filepath.Join(t.Dir, "interop", "client.py") }

// installHint is what to run when a tool is missing.
const installHint = "run `make conformance-deps` (npm ci in conformance/ and conformance/next/, and a venv in conformance/.venv with interop/requirements.txt)"

// CheckNode reports ErrNotInstalled unless Node 22, the suite CLI and the TypeScript SDK are installed.
func (t Tools) CheckNode() error {
	for _, p := range []string{t.Node(), t.Suite(), filepath.Join(t.Dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s %w: %s", p, ErrNotInstalled, installHint)
		}
	}
	return nil
}

// CheckSuite reports ErrNotInstalled unless Node 22 and the suite CLI are installed.
func (t Tools) CheckSuite() error {
	for _, p := range []string{t.Node(), t.Suite()} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s %w: %s", p, ErrNotInstalled, installHint)
		}
	}
	return nil
}

// CheckPython reports ErrNotInstalled unless the virtual environment with the Python SDK exists.
func (t Tools) CheckPython() error {
	if _, err := os.Stat(t.Python()); err != nil {
		return fmt.Errorf("%s %w: %s", t.Python(), ErrNotInstalled, installHint)
	}
	cmd := exec.Command(t.Python(), "-c", "import mcp.client.session")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("the Python SDK is %w in %s (%v: %s): %s", ErrNotInstalled, t.Python(), err, bytes.TrimSpace(out), installHint)
	}
	return nil
}

// NodeEnv returns the environment with the pinned Node first on PATH, so that the suite's
// `#!/usr/bin/env node` runs on Node 22 rather than on whatever the system has.
func (t Tools) NodeEnv() []string {
	bin := filepath.Join(t.Dir, "node_modules", ".bin")
	env := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	return append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// Build compiles the Go package pkg (a path relative to root such as ./examples/everything)
// into dir and returns the binary's path.
func Build(ctx context.Context, root, pkg, dir string) (string, error) {
	out := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, msg)
	}
	return out, nil
}
