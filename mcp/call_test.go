package mcp

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestATaskRunStartsFromEveryFactOfItsRequest pins forTask: every fact of
// the request, whatever its field, reaches the task's run, and what the
// run keeps for itself (its questions, its cache hint, where its
// notifications go) is not the request's. A field added to callState
// outside callFacts fails here until it is placed on one side or the other.
func TestATaskRunStartsFromEveryFactOfItsRequest(t *testing.T) {
	ownToTheRun := map[string]bool{"callFacts": true, "sink": true, "asks": true, "cache": true}
	st := reflect.TypeFor[callState]()
	for i := range st.NumField() {
		assert.True(t, ownToTheRun[st.Field(i).Name],
			"callState.%s: put it in callFacts (a task's run copies it) or say here why a run keeps its own", st.Field(i).Name)
	}

	c := &callState{sink: connSink{}, cache: &CacheHint{}}
	fillEveryField(t, reflect.ValueOf(&c.callFacts).Elem())
	c.askState()

	tc := c.forTask()
	assert.Equal(t, c.callFacts, tc.callFacts)
	assert.Nil(t, tc.asks.Load(), "a task's run asks its own questions")
	assert.Nil(t, tc.cache)
	assert.Equal(t, discardSink{}, tc.sink, "the request's stream ends with the created task")
}

// fillEveryField sets every field of the struct v to a value other than
// its zero, so that a field a copy forgets shows.
func fillEveryField(t *testing.T, v reflect.Value) {
	t.Helper()
	for i := range v.NumField() {
		f := reflect.NewAt(v.Field(i).Type(), v.Field(i).Addr().UnsafePointer()).Elem()
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int:
			f.SetInt(int64(i + 1))
		case reflect.String:
			f.SetString(v.Type().Field(i).Name)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]byte(`"x"`)).Convert(f.Type()))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		default:
			set := false
			for _, x := range []any{
				map[string]json.RawMessage{"k": json.RawMessage(`1`)},
				ClientCapabilities{Extra: map[string]json.RawMessage{"x": json.RawMessage(`{}`)}},
			} {
				if xv := reflect.ValueOf(x); xv.Type() == f.Type() {
					f.Set(xv)
					set = true
				}
			}
			require.True(t, set, "no value to set field %s of type %s: add one here", v.Type().Field(i).Name, f.Type())
		}
		require.False(t, f.IsZero(), "field %s", v.Type().Field(i).Name)
	}
}
