package v20251125_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
)

// fixture is one hand-written message of testdata/methods.json: a method's
// params and, for requests, a result answering them.
type fixture struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	// PublishedDefect, when set, says why the published schema wrongly
	// rejects this fixture's result (mcp-protocol.md §8.3).
	PublishedDefect string `json:"publishedDefect"`
}

func (f fixture) name(i int) string { return fmt.Sprintf("%d-%s", i, f.Method) }

func fixtures(t *testing.T) []fixture {
	t.Helper()
	b, err := os.ReadFile("testdata/methods.json")
	require.NoError(t, err)
	var fs []fixture
	require.NoError(t, json.Unmarshal(b, &fs))
	return fs
}

// instance parses JSON the way the validator wants it; absent becomes def.
func instance(t *testing.T, raw json.RawMessage, def string) any {
	t.Helper()
	if raw == nil {
		raw = json.RawMessage(def)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	require.NoError(t, err)
	return v
}

func TestEveryMethodHasAFixtureAndABinding(t *testing.T) {
	o := ours(t)
	have := map[string]bool{}
	for _, f := range fixtures(t) {
		have[f.Method] = true
	}
	for _, m := range o.Methods() {
		assert.True(t, have[m.Name], "no fixture for %s", m.Name)
		b, ok := bindings[m.Name]
		if assert.True(t, ok, "no binding for %s", m.Name) {
			assert.Equal(t, m.Notification, b.result == nil, "%s: binding kind", m.Name)
		}
	}
	assert.Len(t, bindings, len(o.Methods()), "bindings name methods the index does not have")
}

func TestFixturesAreValidAgainstOurSchema(t *testing.T) {
	o := ours(t)
	for i, f := range fixtures(t) {
		t.Run(f.name(i), func(t *testing.T) {
			m, ok := o.Method(f.Method)
			require.True(t, ok, "unknown method")
			sch, err := o.Compile(m.Params)
			require.NoError(t, err)
			assert.NoError(t, sch.Validate(instance(t, f.Params, "{}")), "params")
			if m.Notification {
				assert.Nil(t, f.Result, "a notification has no result")
				return
			}
			require.NotNil(t, f.Result, "a request fixture needs a result")
			sch, err = o.Compile(m.Result)
			require.NoError(t, err)
			assert.NoError(t, sch.Validate(instance(t, f.Result, "")), "result")
		})
	}
}

func TestFixturesAreValidAgainstThePublishedSchema(t *testing.T) {
	p, _ := published(t)
	o := ours(t)
	for i, f := range fixtures(t) {
		t.Run(f.name(i), func(t *testing.T) {
			m, _ := o.Method(f.Method)
			msg := map[string]any{"jsonrpc": "2.0", "method": f.Method}
			if !m.Notification {
				msg["id"] = json.Number("1")
			}
			if f.Params != nil {
				msg["params"] = instance(t, f.Params, "")
			}
			def, ok := p.MessageDef(f.Method)
			require.True(t, ok, "the published schema has no message %s", f.Method)
			sch, err := p.Def(def)
			require.NoError(t, err)
			assert.NoError(t, sch.Validate(msg), "params against %s", def)
			if m.Notification {
				return
			}
			var errs []error
			for _, d := range p.ResultDefs(f.Method) {
				sch, err := p.Def(d)
				require.NoError(t, err)
				if err := sch.Validate(instance(t, f.Result, "")); err != nil {
					errs = append(errs, err)
					continue
				}
				errs = nil
				break
			}
			if f.PublishedDefect != "" {
				assert.NotEmpty(t, errs, "the published schema accepts a result it was expected to reject: %s", f.PublishedDefect)
				return
			}
			assert.Empty(t, errs, "result against %v", p.ResultDefs(f.Method))
		})
	}
}

func TestFixturesRoundTripThroughTheGeneratedTypes(t *testing.T) {
	for i, f := range fixtures(t) {
		t.Run(f.name(i), func(t *testing.T) {
			b := bindings[f.Method]
			if f.Params != nil {
				roundTrip(t, f.Params, b.params())
			}
			if f.Result != nil {
				roundTrip(t, f.Result, b.result())
			}
		})
	}
}

// roundTrip decodes raw into v and checks that encoding v gives the same
// JSON.
func roundTrip(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(raw, v), "decoding into %T", v)
	out, err := json.Marshal(v)
	require.NoError(t, err, "encoding %T", v)
	assert.JSONEq(t, string(raw), string(out), "%T", v)
}

func TestFixtureMutantsGetTheSameVerdictFromBothSchemas(t *testing.T) {
	p, _ := published(t)
	o := ours(t)
	total, agree := 0, 0
	for i, f := range fixtures(t) {
		if f.PublishedDefect != "" {
			continue
		}
		m, _ := o.Method(f.Method)
		def, _ := p.MessageDef(f.Method)
		theirMsg, err := p.Def(def)
		require.NoError(t, err)
		ourParams, err := o.Compile(m.Params)
		require.NoError(t, err)
		if f.Params != nil {
			mcpcheck.Mutate(instance(t, f.Params, ""), "", func(what string, params any) {
				msg := map[string]any{"jsonrpc": "2.0", "method": f.Method, "params": params}
				if !m.Notification {
					msg["id"] = json.Number("1")
				}
				total++
				ours, theirs := ourParams.Validate(params) == nil, theirMsg.Validate(msg) == nil
				if assert.Equal(t, theirs, ours, "%s params %s: published accepts=%v, ours accepts=%v", f.name(i), what, theirs, ours) {
					agree++
				}
			})
		}
		if f.Result == nil {
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
		mcpcheck.Mutate(instance(t, f.Result, ""), "", func(what string, result any) {
			total++
			theirs := false
			for _, s := range theirResults {
				theirs = theirs || s.Validate(result) == nil
			}
			ours := ourResult.Validate(result) == nil
			if assert.Equal(t, theirs, ours, "%s result %s: published accepts=%v, ours accepts=%v", f.name(i), what, theirs, ours) {
				agree++
			}
		})
	}
	t.Logf("%d mutants of the fixtures: %d verdicts agree", total, agree)
}
