package mcpcheck_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ourHelpers are the definitions of ours that the published schema of the
// version does not have: shared shapes the published schemas write out
// inline each time. The params of each method are helpers too, named after
// their published message (CallToolRequest → CallToolRequestParams).
var ourHelpers = map[string][]string{
	"2024-11-05": {"Meta", "RequestMeta", "RequestParams", "PaginatedRequestParams", "NotificationParams", "ToolSchema", "AnnotatedAnnotations"},
	"2025-03-26": {"Meta", "RequestMeta", "RequestParams", "PaginatedRequestParams", "NotificationParams", "ToolSchema"},
	"2025-06-18": {"Meta", "RequestMeta", "RequestParams", "PaginatedRequestParams", "NotificationParams", "ToolSchema"},
}

// notOurs are the published definitions that are not ours besides the
// messages (definitions with a method const), with why: the JSON-RPC
// envelopes are schema/jsonrpc's business, and unions of messages or
// results are what our index lists method by method.
var notOurs = map[string]string{
	"JSONRPCMessage": "envelope", "JSONRPCRequest": "envelope", "JSONRPCNotification": "envelope",
	"JSONRPCResponse": "envelope", "JSONRPCError": "envelope",
	"JSONRPCBatchRequest": "envelope (2025-03-26)", "JSONRPCBatchResponse": "envelope (2025-03-26)",
	"Request": "generic message", "Notification": "generic message", "PaginatedRequest": "generic message",
	"ClientRequest": "union of messages", "ServerRequest": "union of messages",
	"ClientNotification": "union of messages", "ServerNotification": "union of messages",
	"ClientResult": "union of results", "ServerResult": "union of results",
}

