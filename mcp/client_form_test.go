package mcp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// completeForm refuses a requested schema it cannot read or compile (so
// the answer is never sent), fills in the defaults of omitted fields and
// validates the completed answer.
func TestCompleteFormFillsDefaultsAndRefusesWhatItCannotCheck(t *testing.T) {
	const person = `{"type":"object","properties":{"name":{"type":"string","minLength":1},"age":{"type":"integer","default":42}},"required":["name"]}`
	name := func(v string) map[string]ElicitResultContentValue {
		return map[string]ElicitResultContentValue{"name": {Value: ElicitResultContentValueString(v)}}
	}
	tests := map[string]struct {
		requested string
		content   map[string]ElicitResultContentValue
		want      string // the completed answer as JSON, when it passes
		wantErr   string
	}{
		"defaults filled in":     {requested: person, content: name("Ada"), want: `{"name":"Ada","age":42}`},
		"given value kept":       {requested: person, content: map[string]ElicitResultContentValue{"name": {Value: ElicitResultContentValueString("Ada")}, "age": {Value: ElicitResultContentValueNumber(7)}}, want: `{"name":"Ada","age":7}`},
		"no content, no default": {requested: person, wantErr: "missing required member \"name\""},
		"answer breaks schema":   {requested: person, content: name(""), wantErr: "fewer than 1"},
		"schema not JSON":        {requested: `{"type":`, content: name("Ada"), wantErr: "the requested schema is not JSON"},
		"schema with remote ref": {requested: `{"type":"object","properties":{"name":{"$ref":"https://example.com/s.json"}}}`, content: name("Ada"), wantErr: "the requested schema does not compile"},
	}
	for label, tc := range tests {
		t.Run(label, func(t *testing.T) {
			got, err := completeForm(json.RawMessage(tc.requested), tc.content)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			b, err := json.Marshal(got)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(b))
		})
	}
}
