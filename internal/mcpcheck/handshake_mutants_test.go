package mcpcheck_test

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
)

// mutant is a changed copy of a fixture's params or result.
type mutant struct {
	what  string
	doc   any
	later bool // a variant of a later version was put in
}

// replacement is a value put in place of a node of a fixture, and the
// version it first became valid in at such a place ("" when never).
type replacement struct {
	name, since string
	value       string
}

// blockSamples are content blocks of every kind any version has.
var blockSamples = []replacement{
	{"text", "2024-11-05", `{"type":"text","text":"swapped"}`},
	{"image", "2024-11-05", `{"type":"image","data":"AAAA","mimeType":"image/png"}`},
	{"audio", "2025-03-26", `{"type":"audio","data":"AAAA","mimeType":"audio/wav"}`},
	{"resource", "2024-11-05", `{"type":"resource","resource":{"uri":"file:///swapped","text":"x"}}`},
	{"resource_link", "2025-06-18", `{"type":"resource_link","uri":"file:///swapped","name":"swapped"}`},
	{"tool_use", "2025-11-25", `{"type":"tool_use","id":"u1","name":"t","input":{}}`},
	{"tool_result", "2025-11-25", `{"type":"tool_result","toolUseId":"u1","content":[]}`},
}

// fieldSamples are the elicitation field schemas 2025-11-25 added (the
// titled single choice is also a valid plain string field before).
var fieldSamples = []replacement{
	{"titled single-select enum", "2025-11-25", `{"type":"string","oneOf":[{"const":"a","title":"A"}]}`},
	{"untitled multi-select enum", "2025-11-25", `{"type":"array","items":{"type":"string","enum":["a","b"]}}`},
	{"titled multi-select enum", "2025-11-25", `{"type":"array","items":{"anyOf":[{"const":"a","title":"A"}]}}`},
	{"nested object field", "", `{"type":"object","properties":{}}`},
}

// substitution says where in which message part later variants are put.
type substitution struct {
	method string         // "" for every method
	part   string         // "params" or "result"
	at     *regexp.Regexp // pointer of the node replaced
	block  bool           // the node must be a content block
	with   []replacement
}

var (
	blockSpots   = regexp.MustCompile(`(^|/)content(/\d+)?$`)
	singleBlock  = regexp.MustCompile(`(^|/)content$`)
	formField    = regexp.MustCompile(`^/requestedSchema/properties/[^/]+$`)
	formValue    = regexp.MustCompile(`^/content/[^/]+$`)
	wholeMessage = regexp.MustCompile(`^$`)
)

// substitutions put union members of other kinds, most of them from later
// versions, where a fixture has a union member.
var substitutions = []substitution{
	{"", "params", blockSpots, true, blockSamples},
	{"", "result", blockSpots, true, blockSamples},
	// Several blocks in one sampling message: 2025-11-25.
	{"", "params", singleBlock, true, []replacement{{"a list of blocks", "2025-11-25", `[{"type":"text","text":"a"},{"type":"text","text":"b"}]`}}},
	{"", "result", singleBlock, true, []replacement{{"a list of blocks", "2025-11-25", `[{"type":"text","text":"a"},{"type":"text","text":"b"}]`}}},
	{"elicitation/create", "params", formField, false, fieldSamples},
	// Multi-select answers: 2025-11-25.
	{"elicitation/create", "result", formValue, false, []replacement{{"a list of strings", "2025-11-25", `["a","b"]`}}},
	// A URL-mode elicitation: 2025-11-25.
	{"elicitation/create", "params", wholeMessage, false, []replacement{{"URL mode", "2025-11-25", `{"mode":"url","message":"m","elicitationId":"e1","url":"https://example.com/x"}`}}},
	// A task instead of a tool result: 2025-11-25.
	{"tools/call", "result", wholeMessage, false, []replacement{{"a task", "2025-11-25", `{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T00:00:00Z","ttl":null}}`}}},
}

// isBlock reports whether v looks like a content block.
func isBlock(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	kind, _ := m["type"].(string)
	return slices.ContainsFunc(blockSamples, func(r replacement) bool { return r.name == kind })
}

