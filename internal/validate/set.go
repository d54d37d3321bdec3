package validate

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/gen"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/schemarpc/schemarpc/schema"
)

// Set is a compiled schema set: the methods of one protocol with their
// params and result schemas, or, for the bare "jsonrpc" set, the envelopes
// alone.
type Set struct {
	name    string
	methods map[string]*method // nil for the envelope-only set
	// mcp is set for MCP sets: batches follow the version's rules.
	mcp bool
	// version is the MCP protocol version, when known.
	version string
	// alone is the slice holding just this set, for the checkers to share.
	alone []*Set
	// versions are, for the following set (FollowSet), the sets of every
	// MCP version, newest first; nil for any other set.
	versions []*Set
	// handshake and stateless split versions by era, newest first.
	handshake, stateless []*Set
}

// method is one method of a Set, its schemas compiled.
type method struct {
	gen.MethodInfo
	structure rpc.ParamStructure
	params    *rpc.Schema
	results   []*rpc.Schema
	// declared holds, for each result schema, the names of the result's
	// members it declares (see lone.go).
	declared []map[string]bool
}

// batchesAllowed reports whether a batch is an acceptable message: always in
// plain JSON-RPC, in MCP only in 2025-03-26 (or when the version is unknown).
func (s *Set) batchesAllowed() bool {
	return !s.mcp || s.version == "" || s.version == "2025-03-26"
}

// Name returns the name the set was opened with.
func (s *Set) Name() string { return s.name }

// statelessEra reports whether an MCP version set is of the stateless era:
// it has no initialize handshake.
func (s *Set) statelessEra() bool {
	_, ok := s.methods["initialize"]
	return !ok
}

// EnvelopeSet is the name of the built-in set that checks the JSON-RPC 2.0
// envelopes alone, whatever the method.
const EnvelopeSet = "jsonrpc"

// FollowSet is the name of the built-in set that checks each conversation
// under the MCP version it is in, following it the way a peer does. It is
// the default of rpcgen validate and rpcgen proxy. A Checker of it:
//
//   - checks a request whose params._meta carries
//     "io.modelcontextprotocol/protocolVersion" naming a stateless version
//     (2026-07-28) under that version, whatever came before: in the
//     stateless era every request stands alone, server/discover included.
//     A version it does not know is a -32022 finding.
//   - takes initialize as the start of a handshake: the request is checked
//     under the version it asks for (under every handshake version when it
//     asks for one the checker does not know), and the protocolVersion the
//     server answers with is negotiated: from then on it governs every
//     message that carries no version of its own. A new initialize begins a
//     new handshake, so recordings of several conversations may follow each
//     other in one input.
//   - follows the MCP-Protocol-Version header of Streamable HTTP
//     (Item.ProtocolVersion): a stateless version in it makes the message a
//     stateless request, as a dual-era server routes it, and must agree
//     with params._meta (-32020 when not); a handshake version must be the
//     negotiated one (-32600 when not: a 2025-06-18 server answers such a
//     request with 400), and before negotiation names the version of a
//     message that carries none.
//   - checks any other message against each version it can belong to: the
//     handshake versions while an initialize awaits its answer (the one
//     asked for first), the stateless ones once the conversation has made a
//     stateless request, every version otherwise. The message is valid when
//     one of them accepts it; when none does, the findings are those of the
//     closest, and say so.
//   - checks a response under the versions its request was checked under,
//     and a response no request asks for as a lone response (see
//     UnmatchedResponse).
const FollowSet = "mcp"

// Builtins lists the names of the built-in sets: "jsonrpc", "mcp", then
// "mcp/<version>" for each MCP version whose schema the binary embeds,
// oldest first.
func Builtins() []string {
	out := []string{EnvelopeSet, FollowSet}
	out = append(out, versionSets()...)
	return out
}

// versionSets lists the names of the built-in sets of one MCP version,
// oldest first.
func versionSets() []string {
	var out []string
	idx, _ := fs.Glob(schema.FS, "mcp/*/index.json") // the pattern is valid
	for _, f := range idx {
		out = append(out, path.Dir(f))
	}
	slices.Sort(out)
	return out
}

