package gen_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/format"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/schemarpc/schemarpc/gen"
)

// schemaGen builds schemarpc index documents from fuzz bytes: each choice
// (a method's kind, a member present or not, a schema's shape, a name)
// takes the next byte, so small changes to the bytes give small changes to
// the documents, and most documents are close to valid. Past the end of
// the bytes every choice is 0.
type schemaGen struct {
	data  []byte
	depth int
}

func (g *schemaGen) next() int {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return int(b)
}

// pick returns one of the options.
func (g *schemaGen) pick(options ...string) string { return options[g.next()%len(options)] }

// chance is true about once in n, never past the end of the bytes.
func (g *schemaGen) chance(n int) bool { return g.next()%n == n-1 }

// usually returns good, or about once in eight times one of the others.
func (g *schemaGen) usually(good string, others ...string) string {
	if !g.chance(8) {
		return good
	}
	return g.pick(others...)
}

// names are member, definition and method names, awkward ones included:
// Go keywords, clashes after Go-casing, non-ASCII, digits first, empty,
// separators, reserved prefixes.
var names = []string{
	"a", "b", "value", "Value", "type", "func", "map", "x-y", "x_y", "9lives", "", "_", "ünï", "Id", "ID",
	"id", "rpc.call", "a/b", "a~b", "a b", "$x", "String", "error", "Error", "kind", "result", "params",
	"Entry", "entry", "HTTPServer", "go", "nil", "true",
}

func (g *schemaGen) name() string { return names[g.next()%len(names)] }

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// schema writes one schema; defs are the definition names a $ref may name.
func (g *schemaGen) schema(defs []string) string {
	g.depth++
	defer func() { g.depth-- }()
	kind := g.next() % 18
	if g.depth > 4 && kind > 8 {
		kind %= 9 // deep down, only leaves
	}
	var m []string
	switch kind {
	case 0:
		return g.pick("true", "false", "{}")
	case 1, 2:
		m = append(m, `"type":`+quote(g.usually(g.pick("string", "integer", "number", "boolean", "null", "object", "array"), "bogus")))
	case 3:
		m = append(m, `"type":["`+g.pick("string", "integer", "object", "array")+`","null"]`)
	case 4:
		m = append(m, `"enum":`+g.pick(`["a","b"]`, `[1,2]`, `["a",1,null]`, `[]`, `["x","X","x-"]`, `[true]`, `"notalist"`))
	case 5:
		m = append(m, `"const":`+g.pick(`"k"`, `1`, `null`, `{"a":1}`))
	case 6:
		m = append(m, `"type":"string"`, `"format":`+quote(g.usually(g.pick("date-time", "uri", "byte"), "nope")))
	case 7, 8:
		if len(defs) > 0 && !g.chance(5) {
			return `{"$ref":"#/$defs/` + defs[g.next()%len(defs)] + `"}`
		}
		return `{"$ref":` + quote(g.pick("#/$defs/Missing", "types.json#/$defs/T", "types.json", "#", "http://elsewhere.test/x.json", "#/methods/0")) + `}`
	case 9, 10, 11:
		m = append(m, `"type":"object"`)
		var props, req []string
		for range g.next() % 4 {
			n := g.name()
			props = append(props, quote(n)+":"+g.schema(defs))
			if g.chance(2) {
				req = append(req, quote(n))
			}
		}
		if len(props) > 0 || g.chance(2) {
			m = append(m, `"properties":{`+strings.Join(props, ",")+`}`)
		}
		if len(req) > 0 {
			m = append(m, `"required":[`+strings.Join(req, ",")+`]`)
		}
		switch g.next() % 3 {
		case 1:
			m = append(m, `"additionalProperties":false`)
		case 2:
			m = append(m, `"additionalProperties":`+g.schema(defs))
		}
	case 12, 13:
		m = append(m, `"type":"array"`)
		if g.chance(3) {
			m = append(m, `"prefixItems":[`+g.schema(defs)+`,`+g.schema(defs)+`]`, `"items":false`)
		} else {
			m = append(m, `"items":`+g.schema(defs))
		}
	case 14, 15:
		var alts []string
		for range 1 + g.next()%3 {
			alts = append(alts, g.schema(defs))
		}
		m = append(m, quote(g.pick("anyOf", "oneOf", "allOf"))+`:[`+strings.Join(alts, ",")+`]`)
	case 16:
		m = append(m, `"type":"integer"`, `"minimum":0`, `"default":`+g.pick(`1`, `"one"`, `1.5`))
	default:
		m = append(m, `"type":"object"`, `"properties":{"kind":{"const":"x"}}`, `"required":["kind"]`, `"nope":1`)
	}
	if g.chance(4) {
		m = append(m, `"description":`+quote(g.pick("A value.", "*/ /* breaks comments?", "line\nbreak", "`back`ticks`")))
	}
	return "{" + strings.Join(m, ",") + "}"
}

