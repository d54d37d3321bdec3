package gen

import (
	"bytes"
	"encoding/json"
	neturl "net/url"
	"sort"
	"strings"
)

// openRPCFileName is the name of the method index exported as OpenRPC.
const openRPCFileName = "methods.openrpc.json"

// openRPCDoc is an OpenRPC 1.4 document describing the derived method
// index, for documentation tools and rpc.discover. Every schema is a $ref
// into the input document by its absolute URL; x-direction says which side
// handles a method (OpenRPC has no such notion) and x-params-schema points
// at the whole params object, which by-name content descriptors cannot
// express (its _meta, its open members).
type openRPCDoc struct {
	OpenRPC string          `json:"openrpc"`
	Info    openRPCInfo     `json:"info"`
	Methods []openRPCMethod `json:"methods"`
}

type openRPCInfo struct {
	Title   string `json:"title"`
	Version string `json:"version"`
}

type openRPCMethod struct {
	Name           string              `json:"name"`
	Description    string              `json:"description,omitempty"`
	ParamStructure string              `json:"paramStructure"`
	Params         []openRPCDescriptor `json:"params"`
	Result         *openRPCDescriptor  `json:"result,omitempty"`
	Deprecated     bool                `json:"deprecated,omitempty"`
	Direction      string              `json:"x-direction"`
	ParamsSchema   *openRPCRef         `json:"x-params-schema,omitempty"`
}

type openRPCDescriptor struct {
	Name     string `json:"name"`
	Required bool   `json:"required,omitempty"`
	Schema   any    `json:"schema"`
}

type openRPCRef struct {
	Ref string `json:"$ref"`
}

// openRPCFile renders methods.openrpc.json from the method index, sorted by
// method name like methods.lock.json.
func (e *emitter) openRPCFile() (File, error) {
	version := e.svc.version
	if version == "" {
		version = "unknown"
	}
	doc := openRPCDoc{OpenRPC: "1.4.0", Info: openRPCInfo{Title: e.svc.name, Version: version}, Methods: []openRPCMethod{}}
	for _, m := range e.svc.methods {
		om := openRPCMethod{Name: m.name, Description: m.doc, ParamStructure: "by-name", Params: []openRPCDescriptor{},
			Deprecated: m.deprecated, Direction: directionNames[m.direction]}
		if m.hasParams {
			om.ParamsSchema = &openRPCRef{m.paramsURL}
			om.Params = e.openRPCParams(m.paramsURL)
		}
		if !m.notification {
			result := any(typeURL(m.result))
			if len(m.altResults) > 0 {
				branches := []any{result}
				for _, t := range m.altResults {
					branches = append(branches, typeURL(t))
				}
				result = map[string]any{"anyOf": branches}
			}
			om.Result = &openRPCDescriptor{Name: "result", Schema: result}
		}
		doc.Methods = append(doc.Methods, om)
	}
	sort.Slice(doc.Methods, func(i, j int) bool { return doc.Methods[i].Name < doc.Methods[j].Name })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return File{}, err
	}
	return File{Name: openRPCFileName, Content: buf.Bytes()}, nil
}

// typeURL is a $ref to the definition a named type was generated from.
func typeURL(t typeRef) any {
	if t.kind != refNamed {
		return true
	}
	return openRPCRef{t.named.origin.url()}
}

// openRPCParams lists the members of the params object schema at location
// (following a $ref) as by-name content descriptors, in schema order.
func (e *emitter) openRPCParams(location string) []openRPCDescriptor {
	out := []openRPCDescriptor{}
	base, n := e.schemaAt(location)
	if n == nil {
		return out
	}
	if ref := n.get("$ref"); ref != nil && ref.kind == kindString && strings.HasPrefix(ref.str, "#") {
		base, n = e.schemaAt(strings.SplitN(location, "#", 2)[0] + ref.str)
		if n == nil {
			return out
		}
	}
	required := map[string]bool{}
	if r := n.get("required"); r != nil {
		for _, it := range r.items {
			required[it.str] = true
		}
	}
	if props := n.get("properties"); props != nil {
		for _, p := range props.members {
			out = append(out, openRPCDescriptor{Name: p.key, Required: required[p.key], Schema: openRPCRef{base + fragment(pointerJoin("", "properties", p.key))}})
		}
	}
	return out
}

// schemaAt finds the schema at an absolute location among the input
// documents; it returns the location (normalised) and the node.
func (e *emitter) schemaAt(location string) (string, *node) {
	url, frag, _ := strings.Cut(location, "#")
	for _, d := range e.svc.docs {
		if d.url != url {
			continue
		}
		u, err := neturl.Parse("#" + frag)
		if err != nil {
			return "", nil
		}
		n, ok := d.root.lookup(u.Fragment)
		if !ok {
			return "", nil
		}
		return location, n
	}
	return "", nil
}