// substitute calls emit with a copy of v for each node (at pointer at) a
// substitution of method's part applies to, once per replacement.
func substitute(t *testing.T, version, method, part string, v any, at string, emit func(mutant)) {
	for _, s := range substitutions {
		if (s.method != "" && s.method != method) || s.part != part || !s.at.MatchString(at) || (s.block && !isBlock(v)) {
			continue
		}
		for _, r := range s.with {
			if s.block && r.value[0] == '{' && strings.Contains(r.value, `"type":"`+v.(map[string]any)["type"].(string)+`"`) {
				continue // the same kind
			}
			later := r.since > version
			emit(mutant{"with " + at + " replaced by " + r.name, parse(t, json.RawMessage(r.value), ""), later})
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			substitute(t, version, method, part, x[k], at+"/"+k, func(m mutant) {
				c := maps.Clone(x)
				c[k] = m.doc
				m.doc = c
				emit(m)
			})
		}
	case []any:
		for i, item := range x {
			substitute(t, version, method, part, item, at+"/"+strconv.Itoa(i), func(m mutant) {
				c := slices.Clone(x)
				c[i] = m.doc
				m.doc = c
				emit(m)
			})
		}
	}
}

// mutants returns every mutant of a fixture's params or result.
func mutants(t *testing.T, version, method, part string, doc any) []mutant {
	var out []mutant
	mcpcheck.Mutate(doc, "", func(what string, m any) { out = append(out, mutant{what: what, doc: m}) })
	substitute(t, version, method, part, doc, "", func(m mutant) { out = append(out, m) })
	return out
}

// accepts reports whether any of schemas accepts doc.
func accepts(schemas []*jsonschema.Schema, doc any) bool {
	return slices.ContainsFunc(schemas, func(s *jsonschema.Schema) bool { return s.Validate(doc) == nil })
}

func TestHandshakeFixtureMutantsGetTheSameVerdictFromBothSchemas(t *testing.T) {
	for _, version := range handshakeVersions {
		t.Run(version, func(t *testing.T) {
			p, _ := publishedFor(t, version)
			o := oursFor(t, version)
			total, agree, later, laterRejected, rejected := 0, 0, 0, 0, 0
			check := func(name string, ours bool, theirs bool, m mutant) {
				total++
				if m.later {
					later++
					if !theirs {
						laterRejected++
					}
				}
				if !theirs {
					rejected++
				}
				if assert.Equal(t, theirs, ours, "%s %s: published accepts=%v, ours accepts=%v", name, m.what, theirs, ours) {
					agree++
				}
			}
			for i, f := range handshakeFixtures(t, version) {
				m, ok := o.Method(f.Method)
				require.True(t, ok)
				msgDef, _ := p.MessageDef(f.Method)
				theirMsg, err := p.Def(msgDef)
				require.NoError(t, err)
				ourParams, err := o.Compile(m.Params)
				require.NoError(t, err)
				if f.Params != nil {
					for _, mu := range mutants(t, version, f.Method, "params", parse(t, f.Params, "")) {
						check(f.name(i)+" params", ourParams.Validate(mu.doc) == nil, theirMsg.Validate(wrap(f.Method, m.Notification, mu.doc)) == nil, mu)
					}
				}
				if m.Notification {
					continue
				}
				ourResult, err := o.Compile(m.Result)
				require.NoError(t, err)
				var theirResults []*jsonschema.Schema
				for _, d := range p.ResultDefs(f.Method) {
					s, err := p.Def(d)
					require.NoError(t, err)
					theirResults = append(theirResults, s)
				}
				for _, mu := range mutants(t, version, f.Method, "result", parse(t, f.Result, "")) {
					check(f.name(i)+" result", ourResult.Validate(mu.doc) == nil, accepts(theirResults, mu.doc), mu)
				}
			}
			t.Logf("%s: %d/%d mutants get the same verdict from ours and the published schema (%d rejected by the published one; %d put in a variant of a later version, %d of them rejected)", version, agree, total, rejected, later, laterRejected)
		})
	}
}
