package otelcore

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"go.opentelemetry.io/otel/propagation"
)

// MetaCarrier reads trace context from the raw JSON of a params._meta
// object without decoding the rest of it. Set does nothing: extraction
// only.
type MetaCarrier []byte

var _ propagation.TextMapCarrier = MetaCarrier(nil)

// Get returns the string member key of the object, "" when absent or not
// a string.
func (m MetaCarrier) Get(key string) string {
	v, ok := jsonscan.Member(m, key)
	if !ok {
		return ""
	}
	s, _ := jsonscan.String(v)
	return s
}

// Set does nothing: a MetaCarrier is read-only.
func (MetaCarrier) Set(string, string) {}

// Keys returns the names of the object's members.
func (m MetaCarrier) Keys() []string {
	o, ok := jsonscan.NewObject(m)
	if !ok {
		return nil
	}
	var keys []string
	for {
		k, _, ok := o.Next()
		if !ok {
			return keys
		}
		if s, ok := jsonscan.Name(k); ok {
			keys = append(keys, s)
		}
	}
}

// Fields is a small ordered carrier that collects what a propagator
// injects, to be written into params._meta or HTTP headers.
type Fields struct {
	names, values []string
}

var _ propagation.TextMapCarrier = (*Fields)(nil)

// Get returns the value of key, "" when unset.
func (f *Fields) Get(key string) string {
	if i := slices.Index(f.names, key); i >= 0 {
		return f.values[i]
	}
	return ""
}

// Set sets key to value.
func (f *Fields) Set(key, value string) {
	if i := slices.Index(f.names, key); i >= 0 {
		f.values[i] = value
		return
	}
	f.names = append(f.names, key)
	f.values = append(f.values, value)
}

// Keys returns the keys set, in the order they were first set.
func (f *Fields) Keys() []string { return f.names }

// Len is the number of keys set.
func (f *Fields) Len() int { return len(f.names) }

// InjectMeta returns params with the fields written into its _meta object:
// params absent (nil or null) become {"_meta":{...}}, an object without
// _meta gets one as its first member, and an existing _meta object keeps
// every member but the fields' own keys, which are replaced. ok is false,
// and params are returned unchanged, when there is nothing to inject, when
// params are not an object (positional params) or when _meta is not an
// object.
func InjectMeta(params json.RawMessage, f *Fields) (out json.RawMessage, ok bool) {
	if f == nil || f.Len() == 0 {
		return params, false
	}
	v, valid := jsonscan.Value(params)
	if len(params) == 0 || valid && string(v) == "null" {
		var b bytes.Buffer
		b.WriteString(`{"_meta":`)
		writeFields(&b, nil, f)
		b.WriteByte('}')
		return b.Bytes(), true
	}
	if !valid || v[0] != '{' {
		return params, false
	}
	o, _ := jsonscan.NewObject(v)
	for {
		k, val, more := o.Next()
		if !more {
			break
		}
		if !jsonscan.NameIs(k, "_meta") {
			continue
		}
		if len(val) == 0 || val[0] != '{' {
			return params, false
		}
		// val is a sub-slice of v: splice the rewritten _meta in its place.
		start := cap(v) - cap(val)
		end := start + len(val)
		var b bytes.Buffer
		b.Grow(len(v) + 128)
		b.Write(v[:start])
		if !writeFields(&b, val, f) {
			return params, false
		}
		b.Write(v[end:])
		return b.Bytes(), true
	}
	if o.Err() {
		return params, false
	}
	var b bytes.Buffer
	b.Grow(len(v) + 128)
	b.WriteString(`{"_meta":`)
	writeFields(&b, nil, f)
	rest := v[jsonscan.SkipSpace(v, 1):]
	if rest[0] != '}' {
		b.WriteByte(',')
	}
	b.Write(rest)
	return b.Bytes(), true
}

// writeFields writes an object holding the members of the raw object
// old (nil for none) whose names are not among the fields, then the
// fields. It reports false when old is malformed.
func writeFields(b *bytes.Buffer, old []byte, f *Fields) bool {
	b.WriteByte('{')
	n := 0
	if old != nil {
		o, _ := jsonscan.NewObject(old)
		for {
			k, val, ok := o.Next()
			if !ok {
				if o.Err() {
					return false
				}
				break
			}
			if name, ok := jsonscan.Name(k); ok && slices.Contains(f.names, name) {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('"')
			b.Write(k)
			b.WriteString(`":`)
			b.Write(val)
			n++
		}
	}
	for i, name := range f.names {
		if n > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		val, _ := json.Marshal(f.values[i])
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
		n++
	}
	b.WriteByte('}')
	return true
}
