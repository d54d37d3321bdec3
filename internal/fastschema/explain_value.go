package fastschema

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"
)

// object is a decoded JSON object that keeps its members in document
// order. A name given twice keeps its first place and its last value, as
// decoding into a map would.
type object struct {
	names  []string
	values []any
	index  map[string]int // name → position, once the object is large
}

// get returns the value of the member name.
func (o *object) get(name string) (any, bool) {
	if o.index != nil {
		i, ok := o.index[name]
		if !ok {
			return nil, false
		}
		return o.values[i], true
	}
	for i, n := range o.names {
		if n == name {
			return o.values[i], true
		}
	}
	return nil, false
}

// set adds the member name, or replaces its value.
func (o *object) set(name string, v any) {
	if o.index == nil {
		for i, n := range o.names {
			if n == name {
				o.values[i] = v
				return
			}
		}
		if len(o.names) == smallNames {
			o.index = make(map[string]int, 2*smallNames)
			for i, n := range o.names {
				o.index[n] = i
			}
		}
	}
	if o.index != nil {
		if i, ok := o.index[name]; ok {
			o.values[i] = v
			return
		}
		o.index[name] = len(o.names)
	}
	o.names = append(o.names, name)
	o.values = append(o.values, v)
}

// decodeValue decodes one JSON text as the oracle reads it (numbers as
// json.Number, invalid UTF-8 replaced), with objects as *object.
func decodeValue(data []byte) (any, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		if err == nil {
			err = errors.New("not one JSON text")
		}
		return nil, err
	}
	v, _ := decodeAt(data, skipSpace(data, 0))
	return v, nil
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// decodeAt decodes the value at i of data, which is known to be well
// formed, and returns it with the index just after it.
func decodeAt(data []byte, i int) (any, int) {
	switch data[i] {
	case '{':
		o := &object{}
		i = skipSpace(data, i+1)
		for data[i] != '}' {
			name, e := decodeString(data, i)
			v, e := decodeAt(data, skipSpace(data, skipSpace(data, e)+1))
			o.set(name, v)
			i = skipSpace(data, e)
			if data[i] == ',' {
				i = skipSpace(data, i+1)
			}
		}
		return o, i + 1
	case '[':
		arr := []any{}
		i = skipSpace(data, i+1)
		for data[i] != ']' {
			v, e := decodeAt(data, i)
			arr = append(arr, v)
			i = skipSpace(data, e)
			if data[i] == ',' {
				i = skipSpace(data, i+1)
			}
		}
		return arr, i + 1
	case '"':
		return decodeString(data, i)
	case 't':
		return true, i + 4
	case 'f':
		return false, i + 5
	case 'n':
		return nil, i + 4
	}
	e := i + 1
	for e < len(data) && strings.IndexByte("0123456789+-.eE", data[e]) >= 0 {
		e++
	}
	return json.Number(data[i:e]), e
}

// decodeString decodes the well-formed string at i. Strings with escapes
// or bytes beyond ASCII go through encoding/json, which decodes them (and
// replaces invalid UTF-8) as the oracle does.
func decodeString(data []byte, i int) (string, int) {
	plain := true
	e := i + 1
	for ; data[e] != '"'; e++ {
		switch c := data[e]; {
		case c == '\\':
			plain = false
			e++
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	if plain {
		return string(data[i+1 : e]), e + 1
	}
	var s string
	_ = json.Unmarshal(data[i:e+1], &s) // well formed: cannot fail
	return s, e + 1
}

// plain returns v with its objects as map[string]any: the form the
// oracle's equality and the format checks take.
func plain(v any) any {
	switch v := v.(type) {
	case *object:
		m := make(map[string]any, len(v.names))
		for i, n := range v.names {
			m[n] = plain(v.values[i])
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	}
	return v
}