// index writes an index document, and sometimes a sibling types.json.
func (g *schemaGen) index() (index, types string) {
	var defNames []string
	for range g.next() % 4 {
		defNames = append(defNames, g.name())
	}
	var defs []string
	for _, n := range defNames {
		defs = append(defs, quote(n)+":"+g.schema(defNames))
	}
	var methods []string
	for range g.next() % 4 {
		var mm []string
		if !g.chance(12) {
			mm = append(mm, `"name":`+quote(g.usually(g.pick("get", "put", "a/b", "get", "Get", "sampling/createMessage", "ü", "list_all"), "rpc.discover", "")))
		}
		kind := g.usually(g.pick("", "request", "notification"), "bogus", "Request")
		if kind != "" {
			mm = append(mm, `"kind":`+quote(kind))
		}
		if d := g.usually(g.pick("", "", "client-to-server", "server-to-client", "both"), "sideways"); d != "" {
			mm = append(mm, `"direction":`+quote(d))
		}
		if ps := g.usually(g.pick("", "", "by-name", "by-position", "either"), "positional"); ps != "" {
			mm = append(mm, `"paramStructure":`+quote(ps))
		}
		if !g.chance(3) {
			mm = append(mm, `"params":`+g.schema(defNames))
		}
		if (kind != "notification") != g.chance(10) {
			mm = append(mm, `"result":`+g.schema(defNames))
		}
		if g.chance(4) {
			mm = append(mm, `"errors":[{"code":`+g.pick("-32001", "-32700", "42", "1.5", `"x"`)+`,"name":`+
				quote(g.pick("NotFound", "", "not found", "Conflict"))+`,"message":"m"}]`)
		}
		if g.chance(10) {
			mm = append(mm, `"extra":true`)
		}
		methods = append(methods, "{"+strings.Join(mm, ",")+"}")
	}
	var top []string
	if !g.chance(10) {
		top = append(top, `"$schema":`+quote(g.usually("https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#", "")))
	}
	if !g.chance(10) {
		top = append(top, `"$id":`+quote(g.usually("https://example.test/api/input.json", "relative.json", "https://example.test/a.json?q=1", "urn:x")))
	}
	if !g.chance(10) {
		top = append(top, `"service":`+quote(g.usually("Store", "store", "", "9x", "type", "Ünï", "a-b")))
	}
	if !g.chance(12) {
		top = append(top, `"methods":[`+strings.Join(methods, ",")+`]`)
	}
	if len(defs) > 0 {
		top = append(top, `"$defs":{`+strings.Join(defs, ",")+`}`)
	}
	if g.chance(12) {
		top = append(top, `"unknown":1`)
	}
	if g.chance(3) {
		types = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"T":` + g.schema(nil) + `}}`
	}
	return "{" + strings.Join(top, ",") + "}", types
}

// errorLine is the documented form of one generator error:
// "file#pointer: message", the pointer an RFC 6901 JSON pointer.
var errorLine = regexp.MustCompile(`^([^#\s]+)#((?:/[^/]*)*): \S`)

// FuzzGenerate runs the generator in process on index documents built from
// the fuzz bytes (and, when raw is not empty, on the raw bytes themselves
// as the index). Invariants: it never panics; a failure is an ErrorList in which
// every problem names a file of the input and a JSON pointer that resolves
// in that file, or names a missing member of an object of that file (for a
// document that is not JSON, the path to where reading
// failed and the byte offset); a
// success is a set of gofmt-formatted Go files that parse, and a second
// run gives the same bytes.
func FuzzGenerate(f *testing.F) {
	f.Add([]byte{}, []byte(nil))
	f.Add([]byte{0, 0, 0, 0, 1, 9, 2, 1, 2, 0, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8}, []byte(nil))
	f.Add([]byte{3, 1, 9, 3, 27, 2, 1, 1, 7, 0, 3, 2, 2, 4, 14, 2, 9, 1, 0, 1, 3, 5, 16, 0, 12, 7, 2, 1}, []byte(nil))
	f.Add([]byte("an index grown from these bytes, whatever they are"), []byte(nil))
	f.Add([]byte{}, []byte(`{"$id":"https://e.test/i.json","service":"S","methods":[{"name":"m","result":true}]}`))
	f.Add([]byte{}, []byte(`{"$id":"https://e.test/i.json","service":"S","methods":[{"name":"m","result":true,"result":1}]}`))
	f.Add([]byte{}, []byte(`{"$id":"https://e.test/i.json","service":"S","methods":[]} trailing`))
	f.Add([]byte{}, []byte("\xff"))
	f.Fuzz(func(t *testing.T, data, raw []byte) {
		g := &schemaGen{data: data}
		index, types := g.index()
		if len(raw) > 0 {
			index = string(raw)
		}
		fsys := fstest.MapFS{"api/input.json": {Data: []byte(index)}}
		if types != "" {
			fsys["api/types.json"] = &fstest.MapFile{Data: []byte(types)}
		}
		opts := gen.Options{Input: "api/input.json", FS: fsys, Package: "api", Format: gen.FormatSchemarpc}
		files, err := generateWithin(t, opts, index)
		if err != nil {
			checkGenError(t, err, fsys, index)
			return
		}
		again, err := generateWithin(t, opts, index)
		if err != nil {
			t.Fatalf("the second run failed where the first succeeded: %v\n%s", err, index)
		}
		if len(again) != len(files) {
			t.Fatalf("the second run gave %d files, the first %d\n%s", len(again), len(files), index)
		}
		for i, file := range files {
			if again[i].Name != file.Name || !bytes.Equal(again[i].Content, file.Content) {
				t.Fatalf("%s differs between two runs\n%s", file.Name, index)
			}
			if _, err := parser.ParseFile(token.NewFileSet(), file.Name, file.Content, parser.ParseComments); err != nil {
				t.Fatalf("%s does not parse: %v\n%s\n%s", file.Name, err, index, file.Content)
			}
			if formatted, err := format.Source(file.Content); err != nil || !bytes.Equal(formatted, file.Content) {
				t.Fatalf("%s is not gofmt-formatted (%v)\n%s", file.Name, err, index)
			}
		}
	})
}

// generateWithin runs the generator, failing the test if it has not
// finished within ten seconds (a run takes milliseconds): an endless
// expansion is a finding, not a hung fuzzer.
func generateWithin(t *testing.T, opts gen.Options, index string) ([]gen.File, error) {
	t.Helper()
	type result struct {
		files []gen.File
		err   error
	}
	done := make(chan result, 1)
	go func() {
		files, err := gen.Generate(opts)
		done <- result{files, err}
	}()
	select {
	case r := <-done:
		return r.files, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("the generator has not finished after 10s on\n%s", index)
		return nil, nil
	}
}

// checkGenError checks that every problem of a failed run names a location
// that exists.
func checkGenError(t *testing.T, err error, fsys fstest.MapFS, index string) {
	t.Helper()
	var list gen.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("the error names no location: %v\n%s", err, index)
	}
	for _, e := range list {
		line := e.Error()
		if !errorLine.MatchString(line) || e.Message == "" {
			t.Fatalf("error %q is not file#pointer: message\n%s", line, index)
		}
		file, ok := fsys["api/"+e.File]
		if !ok {
			t.Fatalf("error %q names a file the input does not have\n%s", line, index)
		}
		var doc any
		if json.Unmarshal(file.Data, &doc) != nil {
			// A document that is not JSON: the error names the whole
			// document, or the path to the value being read when reading
			// failed (which cannot resolve) and the byte offset, or a
			// duplicate key met before the syntax error.
			if e.Pointer != "" && !strings.Contains(e.Message, " at byte ") && !strings.HasPrefix(e.Message, "duplicate key ") {
				t.Fatalf("error %q points into a document that is not JSON without a byte offset\n%s", line, index)
			}
			continue
		}
		// A missing required member is named by the pointer it would
		// have: the pointer's parent is then an object of the document.
		parent := e.Pointer[:max(strings.LastIndex(e.Pointer, "/"), 0)]
		// With a duplicate key, encoding/json keeps the last member while
		// the pointer follows the first: it may name nothing here.
		if !resolves(doc, e.Pointer) && !isObjectAt(doc, parent) && !strings.HasPrefix(e.Message, "duplicate key ") {
			t.Fatalf("error %q: the pointer names nothing in %s\n%s", line, e.File, file.Data)
		}
	}
}

// isObjectAt reports whether the JSON pointer names an object of doc.
func isObjectAt(doc any, pointer string) bool {
	if !resolves(doc, pointer) {
		return false
	}
	for _, tok := range strings.Split(pointer, "/")[1:] {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := doc.(type) {
		case map[string]any:
			doc = v[tok]
		case []any:
			i, _ := strconv.Atoi(tok)
			doc = v[i]
		}
	}
	_, ok := doc.(map[string]any)
	return ok
}

// resolves reports whether the JSON pointer names a value of doc.
func resolves(doc any, pointer string) bool {
	if pointer == "" {
		return true
	}
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := doc.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return false
			}
			doc = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				return false
			}
			doc = v[i]
		default:
			return false
		}
	}
	return true
}

