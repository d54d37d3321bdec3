package gen

import "fmt"

// Format names an input format, and so the front end that reads it.
type Format string

// The input formats rpcgen reads.
const (
	// FormatSchemarpc is the project's own index: a JSON Schema 2020-12
	// document with a service name and a methods list
	// (docs/schema-format.md).
	FormatSchemarpc Format = "schemarpc"
	// FormatMCP is a published Model Context Protocol schema.json, of any
	// version, read unmodified.
	FormatMCP Format = "mcp"
	// FormatOpenRPC is an OpenRPC 1.x document.
	FormatOpenRPC Format = "openrpc"
	// FormatJSONSchema is a plain JSON Schema document of any draft
	// (draft-04 to 2020-12): its definitions become types, and there are
	// no methods.
	FormatJSONSchema Format = "jsonschema"
)

// Formats lists the formats in the order they are documented.
var Formats = []Format{FormatSchemarpc, FormatMCP, FormatOpenRPC, FormatJSONSchema}

// ParseFormat checks a format name given on the command line or in a
// config file.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q (want schemarpc, mcp, openrpc or jsonschema)", s)
}

// detectFormat tells the formats apart by their top-level members: an
// OpenRPC document has "openrpc"; a schemarpc index has "methods" (and
// "service"); an MCP schema.json is a bare container of definitions
// ("definitions" up to 2025-06-18, "$defs" since) that include the JSON-RPC
// envelope types; any other document with a JSON Schema $schema,
// definitions or keywords that describe a value is a plain JSON Schema.
//
// A document that is not an object, or that has the schemarpc index's "$id"
// and nothing else to go by, goes to the schemarpc front end, whose errors
// say what is missing.
func detectFormat(root *node) (Format, bool) {
	if root.kind != kindObject {
		return FormatSchemarpc, true
	}
	switch {
	case root.get("openrpc") != nil:
		return FormatOpenRPC, true
	case root.get("methods") != nil, root.get("service") != nil:
		return FormatSchemarpc, true
	}
	for _, container := range []string{"$defs", "definitions"} {
		if defs := root.get(container); defs != nil && defs.kind == kindObject && defs.get("JSONRPCMessage") != nil {
			return FormatMCP, true
		}
	}
	if _, named := draftOf(root); named || root.get("$defs") != nil || root.get("definitions") != nil || describesValue(root) {
		return FormatJSONSchema, true
	}
	if root.get("$id") != nil {
		return FormatSchemarpc, true
	}
	return "", false
}

// load reads the input with the front end its format calls for.
func load(opts Options, describing bool, typeAt map[string]typeRef) (*service, error) {
	l, doc, err := readIndex(opts.Input, opts.FS)
	if err != nil {
		return nil, err
	}
	if opts.Config != nil && opts.Config.Root != "" {
		if err := l.setRoot(opts.Config.RootDir()); err != nil {
			return nil, err
		}
	}
	l.describing = describing
	l.warn = opts.Warn
	l.typeAt = typeAt
	format := opts.Format
	if format == "" && opts.Config != nil {
		format = opts.Config.Format
	}
	if format == "" {
		var ok bool
		if format, ok = detectFormat(doc.root); !ok {
			return nil, ErrorList{{File: doc.rel, Message: "cannot tell the input's format: a schemarpc index has \"methods\", an OpenRPC document \"openrpc\", an MCP schema.json \"$defs\" or \"definitions\" with JSONRPCMessage, a JSON Schema document \"$schema\", definitions or a type; name it with --format"}}
		}
	}
	switch format {
	case FormatSchemarpc:
		return loadSchemarpc(l, doc, opts.Config)
	case FormatMCP:
		return loadMCP(l, doc, opts.Config)
	case FormatOpenRPC:
		return loadOpenRPC(l, doc, opts.Config)
	case FormatJSONSchema:
		return loadJSONSchema(l, doc, opts.Config)
	}
	return nil, fmt.Errorf("unknown format %q (want schemarpc, mcp, openrpc or jsonschema)", format)
}
