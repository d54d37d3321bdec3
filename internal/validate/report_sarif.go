package validate

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
)

// sarifSchema is the location of the SARIF 2.1.0 JSON schema, as a SARIF
// log names it.
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// sarifRules are the rules a finding can break, one per JSON-RPC code.
var sarifRules = []struct {
	code        int
	name, short string
}{
	{-32700, "ParseError", "The message is not JSON."},
	{-32600, "InvalidRequest", "The message is not a valid JSON-RPC message of this protocol: its envelope, id, kind or batching is wrong, or a response answers no request."},
	{-32601, "MethodNotFound", "The method is not part of the schema set, or the side that sent it does not send it."},
	{-32602, "InvalidParams", "The params break the method's params schema."},
	{-32603, "InvalidResult", "The result breaks the result schema of the method of the request it answers, or, for a response no request asks for, every result schema that could fit."},
	{CodeHeaderMismatch, "HeaderMismatch", "The MCP-Protocol-Version header disagrees with the version in the body."},
	{CodeUnsupportedVersion, "UnsupportedProtocolVersion", "The request names an MCP protocol version the checker does not know."},
}

func sarifRuleID(code int) string { return "jsonrpc" + strconv.Itoa(code) }

// sarifReporter writes a SARIF 2.1.0 log with one run, streaming its
// results as they come.
type sarifReporter struct {
	w     io.Writer
	tool  ToolInfo
	count int
}

type sarifText struct {
	Text string `json:"text"`
}

func (r *sarifReporter) head() error {
	type rule struct {
		ID                   string            `json:"id"`
		Name                 string            `json:"name"`
		ShortDescription     sarifText         `json:"shortDescription"`
		DefaultConfiguration map[string]string `json:"defaultConfiguration"`
	}
	rules := make([]rule, len(sarifRules))
	for i, rl := range sarifRules {
		rules[i] = rule{ID: sarifRuleID(rl.code), Name: rl.name, ShortDescription: sarifText{rl.short}, DefaultConfiguration: map[string]string{"level": "error"}}
	}
	driver := map[string]any{"name": r.tool.Name, "rules": rules}
	if r.tool.Version != "" {
		driver["version"] = r.tool.Version
	}
	if r.tool.URI != "" {
		driver["informationUri"] = r.tool.URI
	}
	b, err := json.Marshal(map[string]any{"driver": driver})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(r.w, "{\"$schema\": %q, \"version\": \"2.1.0\", \"runs\": [{\"tool\": %s, \"results\": [", sarifSchema, b)
	return err
}

func (r *sarifReporter) Finding(f Finding) error {
	if r.count == 0 {
		if err := r.head(); err != nil {
			return err
		}
	}
	idx := 0
	for i, rl := range sarifRules {
		if rl.code == f.Code {
			idx = i
		}
	}
	at := ""
	if f.Pointer != "" {
		at = " at " + f.Pointer
	}
	phys := map[string]any{"artifactLocation": map[string]string{"uri": sarifURI(f.File)}}
	if f.Line > 0 {
		phys["region"] = map[string]int{"startLine": f.Line}
	}
	loc := map[string]any{"physicalLocation": phys}
	if f.Pointer != "" {
		loc["logicalLocations"] = []map[string]string{{"fullyQualifiedName": f.Pointer, "kind": "member"}}
	}
	j := toJSON(f)
	result := map[string]any{
		"ruleId":    sarifRuleID(f.Code),
		"ruleIndex": idx,
		"level":     "error",
		"message":   sarifText{fmt.Sprintf("message %d (%s)%s: %s", f.Index, subject(f), at, oneLine(f.Reason))},
		"locations": []any{loc},
		"properties": map[string]any{
			"messageIndex": f.Index, "pointer": f.Pointer, "code": f.Code, "kind": f.Kind,
			"method": f.Method, "from": j.From, "violations": f.Violations,
		},
	}
	b, err := json.Marshal(result)
	if err != nil {
		return err
	}
	sep := ",\n  "
	if r.count == 0 {
		sep = "\n  "
	}
	r.count++
	if _, err := io.WriteString(r.w, sep); err != nil {
		return err
	}
	_, err = r.w.Write(b)
	return err
}

func (r *sarifReporter) Close(s Summary) error {
	if r.count == 0 {
		if err := r.head(); err != nil {
			return err
		}
	}
	props, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(r.w, "\n], \"properties\": %s}]}\n", props)
	return err
}

// sarifURI turns a file name into a relative URI reference.
func sarifURI(file string) string {
	if file == "" || file == "-" {
		return "stdin"
	}
	return (&url.URL{Path: filepath.ToSlash(file)}).String()
}
