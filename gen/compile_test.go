package gen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// behaviourTests are Go tests run inside the module the generated packages
// are compiled in: they pin what the generated code does, not just that it
// builds. Keyed by golden case.
var behaviourTests = map[string]string{
	"mapping": `package mapping

import (
	"encoding/json"
	"testing"
)

func TestRequiredListsAndMapsMarshalAsEmptyNotNull(t *testing.T) {
	b, err := json.Marshal(Record{})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"lines": "[]", "attributes": "{}", "names": "[]", "maybeTags": "null", "parent": "null", "child": "null"} {
		if string(got[name]) != want {
			t.Errorf("%s = %s, want %s (all: %s)", name, got[name], want, b)
		}
	}
	for _, absent := range []string{"nickname", "age", "owner", "tags", "labels", "extra", "aliases", "amount"} {
		if _, ok := got[absent]; ok {
			t.Errorf("optional %s is present in %s", absent, b)
		}
	}
}

func TestOptionalZeroValuesSurviveWhenSet(t *testing.T) {
	zero, no := int64(0), false
	b, err := json.Marshal(Record{Age: &zero, Active: &no, Tags: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if string(got["age"]) != "0" || string(got["active"]) != "false" || string(got["tags"]) != "[]" {
		t.Errorf("set zero values were dropped: %s", b)
	}
}
`,
	"methods": `package methods

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

type store struct{ UnimplementedStoreServer }

func (store) Get(_ context.Context, p *GetParams) (*GetResult, error) {
	d := ""
	if p.Default != nil {
		d = *p.Default
	}
	return &GetResult{Value: p.Key + "=" + d, Found: true}, nil
}

func (store) List(context.Context, map[string]string) ([]Entry, error) { return nil, nil }

func handle(t *testing.T, r *rpc.Router, method, params string) (any, error) {
	t.Helper()
	req := &rpc.Request{Method: method}
	if params != "" {
		req.Params = json.RawMessage(params)
	}
	return r.Handle(context.Background(), req)
}

func TestByPositionParamsReachTheServerByName(t *testing.T) {
	r := rpc.NewRouter()
	RegisterStoreServer(r, store{})
	res, err := handle(t, r, MethodGet, ` + "`" + `["k", "d"]` + "`" + `)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.(*GetResult); got.Value != "k=d" {
		t.Errorf("got %+v", got)
	}
}

func TestParamsFailingTheSchemaNeverReachTheServer(t *testing.T) {
	r := rpc.NewRouter()
	RegisterStoreServer(r, store{})
	_, err := handle(t, r, MethodGet, ` + "`" + `[1]` + "`" + `)
	if e, ok := err.(*rpc.Error); !ok || e.Code != -32602 {
		t.Fatalf("got %v, want -32602", err)
	}
}

func TestNilListResultIsSentAsEmpty(t *testing.T) {
	r := rpc.NewRouter()
	RegisterStoreServer(r, store{})
	res, err := handle(t, r, MethodList, "")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res); string(b) != "[]" {
		t.Errorf("got %s", b)
	}
}

func TestUnimplementedMethodsAnswerMethodNotFound(t *testing.T) {
	r := rpc.NewRouter()
	RegisterStoreServer(r, store{})
	_, err := handle(t, r, MethodCount, "")
	if e, ok := err.(*rpc.Error); !ok || e.Code != -32601 {
		t.Fatalf("got %v, want -32601", err)
	}
}

func TestDeclaredErrorsCarryTheirCode(t *testing.T) {
	if e := NewNotFoundError(); e.Code != CodeNotFound || e.Message != "key not found" {
		t.Errorf("got %+v", e)
	}
}
`,
}

// TestGeneratedCodeCompilesAndVets builds every golden case, and the
// behaviour tests above, in a throwaway module that uses this repository's
// rpc package. It needs no network: modules come from the local cache.
func TestGeneratedCodeCompilesAndVets(t *testing.T) {
	mod := newTempModule(t)
	for _, name := range goldenCases(t) {
		mod.add(t, name, generateCase(t, name))
		if src, ok := behaviourTests[name]; ok {
			mod.write(t, filepath.Join(name, "behaviour_test.go"), src)
		}
	}
	mod.run(t, "vet", "./...")
	mod.run(t, "test", "-count=1", "./...")
}

// tempModule is a throwaway Go module that requires this repository (by a
// replace directive), for compiling and testing generated packages.
type tempModule struct {
	goBin string
	dir   string
	env   []string
}

// newTempModule makes an empty module, or skips the test when it cannot
// build one (-short, no go command).
func newTempModule(t *testing.T) *tempModule {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles generated code; skipped with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	m := &tempModule{goBin: goBin, dir: t.TempDir()}
	m.write(t, "go.mod", "module example.test/generated\n\ngo 1.26\n\n"+
		"require github.com/schemarpc/schemarpc v0.0.0-00010101000000-000000000000\n\n"+
		"replace github.com/schemarpc/schemarpc => "+root+"\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	m.write(t, "go.sum", string(sum))
	m.env = append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"), "GOWORK=off")
	return m
}

// write writes a file at a slash path relative to the module root.
func (m *tempModule) write(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(m.dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// add writes generated files as the package in directory pkg.
func (m *tempModule) add(t *testing.T, pkg string, files []gen.File) {
	t.Helper()
	for _, f := range files {
		m.write(t, filepath.Join(pkg, f.Name), string(f.Content))
	}
}

// run runs the go command in the module and fails the test with its output
// when it fails.
func (m *tempModule) run(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command(m.goBin, args...)
	cmd.Dir = m.dir
	cmd.Env = m.env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
}
