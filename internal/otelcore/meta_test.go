package otelcore

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func fields(kv ...string) *Fields {
	f := &Fields{}
	for i := 0; i < len(kv); i += 2 {
		f.Set(kv[i], kv[i+1])
	}
	return f
}

func TestInjectMetaKeepsEverythingElse(t *testing.T) {
	tp := fields("traceparent", "00-a-b-01", "baggage", "k=v")
	tests := []struct {
		name, params, want string
		ok                 bool
	}{
		{"absent params become an object", ``, `{"_meta":{"traceparent":"00-a-b-01","baggage":"k=v"}}`, true},
		{"null params too", ` null `, `{"_meta":{"traceparent":"00-a-b-01","baggage":"k=v"}}`, true},
		{"an empty object gets _meta", `{}`, `{"_meta":{"traceparent":"00-a-b-01","baggage":"k=v"}}`, true},
		{"an object gets _meta first", `{"name":"x","arguments":{"_meta":1}}`, `{"_meta":{"traceparent":"00-a-b-01","baggage":"k=v"},"name":"x","arguments":{"_meta":1}}`, true},
		{"an existing _meta keeps its other keys", `{"name":"x","_meta":{"progressToken":1,"traceparent":"old"},"z":2}`, `{"name":"x","_meta":{"progressToken":1,"traceparent":"00-a-b-01","baggage":"k=v"},"z":2}`, true},
		{"an empty _meta", `{"_meta":{}}`, `{"_meta":{"traceparent":"00-a-b-01","baggage":"k=v"}}`, true},
		{"positional params are left alone", `[1,2]`, `[1,2]`, false},
		{"a _meta that is not an object is left alone", `{"_meta":null}`, `{"_meta":null}`, false},
		{"malformed params are left alone", `{"a":`, `{"a":`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in json.RawMessage
			if tt.params != "" {
				in = json.RawMessage(tt.params)
			}
			out, ok := InjectMeta(in, tp)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, string(out))
			if ok {
				assert.True(t, json.Valid(out))
			}
		})
	}
}

func TestInjectMetaWithNothingToInjectChangesNothing(t *testing.T) {
	out, ok := InjectMeta(json.RawMessage(`{"a":1}`), &Fields{})
	assert.False(t, ok)
	assert.Equal(t, `{"a":1}`, string(out))
}

func TestMetaCarrierReadsStringMembers(t *testing.T) {
	c := MetaCarrier(`{"traceparent":"00-a-b-01","n":5,"tracestate":"x\u003dy"}`)
	assert.Equal(t, "00-a-b-01", c.Get("traceparent"))
	assert.Equal(t, "x=y", c.Get("tracestate"))
	assert.Equal(t, "", c.Get("n"), "not a string")
	assert.Equal(t, "", c.Get("baggage"), "absent")
	assert.Equal(t, []string{"traceparent", "n", "tracestate"}, c.Keys())
	assert.Nil(t, MetaCarrier(`[1]`).Keys())
	c.Set("traceparent", "ignored")
	assert.Equal(t, "00-a-b-01", c.Get("traceparent"), "read-only")
}

func TestFieldsReplaceAKeySetTwice(t *testing.T) {
	f := fields("a", "1", "b", "2", "a", "3")
	assert.Equal(t, []string{"a", "b"}, f.Keys())
	assert.Equal(t, "3", f.Get("a"))
	assert.Equal(t, "", f.Get("c"))
}
