package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Config is the content of an rpcgen config file (rpcgen.json by
// convention): where the input and output are, and how to adjust the
// generated names and types. docs/codegen.md documents every member.
type Config struct {
	// Input is the path of the input document, relative to the config
	// file.
	Input string `json:"input,omitempty"`
	// Out is the directory the generated files go to, relative to the
	// config file.
	Out string `json:"out,omitempty"`
	// Root is a directory, relative to the config file, that holds the
	// input: its $refs may reach any document under Root instead of only
	// those under the input's own directory. Empty means the input's
	// directory.
	Root string `json:"root,omitempty"`
	// Package is the name of the generated Go package.
	Package string `json:"package,omitempty"`
	// Format forces a front end; empty means detect it.
	Format Format `json:"format,omitempty"`
	// SchemaURL is the absolute URL that names the input at run time when
	// the input has no $id of its own (MCP schema.json, OpenRPC).
	SchemaURL string `json:"schemaURL,omitempty"`
	// Service is the Go stem of the service (Service → ServiceServer,
	// ServiceClient) for inputs that do not name one.
	Service string `json:"service,omitempty"`
	// Initialisms are written in capitals when they make up a whole word of
	// a name, in addition to the built-in list (ID, URL, JSON, …).
	Initialisms []string `json:"initialisms,omitempty"`
	// Renames maps a schema location ("file.json#/$defs/Name", the pointer
	// unescaped as in the input's error messages) or a generated Go name to
	// the Go name to use instead.
	Renames map[string]string `json:"renames,omitempty"`
	// Types maps a schema location to the Go type to use for it instead of
	// a generated one: a predeclared type ("string", "int64") or a
	// qualified name ("github.com/schemarpc/schemarpc/rpc.ID",
	// "time.Time").
	Types map[string]string `json:"types,omitempty"`
	// Recurring names generated structs (by their Go names) whose JSON
	// recurs byte for byte from message to message, such as the _meta of
	// one MCP client's requests: their tables are marked
	// rpc.StructCodec.Recurring, so that a checked decode remembers the
	// last value and copies it when the same bytes come again.
	Recurring []string `json:"recurring,omitempty"`
	// Files renames the generated files: keys "types", "unions",
	// "methods", "schema".
	Files map[string]string `json:"files,omitempty"`
	// OmitEmptyStrings maps every optional string property to a plain
	// string with omitempty instead of *string: "" then means absent and is
	// never sent. Right for protocols where an empty optional string says
	// nothing (MCP's descriptions and titles); wrong where "" is a value.
	OmitEmptyStrings bool `json:"omitEmptyStrings,omitempty"`
	// Aliases, when set, also writes a file of documented aliases for the
	// generated types into another package.
	Aliases *Aliases `json:"aliases,omitempty"`
	// ClientParams says how the generated client sends the params of a
	// method that takes them either way (OpenRPC paramStructure "either",
	// the default): ClientParamsByName (the default: errors then name
	// members, not positions) or ClientParamsByPosition.
	ClientParams string `json:"clientParams,omitempty"`
	// Documents, when set, names the Go package's file system that holds
	// the input documents: the generated code reads them from it instead
	// of holding a copy.
	Documents *Documents `json:"documents,omitempty"`

	dir  string // the config file's directory; relative paths start here
	file string // the config file's path, for messages
}

// fileRoles are the keys of Config.Files, with their default names.
var fileRoles = map[string]string{
	"types":   "types_gen.go",
	"unions":  "unions_gen.go",
	"methods": "methods_gen.go",
	"schema":  "schema_gen.go",
}

// LoadConfig reads and checks a config file. Unknown members, malformed
// names and types, and paths that cannot be used are errors naming the file
// and the member.
func LoadConfig(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var cfg Config
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: more than one JSON value", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	cfg.dir, cfg.file = filepath.Dir(abs), path
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// check reports every problem of the config at once.
func (c *Config) check() error {
	var errs []error
	bad := func(member, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s: %s", c.file, member, fmt.Sprintf(format, args...)))
	}
	if c.Package != "" && (!token.IsIdentifier(c.Package) || token.IsKeyword(c.Package) || c.Package == "_") {
		bad("package", "%q is not a Go package name", c.Package)
	}
	if c.Format != "" {
		if _, err := ParseFormat(string(c.Format)); err != nil {
			bad("format", "%v", err)
		}
	}
	if err := checkClientParams(c.ClientParams); err != nil {
		bad("clientParams", "%v", err)
	}
	if c.SchemaURL != "" {
		if u, err := url.Parse(c.SchemaURL); err != nil || !u.IsAbs() || u.Host == "" || u.Fragment != "" || u.RawQuery != "" {
			bad("schemaURL", "%q must be an absolute URL with a host and no query or fragment", c.SchemaURL)
		}
	}
	if c.Service != "" && exportedName(c.Service) == "" {
		bad("service", "%q gives no Go identifier", c.Service)
	}
	for _, w := range c.Initialisms {
		if !token.IsIdentifier(w) || strings.ToLower(w) == w {
			bad("initialisms", "%q must be a word with at least one capital, as it should be written (SSE, OAuth)", w)
		}
	}
	for _, k := range sortedKeys(c.Renames) {
		if v := c.Renames[k]; !token.IsExported(v) || !token.IsIdentifier(v) {
			bad("renames", "%q: %q is not an exported Go identifier", k, v)
		}
	}
	for _, name := range c.Recurring {
		if !token.IsExported(name) || !token.IsIdentifier(name) {
			bad("recurring", "%q is not an exported Go identifier", name)
		}
	}
	for _, k := range sortedKeys(c.Types) {
		if !strings.Contains(k, "#") {
			bad("types", "%q is not a schema location (file.json#/pointer)", k)
		}
		if _, err := parseGoType(c.Types[k]); err != nil {
			bad("types", "%q: %v", k, err)
		}
	}
	if c.Aliases != nil {
		errs = append(errs, c.Aliases.check(c)...)
	}
	if c.Documents != nil {
		errs = append(errs, c.Documents.check(c)...)
	}
	byName := map[string]string{}
	for _, role := range sortedKeys(fileRoles) {
		name := c.fileName(role)
		if prev, dup := byName[name]; dup {
			bad("files", "%q and %q would both be written to %s", prev, role, name)
		}
		byName[name] = role
	}
	for _, k := range sortedKeys(c.Files) {
		v := c.Files[k]
		if _, ok := fileRoles[k]; !ok {
			bad("files", "unknown role %q (want types, unions, methods, schema)", k)
		} else if filepath.Base(v) != v || !strings.HasSuffix(v, ".go") || strings.HasSuffix(v, "_test.go") {
			bad("files", "%q: %q must be a plain .go file name (not a test file)", k, v)
		}
	}
	return errors.Join(errs...)
}

// InputPath is the config's input resolved against the config file's
// directory; empty when the config names none.
func (c *Config) InputPath() string { return c.resolve(c.Input) }

// RootDir is the config's root resolved against the config file's
// directory; empty when the config names none.
func (c *Config) RootDir() string { return c.resolve(c.Root) }

// OutDir is the config's output directory resolved against the config
// file's directory; empty when the config names none.
func (c *Config) OutDir() string { return c.resolve(c.Out) }

func (c *Config) resolve(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.dir, filepath.FromSlash(p))
}

// FileNames returns the names a generation may give the files it writes
// into the output directory, one per role (types, unions, methods,
// schema), as the config names them; c may be nil. A generation writes
// only the ones it needs: no unions file without unions, no methods file
// for types alone.
func (c *Config) FileNames() []string {
	names := make([]string, 0, len(fileRoles))
	for _, role := range sortedKeys(fileRoles) {
		names = append(names, c.fileName(role))
	}
	return names
}

// fileName returns the name of the generated file with the given role.
func (c *Config) fileName(role string) string {
	if c != nil && c.Files[role] != "" {
		return c.Files[role]
	}
	return fileRoles[role]
}

// goType is a Go type named in a config file.
type goType struct {
	path string // import path; empty for predeclared types
	name string
}

var predeclared = set("string", "bool", "int", "int8", "int16", "int32", "int64",
	"uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "any", "byte", "rune")

// parseGoType reads "string" or "import/path.Name".
func parseGoType(s string) (goType, error) {
	if predeclared[s] {
		return goType{name: s}, nil
	}
	i := strings.LastIndex(s, ".")
	if i <= 0 || i == len(s)-1 {
		return goType{}, fmt.Errorf("%q is neither a predeclared type nor import/path.Name", s)
	}
	t := goType{path: s[:i], name: s[i+1:]}
	if !token.IsIdentifier(t.name) || !token.IsExported(t.name) {
		return goType{}, fmt.Errorf("%q: %s is not an exported Go identifier", s, t.name)
	}
	return t, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// The ways a generated client sends the params of an either method.
const (
	// ClientParamsByName sends them as an object (the default), so that a
	// server's errors name the members (/key) rather than positions (/0).
	ClientParamsByName = "by-name"
	// ClientParamsByPosition sends them as an array when it says exactly
	// what the object says, as an object otherwise.
	ClientParamsByPosition = "by-position"
)

// checkClientParams accepts "", by-name and by-position.
func checkClientParams(s string) error {
	switch s {
	case "", ClientParamsByName, ClientParamsByPosition:
		return nil
	}
	return fmt.Errorf("%q is neither %q nor %q", s, ClientParamsByName, ClientParamsByPosition)
}
