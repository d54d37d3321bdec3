package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/schemarpc/schemarpc/schema"
)

// versionSchema is what the client knows of one protocol version from the
// project's schema (schema/mcp/<version>): the methods the version has and
// the result schema of each request, compiled on first use.
type versionSchema struct {
	version string
	set     *rpc.SchemaSet
	methods map[string]versionMethod
	defs    map[string]string // definition name → absolute location

	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema // location → schema
}

// versionMethod is one entry of a version's index.
type versionMethod struct {
	notification bool
	direction    string // client-to-server, server-to-client or both
	result       string // absolute location of the result schema
}

// sentByClient reports whether the client may send the method.
func (m versionMethod) sentByClient() bool {
	return m.direction == "client-to-server" || m.direction == "both"
}

var (
	clientSchemaSet = sync.OnceValues(func() (*rpc.SchemaSet, error) {
		return rpc.NewSchemaSetFS(schema.FS, ".", schema.BaseURL)
	})
	versionSchemasMu sync.Mutex
	versionSchemas   = map[string]*versionSchema{}
)

// schemaOf returns the schema of a protocol version the project knows.
func schemaOf(version string) (*versionSchema, error) {
	versionSchemasMu.Lock()
	defer versionSchemasMu.Unlock()
	if vs, ok := versionSchemas[version]; ok {
		return vs, nil
	}
	set, err := clientSchemaSet()
	if err != nil {
		return nil, err
	}
	dir := "mcp/" + version
	files, err := fs.Glob(schema.FS, dir+"/*.json")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("mcp: no schema of protocol version %q", version)
	}
	vs := &versionSchema{version: version, set: set, methods: map[string]versionMethod{}, defs: map[string]string{},
		compiled: map[string]*jsonschema.Schema{}}
	for _, f := range files {
		b, err := fs.ReadFile(schema.FS, f)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Defs    map[string]json.RawMessage `json:"$defs"`
			Methods []struct {
				Name      string            `json:"name"`
				Kind      string            `json:"kind"`
				Direction string            `json:"direction"`
				Result    map[string]string `json:"result"`
			} `json:"methods"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("mcp: %s: %w", f, err)
		}
		base, _ := url.Parse(schema.BaseURL + f)
		for name := range doc.Defs {
			vs.defs[name] = base.String() + "#/$defs/" + name
		}
		for _, m := range doc.Methods {
			vm := versionMethod{notification: m.Kind == "notification", direction: m.Direction}
			if ref := m.Result["$ref"]; ref != "" {
				r, err := url.Parse(ref)
				if err != nil {
					return nil, fmt.Errorf("mcp: %s: method %s: %w", f, m.Name, err)
				}
				vm.result = base.ResolveReference(r).String()
			}
			vs.methods[m.Name] = vm
		}
	}
	versionSchemas[version] = vs
	return vs, nil
}

// compile compiles a location of the version's documents once.
func (vs *versionSchema) compile(loc string) (*jsonschema.Schema, error) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if s, ok := vs.compiled[loc]; ok {
		return s, nil
	}
	s, err := vs.set.Compile(loc)
	if err != nil {
		return nil, err
	}
	vs.compiled[loc] = s
	return s, nil
}

// clientMethod returns the index entry of a method the client may send in
// this version, or an *UnsupportedMethodError.
func (vs *versionSchema) clientMethod(method string) (versionMethod, error) {
	m, ok := vs.methods[method]
	if !ok || !m.sentByClient() {
		return versionMethod{}, &UnsupportedMethodError{Method: method, Version: vs.version}
	}
	return m, nil
}

// checkResult validates a result of method against the version's schema.
func (vs *versionSchema) checkResult(method string, raw json.RawMessage) error {
	m, ok := vs.methods[method]
	if !ok || m.result == "" {
		return nil
	}
	sch, err := vs.compile(m.result)
	if err != nil {
		return err
	}
	return validateRaw(sch, raw)
}

// checkDef validates raw against one of the version's definitions.
func (vs *versionSchema) checkDef(name string, raw json.RawMessage) error {
	loc, ok := vs.defs[name]
	if !ok {
		return fmt.Errorf("mcp: the %s schema has no definition %s", vs.version, name)
	}
	sch, err := vs.compile(loc)
	if err != nil {
		return err
	}
	return validateRaw(sch, raw)
}

// validateRaw validates JSON text against a schema.
func validateRaw(sch *jsonschema.Schema, raw json.RawMessage) error {
	inst, err := decodeInstance(raw)
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// UnsupportedMethodError is returned, before anything is sent, for a method
// the session's protocol version does not have (ping or logging/setLevel in
// 2026-07-28, subscriptions/listen before it, and so on).
type UnsupportedMethodError struct {
	Method  string // the method called
	Version string // the session's protocol version
}

// Error names the method and the version.
func (e *UnsupportedMethodError) Error() string {
	return fmt.Sprintf("mcp: protocol version %s has no method %s (nothing was sent)", e.Version, e.Method)
}

// ErrUnsupportedMethod matches every *UnsupportedMethodError with errors.Is.
var ErrUnsupportedMethod = errors.New("mcp: the session's protocol version lacks the method")

// Is reports whether target is ErrUnsupportedMethod.
func (e *UnsupportedMethodError) Is(target error) bool { return target == ErrUnsupportedMethod }

// InvalidResultError is returned when a server's result does not validate
// against the schema of the session's protocol version.
type InvalidResultError struct {
	Method  string // the method called
	Version string // the session's protocol version
	Err     error  // what the validation found
}

// Error names the method and what is wrong.
func (e *InvalidResultError) Error() string {
	return fmt.Sprintf("mcp: the server's %s result breaks the %s schema: %v", e.Method, e.Version, e.Err)
}

// Unwrap returns the validation error.
func (e *InvalidResultError) Unwrap() error { return e.Err }