// publishedDoc reads the definitions of a published schema.json as plain
// JSON, for what the Published type does not expose: union membership.
func publishedDoc(t *testing.T, specDir, version string) map[string]map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(specDir, version, "schema.json"))
	require.NoError(t, err)
	var doc struct {
		Definitions map[string]map[string]any `json:"definitions"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	require.NotEmpty(t, doc.Definitions)
	return doc.Definitions
}

// isMessage reports whether a published definition is a message: one with
// a method const.
func isMessage(defs map[string]map[string]any, name string) bool {
	props, _ := defs[name]["properties"].(map[string]any)
	method, _ := props["method"].(map[string]any)
	_, ok := method["const"].(string)
	return ok
}

// members lists the definitions a published union refers to.
func members(defs map[string]map[string]any, union string) []string {
	var out []string
	anyOf, _ := defs[union]["anyOf"].([]any)
	for _, a := range anyOf {
		ref, _ := a.(map[string]any)["$ref"].(string)
		out = append(out, strings.TrimPrefix(ref, "#/definitions/"))
	}
	return out
}

func TestHandshakeIndexesListThePublishedMethodsAndDirections(t *testing.T) {
	for _, version := range handshakeVersions {
		t.Run(version, func(t *testing.T) {
			_, specDir := publishedFor(t, version)
			defs := publishedDoc(t, specDir, version)
			type entry struct {
				notification bool
				direction    string
			}
			want := map[string]entry{}
			add := func(union string, notification bool, dir string) {
				for _, d := range members(defs, union) {
					props, _ := defs[d]["properties"].(map[string]any)
					method, _ := props["method"].(map[string]any)["const"].(string)
					require.NotEmpty(t, method, "%s in %s", d, union)
					e := entry{notification, dir}
					if prev, seen := want[method]; seen && prev.direction != dir {
						e.direction = "both"
					}
					want[method] = e
				}
			}
			add("ClientRequest", false, "client-to-server")
			add("ServerRequest", false, "server-to-client")
			add("ClientNotification", true, "client-to-server")
			add("ServerNotification", true, "server-to-client")

			have := map[string]entry{}
			for _, m := range oursFor(t, version).Methods() {
				have[m.Name] = entry{m.Notification, m.Direction}
			}
			assert.Equal(t, want, have)
		})
	}
}

// values returns every node of v: objects, arrays and scalars.
func values(v any) []any {
	out := []any{v}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out = append(out, values(x[k])...)
		}
	case []any:
		for _, item := range x {
			out = append(out, values(item)...)
		}
	}
	return out
}

func TestHandshakeDefinitionsPairWithThePublishedOnesByName(t *testing.T) {
	for _, version := range handshakeVersions {
		t.Run(version, func(t *testing.T) {
			p, specDir := publishedFor(t, version)
			defs := publishedDoc(t, specDir, version)
			o := oursFor(t, version)

			// Every definition of ours is the published one of the same name,
			// a listed helper, or the params of a published message.
			var paired []string
			for _, name := range o.Defs() {
				switch {
				case p.HasDef(name):
					paired = append(paired, name)
				case slices.Contains(ourHelpers[version], name):
				case strings.HasSuffix(name, "Params") && isMessage(defs, strings.TrimSuffix(name, "Params")):
				default:
					assert.Fail(t, "a definition of ours the published schema lacks", "%s: %s is neither published nor a listed helper", version, name)
				}
			}
			for _, h := range ourHelpers[version] {
				assert.True(t, o.HasDef(h), "listed helper %s is not ours", h)
				assert.False(t, p.HasDef(h), "listed helper %s is a published definition", h)
			}
			// Every published definition is ours, a message, or listed.
			for _, name := range p.Defs() {
				if !o.HasDef(name) && !isMessage(defs, name) {
					assert.Contains(t, notOurs, name, "%s: the published %s is not ours", version, name)
				}
			}

			// Paired definitions give the same verdict on every value found
			// in the fixtures, and each accepts at least one of them.
			var corpus []any
			for _, f := range handshakeFixtures(t, version) {
				if f.Params != nil {
					corpus = append(corpus, values(parse(t, f.Params, ""))...)
				}
				if f.Result != nil {
					corpus = append(corpus, values(parse(t, f.Result, ""))...)
				}
			}
			total, agree := 0, 0
			for _, name := range paired {
				ours, err := o.Def(name)
				require.NoError(t, err)
				theirs, err := p.Def(name)
				require.NoError(t, err)
				accepted := 0
				for _, v := range corpus {
					ov, tv := ours.Validate(v) == nil, theirs.Validate(v) == nil
					total++
					if assert.Equal(t, tv, ov, "%s %s on %v: published accepts=%v, ours accepts=%v", version, name, v, tv, ov) {
						agree++
					}
					if ov {
						accepted++
					}
				}
				assert.NotZero(t, accepted, "%s: no fixture value is a valid %s", version, name)
			}
			t.Logf("%s: %d definitions paired by name with the published ones; %d/%d verdicts on %d fixture values agree", version, len(paired), agree, total, len(corpus))
		})
	}
}

// handshakeDisagreements are the places where our schema of an older version
// deliberately gives another verdict than the published one, each with an
// instance that shows it. The test asserts every row, so the list cannot
// go stale: a row whose verdicts came to agree fails.
var handshakeDisagreements = []struct {
	version, def, instance string
	ours, published        bool // the expected verdicts: accepted?
	reason                 string
}{
	{"2025-06-18", "ElicitResult", `{"action":"accept","content":{"ratio":1.5}}`, true, false,
		"published defect (mcp-protocol.md §8.3 item 1): the TypeScript source allows any number as a form value, the generated schema.json only integers; ours accepts any number, as our 2025-11-25 does"},
	{"2025-06-18", "NumberSchema", `{"type":"number","minimum":0.5,"maximum":2.5}`, true, true,
		"not a disagreement any more: the published file was regenerated after release with number bounds (§8.3 item 1); kept to notice a reverted copy"},
	{"2024-11-05", "Resource", `{"uri":"not a uri","name":"x"}`, true, false,
		"validator dialect, not a schema difference: the Go validator asserts format for the draft-07 published files and cannot be told otherwise; our 2020-12 schemas treat format as an annotation, like our 2025-11-25 one. The checker runs both, so such a URI is still reported when the published schemas are found"},
	{"2025-03-26", "ResourceTemplate", `{"uriTemplate":"{","name":"x"}`, true, false,
		"validator dialect, as for 2024-11-05 Resource: uri-template is asserted for draft-07 only"},
	{"2025-06-18", "ResourceLink", `{"type":"resource_link","uri":"not a uri","name":"x"}`, true, false,
		"validator dialect, as for 2024-11-05 Resource"},
}

func TestHandshakeDisagreementsWithThePublishedSchemasAreTheListedOnes(t *testing.T) {
	for _, d := range handshakeDisagreements {
		t.Run(d.version+"/"+d.def, func(t *testing.T) {
			require.NotEmpty(t, d.reason)
			p, _ := publishedFor(t, d.version)
			o := oursFor(t, d.version)
			doc := parse(t, json.RawMessage(d.instance), "")
			ours, err := o.Def(d.def)
			require.NoError(t, err)
			theirs, err := p.Def(d.def)
			require.NoError(t, err)
			assert.Equal(t, d.ours, ours.Validate(doc) == nil, "our verdict on %s", d.instance)
			assert.Equal(t, d.published, theirs.Validate(doc) == nil, "the published verdict on %s", d.instance)
		})
	}
}
