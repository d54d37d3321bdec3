package fastschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeNext(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

// decodeNext decodes the value the next token starts.
func decodeNext(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nesting deeper than %d", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{}
		for dec.More() {
			name, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeNext(dec, depth+1)
			if err != nil {
				return nil, err
			}
			o.set(name.(string), v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return o, nil
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			v, err := decodeNext(dec, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return arr, nil
	}
	return tok, nil
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
