package mcp

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"sync"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/schemarpc/schemarpc/schema"
)

// versionSchema is the project's schema of one protocol version
// (schema/mcp/<version>), read from its index documents: each method's
// direction and the locations of its params and result schemas, and the
// location of every definition. The client checks results with it, the
// stateless server params and answers. Locations compile on first use, in
// one SchemaSet shared by every version (it keeps what it compiled).
type versionSchema struct {
	version string
	set     *rpc.SchemaSet
	methods map[string]versionMethod
	defs    map[string]string // definition name → absolute location
}

// versionMethod is one entry of a version's index.
type versionMethod struct {
	direction string // client-to-server, server-to-client or both
	params    string // absolute location of the params schema, if any
	result    string // absolute location of the result schema, if any
}

// sentByClient reports whether the client may send the method.
func (m versionMethod) sentByClient() bool {
	return m.direction == "client-to-server" || m.direction == "both"
}

var (
	projectSchemaSet = sync.OnceValues(func() (*rpc.SchemaSet, error) {
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
	set, err := projectSchemaSet()
	if err != nil {
		return nil, err
	}
	files, err := fs.Glob(schema.FS, "mcp/"+version+"/*.json")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("mcp: no schema of protocol version %q", version)
	}
	vs := &versionSchema{version: version, set: set, methods: map[string]versionMethod{}, defs: map[string]string{}}
	for _, f := range files {
		b, err := fs.ReadFile(schema.FS, f)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Defs    map[string]json.RawMessage `json:"$defs"`
			Methods []struct {
				Name      string            `json:"name"`
				Direction string            `json:"direction"`
				Params    map[string]string `json:"params"`
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
			vm := versionMethod{direction: m.Direction}
			if vm.params, err = resolveRef(base, m.Params["$ref"]); err != nil {
				return nil, fmt.Errorf("mcp: %s: method %s: %w", f, m.Name, err)
			}
			if vm.result, err = resolveRef(base, m.Result["$ref"]); err != nil {
				return nil, fmt.Errorf("mcp: %s: method %s: %w", f, m.Name, err)
			}
			vs.methods[m.Name] = vm
		}
	}
	versionSchemas[version] = vs
	return vs, nil
}

// resolveRef returns the absolute location of a reference made in the
// document at base; "" stays "".
func resolveRef(base *url.URL, ref string) (string, error) {
	if ref == "" {
		return "", nil
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	return base.ResolveReference(r).String(), nil
}

// compileDef compiles one of the version's definitions.
func (vs *versionSchema) compileDef(name string) (*rpc.Schema, error) {
	loc, ok := vs.defs[name]
	if !ok {
		return nil, fmt.Errorf("mcp: the %s schema has no definition %s", vs.version, name)
	}
	return vs.set.Compile(loc)
}
