package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// ThirdPartyDir holds real OpenRPC documents other projects publish, when
// the checkout has them next to it.
const ThirdPartyDir = "../../shared/thirdparty"

// example is one value a document shows for one of its schemas.
type example struct {
	where  string // file#pointer of the example, for messages
	goType string // the Go type of the schema it is shown for
	value  json.RawMessage
}

// TestThirdPartyDocumentsGenerateBuildAndRoundTripTheirExamples generates
// every document in ThirdPartyDir as it is, with no config, into one module;
// vets (and so builds) it; and round-trips, through the generated types,
// every example the documents give (in a schema's examples, or a method's
// example pairings) that is valid against its own schema: decoded and
// encoded again, it must be the same JSON (members as a set, numbers and
// strings as written).
func TestThirdPartyDocumentsGenerateBuildAndRoundTripTheirExamples(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join(ThirdPartyDir, "*.json"))
	if err != nil || len(docs) == 0 {
		t.Skipf("the third-party documents are not here (%s, next to the repository): %v", ThirdPartyDir, err)
	}
	dir, goCmd := tempModule(t)
	valid, invalid := 0, 0
	for i, path := range docs {
		pkg := fmt.Sprintf("doc%d", i)
		files, types, err := gen.TypesByLocation(gen.Options{Input: path, Package: pkg})
		require.NoError(t, err, "%s generates with no config", filepath.Base(path))
		pkgDir := filepath.Join(dir, pkg)
		require.NoError(t, os.MkdirAll(pkgDir, 0o755))
		var src strings.Builder
		for _, f := range files {
			require.NoError(t, os.WriteFile(filepath.Join(pkgDir, f.Name), f.Content, 0o644))
			src.Write(f.Content)
		}
		exs, bad := documentExamples(t, path, types, src.String())
		valid, invalid = valid+len(exs), invalid+bad
		require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "examples_test.go"), []byte(examplesTest(pkg, exs)), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "roundtrip_test.go"), []byte("package "+pkg+"\n"+roundTripHelper), 0o644))
		if strings.HasPrefix(filepath.Base(path), "lotus-") {
			require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "server_test.go"), []byte(fmt.Sprintf(lotusServerTest, pkg)), 0o644))
		}
	}
	t.Logf("%d documents; %d examples valid against their schemas round-trip, %d invalid ones left out", len(docs), valid, invalid)
	assert.Positive(t, valid, "the documents show valid examples")
	out, err := vetAndTest(t, goCmd)
	require.NoError(t, err, "go test:\n%s", out)
}

