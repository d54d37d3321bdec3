package mcp_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// property returns the schema of T's property name, as AddTool derives it.
func property[T any](t *testing.T, name string) map[string]any {
	t.Helper()
	raw, err := mcp.SchemaFor[T]()
	require.NoError(t, err)
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(raw, &s))
	require.Contains(t, s.Properties, name, "%s", raw)
	return s.Properties[name]
}

func TestSchemaTagInFreeTextIsTheWholeDescription(t *testing.T) {
	type in struct {
		Query string `json:"query" jsonschema:"what to search for, in plain words"`
	}
	assert.Equal(t, map[string]any{"type": "string", "description": "what to search for, in plain words"}, property[in](t, "query"))
}

func TestSchemaTagKeywordsSetTheirSchemaKeywords(t *testing.T) {
	type in struct {
		Desc     string   `json:"desc" jsonschema:"description=how many, at most ten"`
		Title    string   `json:"title" jsonschema:"title=The title"`
		Sort     string   `json:"sort" jsonschema:"enum=asc|desc"`
		Level    int      `json:"level" jsonschema:"enum=1|2|3"`
		Limit    int      `json:"limit" jsonschema:"minimum=1,maximum=100"`
		Ratio    float64  `json:"ratio" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1"`
		Name     string   `json:"name" jsonschema:"minLength=1,maxLength=8"`
		Code     string   `json:"code" jsonschema:"pattern=^[a-z]{2,3}$"`
		When     string   `json:"when" jsonschema:"format=date-time"`
		Greeting string   `json:"greeting" jsonschema:"default=hello, world"`
		Count    *int     `json:"count" jsonschema:"default=10"`
		City     string   `json:"city" jsonschema:"examples=Paris|Lyon"`
		Tags     []string `json:"tags" jsonschema:"enum=red|green,maxLength=5,description=colours"`
		Strict   bool     `json:"strict" jsonschema:"default=true"`
		Note     string   `json:"note" jsonschema:"description=x=1,y=2,title=T"`
	}
	for _, tc := range []struct {
		name string
		want map[string]any
	}{
		{"desc", map[string]any{"type": "string", "description": "how many, at most ten"}},
		{"title", map[string]any{"type": "string", "title": "The title"}},
		{"sort", map[string]any{"type": "string", "enum": []any{"asc", "desc"}}},
		{"level", map[string]any{"type": "integer", "enum": []any{1.0, 2.0, 3.0}}},
		{"limit", map[string]any{"type": "integer", "minimum": 1.0, "maximum": 100.0}},
		{"ratio", map[string]any{"type": "number", "exclusiveMinimum": 0.0, "exclusiveMaximum": 1.0}},
		{"name", map[string]any{"type": "string", "minLength": 1.0, "maxLength": 8.0}},
		{"code", map[string]any{"type": "string", "pattern": "^[a-z]{2,3}$"}},
		{"when", map[string]any{"type": "string", "format": "date-time"}},
		{"greeting", map[string]any{"type": "string", "default": "hello, world"}},
		{"count", map[string]any{"type": []any{"null", "integer"}, "default": 10.0}},
		{"city", map[string]any{"type": "string", "examples": []any{"Paris", "Lyon"}}},
		{"tags", map[string]any{"type": []any{"null", "array"}, "description": "colours",
			"items": map[string]any{"type": "string", "enum": []any{"red", "green"}, "maxLength": 5.0}}},
		{"strict", map[string]any{"type": "boolean", "default": true}},
		{"note", map[string]any{"type": "string", "description": "x=1,y=2", "title": "T"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, property[in](t, tc.name))
		})
	}
}

func TestSchemaTagKeywordsReachNestedStructs(t *testing.T) {
	type inner struct {
		N int `json:"n" jsonschema:"minimum=5"`
	}
	type in struct {
		One   inner            `json:"one"`
		Ptr   *inner           `json:"ptr"`
		List  []inner          `json:"list"`
		ByKey map[string]inner `json:"byKey"`
		When  time.Time        `json:"when" jsonschema:"description=a time"`
	}
	five := map[string]any{"type": "integer", "minimum": 5.0}
	nested := func(s map[string]any) any { return s["properties"].(map[string]any)["n"] }
	assert.Equal(t, five, nested(property[in](t, "one")))
	assert.Equal(t, five, nested(property[in](t, "ptr")))
	assert.Equal(t, five, nested(property[in](t, "list")["items"].(map[string]any)))
	assert.Equal(t, five, nested(property[in](t, "byKey")["additionalProperties"].(map[string]any)))
	assert.Equal(t, map[string]any{"type": "string", "description": "a time"}, property[in](t, "when"))
}

func TestSchemaTagKeywordsOfEmbeddedStructsAreKept(t *testing.T) {
	type Paging struct {
		Limit int `json:"limit" jsonschema:"maximum=50"`
	}
	type in struct {
		Paging
		Query string `json:"query"`
	}
	assert.Equal(t, 50.0, property[in](t, "limit")["maximum"])
}

