package mcp

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp/v20260728"
)

func TestStatelessParamsCarryTheProgressTokenOfEveryKind(t *testing.T) {
	s, n := v20260728.ProgressTokenString("p1"), v20260728.ProgressTokenInteger(7)
	for _, tc := range []struct {
		name  string
		token v20260728.ProgressTokenVariant
		want  ProgressTokenVariant
	}{
		{"a string", s, ProgressTokenString("p1")},
		{"a string pointer", &s, ProgressTokenString("p1")},
		{"an integer", n, ProgressTokenInteger(7)},
		{"an integer pointer", &n, ProgressTokenInteger(7)},
		{"a value of neither kind", v20260728.UnknownProgressToken{Raw: json.RawMessage(`1.5`)}, UnknownProgressToken{Raw: json.RawMessage(`1.5`)}},
		{"a pointer to one", &v20260728.UnknownProgressToken{Raw: json.RawMessage(`1.5`)}, UnknownProgressToken{Raw: json.RawMessage(`1.5`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := handshakeMeta(&v20260728.RequestMetaObject{ProgressToken: &v20260728.ProgressToken{Value: tc.token}})
			require.NotNil(t, m)
			require.NotNil(t, m.ProgressToken)
			assert.Equal(t, tc.want, m.ProgressToken.Value)
		})
	}
}

func TestStatelessParamsCarryTheMetaMembersTheProtocolDoesNotDefine(t *testing.T) {
	assert.Nil(t, handshakeMeta(&v20260728.RequestMetaObject{ProtocolVersion: Version20260728}),
		"nothing to carry: no _meta, as in a handshake request without one")
	extra := map[string]json.RawMessage{"example.com/trace": json.RawMessage(`"t1"`)}
	m := handshakeMeta(&v20260728.RequestMetaObject{ProtocolVersion: Version20260728, Extra: extra})
	require.NotNil(t, m)
	assert.Nil(t, m.ProgressToken)
	assert.Equal(t, extra, m.Extra)
}

func TestStatelessCompletionReferencesKeepTheirKind(t *testing.T) {
	prompt := v20260728.PromptReference{Type: "ref/prompt", Name: "p"}
	tmpl := v20260728.ResourceTemplateReference{Type: "ref/resource", URI: "file:///{x}"}
	for _, tc := range []struct {
		name string
		ref  v20260728.CompleteRequestParamsRefVariant
		want CompleteRequestParamsRefVariant
	}{
		{"a prompt", prompt, PromptReference{Type: "ref/prompt", Name: "p"}},
		{"a prompt pointer", &prompt, &PromptReference{Type: "ref/prompt", Name: "p"}},
		{"a resource template", tmpl, ResourceTemplateReference{Type: "ref/resource", URI: "file:///{x}"}},
		{"a resource template pointer", &tmpl, &ResourceTemplateReference{Type: "ref/resource", URI: "file:///{x}"}},
		{"a reference of neither kind", v20260728.UnknownCompleteRequestParamsRef{Raw: json.RawMessage(`{"type":"ref/x"}`)}, UnknownCompleteRequestParamsRef{Raw: json.RawMessage(`{"type":"ref/x"}`)}},
		{"none", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, completionRef(v20260728.CompleteRequestParamsRef{Value: tc.ref}).Value)
		})
	}
}

func TestAStatelessStructResultIsReadFromItsDecoratedJSON(t *testing.T) {
	got, err := decodeResult[v20260728.ListToolsResult](json.RawMessage(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"resultType":"complete","ttlMs":5,"cacheScope":"public"}`), nil)
	require.NoError(t, err)
	require.Len(t, got.Tools, 1)
	assert.Equal(t, "a", got.Tools[0].Name)
	assert.Equal(t, int64(5), got.TTLMs)

	_, err = decodeResult[v20260728.ListToolsResult](json.RawMessage(`{"tools":5}`), nil)
	assert.Error(t, err, "a result that is not the method's")

	failed := errors.New("the feature failed")
	_, err = decodeResult[v20260728.ListToolsResult](nil, failed)
	assert.ErrorIs(t, err, failed, "the feature's error is passed on")
}