// Open returns the set named by name: a built-in set (see Builtins) or the
// path of any schema input "rpcgen gen" reads — a schemarpc index, a
// published MCP schema.json or an OpenRPC document.
func Open(name string) (*Set, error) {
	if name == EnvelopeSet {
		return alone(&Set{name: name}), nil
	}
	if name == FollowSet {
		return openFollow()
	}
	if slices.Contains(Builtins(), name) {
		d, err := gen.Describe(gen.Options{FS: schema.FS, Input: name + "/index.json"})
		if err != nil {
			return nil, fmt.Errorf("built-in set %s: %w", name, err)
		}
		return compile(name, d, true, strings.TrimPrefix(name, "mcp/"))
	}
	if strings.HasPrefix(name, "mcp/") && !strings.Contains(name, ".") {
		return nil, fmt.Errorf("unknown built-in set %q (built in: %s)", name, strings.Join(Builtins(), ", "))
	}
	d, err := gen.Describe(gen.Options{Input: name})
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return compile(name, d, d.Service == "MCP", d.Version)
}

// compile builds a Set from a description, compiling every schema now so
// that a broken schema is reported before any message is read.
func compile(name string, d *gen.Description, mcp bool, version string) (*Set, error) {
	docs := make(map[string]string, len(d.Documents))
	for u, b := range d.Documents {
		docs[u] = string(b)
	}
	var opts []rpc.SchemaSetOption
	draft := jsonschema.Draft2020
	if d.Draft07 {
		opts = append(opts, rpc.WithDefaultDraft(rpc.Draft7))
		draft = jsonschema.Draft7
	}
	schemas := rpc.NewSchemaSet(docs, opts...)
	lib := libraryCompiler(docs, draft)
	s := alone(&Set{name: name, methods: make(map[string]*method, len(d.Methods)), mcp: mcp, version: version})
	for _, info := range d.Methods {
		m := &method{MethodInfo: info, structure: structures[info.Structure]}
		if info.Params != "" {
			sch, err := schemas.Compile(info.Params)
			if err != nil {
				return nil, fmt.Errorf("schema %s: params of %s: %w", name, info.Name, err)
			}
			m.params = sch
		}
		for _, r := range info.Results {
			sch, err := schemas.Compile(r)
			if err != nil {
				return nil, fmt.Errorf("schema %s: result of %s: %w", name, info.Name, err)
			}
			m.results = append(m.results, sch)
			libSch, err := lib.Compile(r)
			if err != nil {
				return nil, fmt.Errorf("schema %s: result of %s: %w", name, info.Name, err)
			}
			m.declared = append(m.declared, declared(libSch))
		}
		s.methods[info.Name] = m
	}
	return s, nil
}

var structures = map[string]rpc.ParamStructure{"by-name": rpc.ByName, "by-position": rpc.ByPosition, "either": rpc.Either, "": rpc.ByName}

// alone sets s.alone and returns s.
func alone(s *Set) *Set {
	s.alone = []*Set{s}
	return s
}

// openFollow compiles the set of every built-in MCP version into the
// following set.
func openFollow() (*Set, error) {
	f := alone(&Set{name: FollowSet, methods: map[string]*method{}, mcp: true})
	names := versionSets()
	for i := len(names) - 1; i >= 0; i-- {
		v, err := Open(names[i])
		if err != nil {
			return nil, err
		}
		f.versions = append(f.versions, v)
		if v.statelessEra() {
			f.stateless = append(f.stateless, v)
		} else {
			f.handshake = append(f.handshake, v)
		}
	}
	return f, nil
}

// versionSet returns the set of an MCP version the following set knows.
func (s *Set) versionSet(version string) *Set {
	for _, v := range s.versions {
		if v.version == version {
			return v
		}
	}
	return nil
}

// libraryCompiler returns the jsonschema library's compiler of docs alone,
// reading documents without $schema as draft: the checker asks the
// library's compiled schemas which members a result declares.
func libraryCompiler(docs map[string]string, draft *jsonschema.Draft) *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	c.UseLoader(docsLoader(docs))
	return c
}

// docsLoader loads documents from the map alone.
type docsLoader map[string]string

// Load returns the document at url, decoded.
func (l docsLoader) Load(url string) (any, error) {
	doc, ok := l[url]
	if !ok {
		return nil, fmt.Errorf("schema %s is not among the documents", url)
	}
	return jsonschema.UnmarshalJSON(strings.NewReader(doc))
}