// documentExamples collects the examples of the OpenRPC document at path
// that are valid against their schemas, each with the Go type of its
// schema, and counts the invalid ones.
func documentExamples(t *testing.T, path string, types map[string]string, src string) (valid []example, invalid int) {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	require.NoError(t, d.Decode(&doc))
	delete(doc, "$schema") // names the OpenRPC meta-schema, not a draft
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	const base = "https://example.test/doc.json"
	require.NoError(t, c.AddResource(base, doc))
	file := filepath.Base(path)
	declared := func(goType string) bool {
		for _, id := range regexp.MustCompile(`[A-Z]\w*`).FindAllString(goType, -1) {
			if id != "Nullable" && id != "RawMessage" && !strings.Contains(src, "\ntype "+id+" ") {
				return false
			}
		}
		return true
	}
	check := func(ptr string, value any) bool {
		s, err := c.Compile(base + "#" + ptr)
		require.NoError(t, err, "%s#%s", file, ptr)
		return s.Validate(value) == nil
	}
	add := func(where, ptr string, value any) {
		goType, ok := types[file+"#"+ptr]
		if !ok || !declared(goType) {
			return
		}
		if !check(ptr, value) {
			invalid++
			return
		}
		b, err := json.Marshal(value)
		require.NoError(t, err)
		valid = append(valid, example{where: where, goType: goType, value: b})
	}
	var walk func(n any, ptr string)
	walk = func(n any, ptr string) {
		switch n := n.(type) {
		case map[string]any:
			keys := make([]string, 0, len(n))
			for k := range n {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				child := ptr + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
				if list, ok := n[k].([]any); ok && k == "examples" && strings.Contains(ptr, "schema") {
					for i, v := range list {
						add(fmt.Sprintf("%s#%s/%d", file, child, i), ptr, v)
					}
					continue
				}
				walk(n[k], child)
			}
		case []any:
			for i, v := range n {
				walk(v, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(doc, "")
	methods, _ := doc["methods"].([]any)
	for i, m := range methods {
		m, _ := m.(map[string]any)
		pairings, _ := m["examples"].([]any)
		params, _ := m["params"].([]any)
		for j, p := range pairings {
			p, _ := p.(map[string]any)
			where := fmt.Sprintf("%s#/methods/%d/examples/%d", file, i, j)
			if r, ok := p["result"].(map[string]any); ok {
				if v, has := r["value"]; has {
					add(where+"/result", fmt.Sprintf("/methods/%d/result/schema", i), v)
				}
			}
			byName := map[string]any{}
			ok := true
			for _, pv := range asList(p["params"]) {
				pv, _ := pv.(map[string]any)
				name, _ := pv["name"].(string)
				k := paramIndex(params, name)
				if k < 0 || !check(fmt.Sprintf("/methods/%d/params/%d/schema", i, k), pv["value"]) {
					ok = false
					continue
				}
				byName[name] = pv["value"]
			}
			goType, has := types[fmt.Sprintf("%s#/methods/%d/params", file, i)]
			switch {
			case !has || !declared(goType):
			case !ok:
				invalid++
			default:
				b, err := json.Marshal(byName)
				require.NoError(t, err)
				valid = append(valid, example{where: where + "/params", goType: goType, value: b})
			}
		}
	}
	return valid, invalid
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// paramIndex finds a content descriptor by name (not following $refs: the
// documents here write their params inline).
func paramIndex(params []any, name string) int {
	for i, p := range params {
		if p, ok := p.(map[string]any); ok && p["name"] == name {
			return i
		}
	}
	return -1
}

// examplesTest renders the Go test that round-trips the examples through
// their types.
func examplesTest(pkg string, exs []example) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"encoding/json\"\n\t\"testing\"\n\n\t\"github.com/schemarpc/schemarpc/rpc\"\n)\n\n", pkg)
	b.WriteString("var _ json.RawMessage\nvar _ rpc.Nullable[int]\n\n")
	b.WriteString("func TestDocumentExamplesRoundTrip(t *testing.T) {\n")
	for _, ex := range exs {
		fmt.Fprintf(&b, "\tt.Run(%q, func(t *testing.T) { roundTrip[*%s](t, %q) })\n", ex.where, ex.goType, string(ex.value))
	}
	b.WriteString("}\n")
	return b.String()
}

// lotusServerTest pins what the generated server of the largest document
// answers to a bad positional param: -32602 naming the param by position
// and by name.
const lotusServerTest = `package %s

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestABadPositionalParamIsNamedByPositionAndName(t *testing.T) {
	r := rpc.NewRouter()
	RegisterLotusRPCAPIServer(r, UnimplementedLotusRPCAPIServer{})
	_, err := r.Handle(context.Background(), &rpc.Request{Method: MethodFilecoinChainGetTipSetByHeight, Params: json.RawMessage(` + "`" + `["ten", {}]` + "`" + `)})
	var e *rpc.Error
	if !errors.As(err, &e) || e.Code != rpc.CodeInvalidParams {
		t.Fatalf("got %%v, want -32602", err)
	}
	if !strings.Contains(e.Message, "/0 (p1): ") {
		t.Errorf("message %%q does not name /0 (p1)", e.Message)
	}
	var data rpc.ValidationData
	if err := json.Unmarshal(e.Data, &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Errors) == 0 || data.Errors[0].InstanceLocation != "/0" || data.Errors[0].Param != "p1" {
		t.Errorf("data = %%s", e.Data)
	}
}
`