// selfReference wraps $defs in an index with one method.
func selfReference(defs string) string {
	return `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://e.test/api/input.json",` +
		`"service":"S","methods":[{"name":"m","result":{"$ref":"#/$defs/X"}}],"$defs":{` + defs + `}}`
}

func TestSchemasThatReachThemselvesFailWithALocatedError(t *testing.T) {
	for _, c := range []struct {
		name, defs, want string
	}{
		{"a $ref to itself used as a property", `"A":{"$ref":"#/$defs/A"},"X":{"type":"object","properties":{"k":{"$ref":"#/$defs/A"}}}`,
			"input.json#/$defs/A: "},
		{"a property that flattens its own object", `"X":{"type":"object","properties":{"p":{"allOf":[{"type":"object"},{"$ref":"#/$defs/X"}]}}}`,
			"input.json#/$defs/X/properties/p/allOf: "},
		{"a map whose values flatten their own object", `"X":{"type":"object","additionalProperties":{"allOf":[{"type":"object"},{"$ref":"#/$defs/X"}]}}`,
			"input.json#/$defs/X/additionalProperties/allOf: "},
		{"an allOf of the $ref alone is the type itself", `"X":{"type":"object","properties":{"p":{"allOf":[{"$ref":"#/$defs/X"}]}}}`, ""},
		{"the same one level down", `"X":{"type":"object","additionalProperties":{"type":"object","properties":{"p":{"allOf":[{"type":"object"},{"$ref":"#/$defs/X"}]}}}}`,
			"input.json#/$defs/X/additionalProperties/properties/p/allOf: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			index := selfReference(c.defs)
			fsys := fstest.MapFS{"api/input.json": {Data: []byte(index)}}
			_, err := generateWithin(t, gen.Options{Input: "api/input.json", FS: fsys, Package: "api"}, index)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error at %s", err, c.want)
			}
			checkGenError(t, err, fsys, index)
		})
	}
}
