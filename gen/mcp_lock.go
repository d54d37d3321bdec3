package gen

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// lockFileName is the name of the derived method index written next to the
// generated Go files.
const lockFileName = "methods.lock.json"

// lockFile is the content of methods.lock.json: the method index the MCP
// front end derived by convention, sorted by method name, so that a schema
// upgrade shows up in review as a diff ("new method tasks/get, direction
// both").
type lockFile struct {
	// Schema is the URL naming the input at run time.
	Schema  string       `json:"schema"`
	Service string       `json:"service"`
	Methods []lockMethod `json:"methods"`
}

// lockMethod is one method of methods.lock.json. Types are the generated
// Go type names (without pointers); params and result are absent when the
// method has none.
type lockMethod struct {
	Method         string   `json:"method"`
	Kind           string   `json:"kind"`
	Direction      string   `json:"direction"`
	Definition     string   `json:"definition,omitempty"`
	Params         string   `json:"params,omitempty"`
	ParamsRequired bool     `json:"paramsRequired,omitempty"`
	Result         string   `json:"result,omitempty"`
	AltResults     []string `json:"altResults,omitempty"`
}

// lockFile renders methods.lock.json.
func (e *emitter) lockFile() (File, error) {
	lock := lockFile{Schema: e.svc.indexURL, Service: e.svc.name, Methods: []lockMethod{}}
	for _, m := range e.svc.methods {
		lm := lockMethod{Method: m.name, Kind: kindWord(m), Direction: directionNames[m.direction], Definition: m.definition, ParamsRequired: m.paramsRequired}
		if m.hasParams {
			lm.Params = goTypeText(m.params)
		}
		if !m.notification {
			lm.Result = goTypeText(m.result)
		}
		for _, t := range m.altResults {
			lm.AltResults = append(lm.AltResults, goTypeText(t))
		}
		lock.Methods = append(lock.Methods, lm)
	}
	sort.Slice(lock.Methods, func(i, j int) bool { return lock.Methods[i].Method < lock.Methods[j].Method })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(lock); err != nil {
		return File{}, err
	}
	return File{Name: lockFileName, Content: buf.Bytes()}, nil
}

// goTypeText writes a Go type expression without its outer pointer:
// CallToolResult, map[string]json.RawMessage.
func goTypeText(t typeRef) string {
	t.ptr = false
	var b strings.Builder
	for {
		if t.ptr {
			b.WriteString("*")
		}
		switch t.kind {
		case refRaw:
			b.WriteString("json.RawMessage")
		case refBasic:
			b.WriteString(t.basic)
		case refNamed:
			b.WriteString(t.named.name)
		case refSlice:
			b.WriteString("[]")
			t = *t.elem
			continue
		case refMap:
			b.WriteString("map[string]")
			t = *t.elem
			continue
		}
		return b.String()
	}
}
