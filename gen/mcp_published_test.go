package gen_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// TestPublishedMCPSchemas generates Go from each published MCP schema.json,
// unmodified, checks the derived method index (methods.lock.json), compiles
// and vets the five packages in one module, and round-trips every example
// message of 2026-07-28 through the generated types: decode into the type
// named like the example's folder, encode, compare with the original as
// JSON values, and validate the result (and the original) against the
// definition in the embedded schema.
func TestPublishedMCPSchemas(t *testing.T) {
	if _, err := os.Stat(gen.MCPSpecDir); err != nil {
		t.Skipf("the published MCP schemas are not here (%s, next to the repository): %v", gen.MCPSpecDir, err)
	}
	dir, goCmd := tempModule(t)
	var roundTrip string
	for _, v := range gen.MCPVersions {
		pkg := "v" + strings.ReplaceAll(v, "-", "")
		opts := gen.Options{Input: filepath.Join(gen.MCPSpecDir, v, "schema.json"), Package: pkg} // as is: the format is detected
		files, err := gen.Generate(opts)
		require.NoError(t, err, "version %s", v)
		again, err := gen.Generate(opts)
		require.NoError(t, err)
		require.Equal(t, len(files), len(again))
		for i := range files {
			assert.Equal(t, files[i].Content, again[i].Content, "%s %s differs between two runs", v, files[i].Name)
		}
		checkLock(t, v, decodeLock(t, files))

		pkgDir := filepath.Join(dir, pkg)
		require.NoError(t, os.MkdirAll(pkgDir, 0o755))
		for _, f := range files {
			require.NoError(t, os.WriteFile(filepath.Join(pkgDir, f.Name), f.Content, 0o644))
		}
		if v == "2026-07-28" {
			src, n := roundTripTest(t, pkg, filepath.Join(gen.MCPSpecDir, v, "examples"), decodeLock(t, files).Schema)
			require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "roundtrip_test.go"), []byte(src), 0o644))
			roundTrip = fmt.Sprintf("%d examples", n)
		}
	}
	out, err := vetAndTest(t, goCmd, "-v", "-run", "TestExamplesRoundTrip")
	summary := regexp.MustCompile(`round-tripped \d+/\d+`).FindString(out)
	t.Logf("2026-07-28 examples (%s): %s", roundTrip, summary)
	require.NoError(t, err, "round trip:\n%s", out)
}

// checkLock compares methods.lock.json with the method tables of the
// specification (gen.MCPExpected).
func checkLock(t *testing.T, version string, l lock) {
	t.Helper()
	want := gen.MCPExpected[version]
	got := map[string]string{}
	var requests, notifications int
	for i, m := range l.Methods {
		if i > 0 {
			assert.Less(t, l.Methods[i-1].Method, m.Method, "%s: methods.lock.json is sorted by method", version)
		}
		if m.Kind == "notification" {
			notifications++
		} else {
			requests++
		}
		got[m.Method] = strings.Join(append([]string{m.Kind, m.Direction, or(m.Params), or(m.Result)}, m.AltResults...), " ")
	}
	assert.Equal(t, want.Requests, requests, "%s requests", version)
	assert.Equal(t, want.Notifications, notifications, "%s notifications", version)
	for name, desc := range want.Methods {
		assert.Equal(t, desc, got[name], "%s %s", version, name)
	}
	for _, name := range want.Absent {
		assert.NotContains(t, got, name, version)
	}
}

func or(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// roundTripTest writes the test that runs inside the generated package: one
// entry per example folder, each naming the generated type of the same name.
func roundTripTest(t *testing.T, pkg, examples, schemaURL string) (string, int) {
	t.Helper()
	abs, err := filepath.Abs(examples)
	require.NoError(t, err)
	entries, err := os.ReadDir(abs)
	require.NoError(t, err)
	var types []string
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		types = append(types, e.Name())
		files, err := filepath.Glob(filepath.Join(abs, e.Name(), "*.json"))
		require.NoError(t, err)
		n += len(files)
	}
	sort.Strings(types)
	var b bytes.Buffer
	fmt.Fprintf(&b, roundTripHead, pkg, abs, schemaURL)
	for _, name := range types {
		fmt.Fprintf(&b, "\t%q: func() any { return new(%s) },\n", name, name)
	}
	b.WriteString("}\n")
	return b.String(), n
}

const roundTripHead = `package %s

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

const examplesDir = %q

const schemaURL = %q

// TestExamplesRoundTrip decodes every example into its generated type,
// encodes it again, and wants the same JSON value back, valid against the
// definition the example is filed under.
func TestExamplesRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(examplesDir, "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in %%s: %%v", examplesDir, err)
	}
	ok := 0
	for _, file := range files {
		def := filepath.Base(filepath.Dir(file))
		name := def + "/" + filepath.Base(file)
		in, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sch := schemaSet.MustCompile(schemaURL + "#/$defs/" + def)
		if err := validate(sch, in); err != nil {
			t.Errorf("%%s: the example itself is not valid against the published schema: %%v", name, err)
			continue
		}
		v := exampleTypes[def]()
		if err := json.Unmarshal(in, v); err != nil {
			t.Errorf("%%s: decoding into %%s: %%v", name, def, err)
			continue
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Errorf("%%s: encoding %%s: %%v", name, def, err)
			continue
		}
		if !reflect.DeepEqual(normal(t, in), normal(t, out)) {
			var compact bytes.Buffer
			json.Compact(&compact, in)
			t.Errorf("%%s: the JSON changes on the way through %%s:\n in: %%s\nout: %%s", name, def, compact.Bytes(), out)
			continue
		}
		if err := validate(sch, out); err != nil {
			t.Errorf("%%s: the re-encoded %%s is not valid: %%v", name, def, err)
			continue
		}
		ok++
	}
	t.Logf("round-tripped %%d/%%d", ok, len(files))
}

func validate(sch *rpc.Schema, doc []byte) error {
	return sch.ValidateJSON(doc)
}

// normal decodes JSON into a value where numbers compare by value.
func normal(t *testing.T, doc []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return numbers(v)
}

func numbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(v))
		if !ok {
			return string(v)
		}
		return r.RatString()
	case []any:
		for i := range v {
			v[i] = numbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = numbers(v[k])
		}
	}
	return v
}

var exampleTypes = map[string]func() any{
`