func TestSchemaTagMistakesAreErrors(t *testing.T) {
	type unknown struct {
		N int `json:"n" jsonschema:"minimun=1"`
	}
	type twice struct {
		N int `json:"n" jsonschema:"minimum=1,minimum=2"`
	}
	type notANumber struct {
		N int `json:"n" jsonschema:"maximum=ten"`
	}
	type notALength struct {
		S string `json:"s" jsonschema:"maxLength=-1"`
	}
	type badPattern struct {
		S string `json:"s" jsonschema:"pattern=(["`
	}
	type badJSON struct {
		N int `json:"n" jsonschema:"enum=1|two"`
	}
	type badDefault struct {
		N int `json:"n" jsonschema:"minimum=1,default=0"`
	}
	type badExample struct {
		S string `json:"s" jsonschema:"enum=a|b,examples=a|c"`
	}
	for _, tc := range []struct {
		name  string
		infer func() (json.RawMessage, error)
		want  string
	}{
		{"unknown keyword", mcp.SchemaFor[unknown], `unknown keyword "minimun"`},
		{"keyword twice", mcp.SchemaFor[twice], `keyword "minimum" given twice`},
		{"not a number", mcp.SchemaFor[notANumber], `maximum: "ten" is not a number`},
		{"not a length", mcp.SchemaFor[notALength], `maxLength: "-1" is not a length`},
		{"bad pattern", mcp.SchemaFor[badPattern], `pattern: error parsing regexp`},
		{"bad JSON", mcp.SchemaFor[badJSON], `enum: "two" is not JSON`},
		{"default breaks the schema", mcp.SchemaFor[badDefault], `default 0:`},
		{"example breaks the schema", mcp.SchemaFor[badExample], `example c:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.infer()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "jsonschema tag")
		})
	}
}

func TestSchemaTagKeywordsAreEnforcedOnToolArguments(t *testing.T) {
	type in struct {
		Sort  string `json:"sort" jsonschema:"enum=asc|desc"`
		Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,description=how many"`
	}
	s := newServer(t, nil)
	require.NoError(t, mcp.AddTool(s, &mcp.Tool{Name: "search"}, func(_ context.Context, _ *mcp.CallToolRequest, in in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(in.Sort)}}, nil, nil
	}))
	session := connect(t, s, nil).session
	call := func(args string) (*mcp.CallToolResult, error) {
		return session.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "search", Arguments: json.RawMessage(args)})
	}
	res, err := call(`{"sort":"asc","limit":3}`)
	require.NoError(t, err)
	assert.Nil(t, res.IsError)
	for _, bad := range []string{`{"sort":"up"}`, `{"sort":"asc","limit":0}`, `{"sort":"asc","limit":101}`} {
		res, err := call(bad)
		require.NoError(t, err, bad)
		require.NotNil(t, res.IsError, bad)
		assert.True(t, *res.IsError, bad)
	}
}

type hiddenPaging struct {
	Limit int `json:"limit" jsonschema:"maximum=50"`
}

// The fields of an embedded unexported struct are promoted, as
// encoding/json promotes them, keyword tags and all.
func TestSchemaTagKeywordsInAnEmbeddedUnexportedStructApply(t *testing.T) {
	type in struct {
		hiddenPaging
		Query string `json:"query"`
	}
	raw, err := mcp.SchemaFor[in]()
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(raw, &got))
	assert.Equal(t, map[string]any{"type": "integer", "maximum": 50.0}, property[in](t, "limit"))
	assert.ElementsMatch(t, []any{"limit", "query"}, got["required"])
	b, err := json.Marshal(in{hiddenPaging{Limit: 7}, "q"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"limit":7,"query":"q"}`, string(b), "the properties are what encoding/json writes")
}

// selfReferring has a keyword tag and refers to itself.
type selfReferring struct {
	N    int            `json:"n" jsonschema:"minimum=1"`
	Next *selfReferring `json:"next"`
}

func TestSchemaTagKeywordsInATypeThatRefersToItselfAreACycleError(t *testing.T) {
	_, err := mcp.SchemaFor[selfReferring]()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cycle detected for type mcp_test.selfReferring")
	assert.NotContains(t, err.Error(), "WORD=", "the keyword tag is not what is wrong")
}

func TestARawJSONFieldTakesAnyValue(t *testing.T) {
	type in struct {
		Raw json.RawMessage `json:"raw" jsonschema:"anything at all"`
	}
	assert.Equal(t, map[string]any{"description": "anything at all"}, property[in](t, "raw"))
}

// searchArgs is the example of docs/mcp-server.md, "Schemas from Go types".
type searchArgs struct {
	Query string   `json:"query" jsonschema:"what to search for, in plain words"`
	Sort  string   `json:"sort,omitempty" jsonschema:"enum=relevance|date,default=relevance"`
	Limit int      `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=10,description=how many results, at most"`
	Lang  string   `json:"lang,omitempty" jsonschema:"pattern=^[a-z]{2}$,examples=en|fr"`
	Tags  []string `json:"tags,omitempty" jsonschema:"maxLength=20,description=labels to filter by"`
}

func TestTheDocumentedSearchArgsDeriveTheirSchema(t *testing.T) {
	raw, err := mcp.SchemaFor[searchArgs]()
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"type": "object",
		"properties": {
			"query": {"type": "string", "description": "what to search for, in plain words"},
			"sort": {"type": "string", "enum": ["relevance", "date"], "default": "relevance"},
			"limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10, "description": "how many results, at most"},
			"lang": {"type": "string", "pattern": "^[a-z]{2}$", "examples": ["en", "fr"]},
			"tags": {"type": ["null", "array"], "items": {"type": "string", "maxLength": 20}, "description": "labels to filter by"}
		},
		"required": ["query"],
		"additionalProperties": false
	}`, string(raw))
}

func TestSchemaTagBoundsThatAreNotFiniteAreErrors(t *testing.T) {
	type notFinite struct {
		N float64 `json:"n" jsonschema:"maximum=NaN,minimum=-Inf"`
	}
	_, err := mcp.SchemaFor[notFinite]()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `maximum: "NaN" is not a number`)
}
