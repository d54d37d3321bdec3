package jsondecode

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// structFields is what decoding a struct type needs: its fields by JSON
// name, embedded structs' fields flattened in, and the map that takes the
// members no field names (an embedded map of string keys), if any.
type structFields struct {
	fields   []field
	byName   map[string]*field
	byFolded map[string][]*field
	fallback *field
	err      *Error // the type's fault, reported when an object is decoded into it
}

// maxScannedFields is how many fields a struct may have for a member's
// field to be found by comparing names one by one, which is faster than a
// map for a few.
const maxScannedFields = 8

// field returns the field named name exactly, or nil.
func (fs *structFields) field(name []byte) *field {
	if len(fs.fields) > maxScannedFields {
		return fs.byName[string(name)]
	}
	for i := range fs.fields {
		if fs.fields[i].name == string(name) {
			return &fs.fields[i]
		}
	}
	return nil
}

// field is one field a member can be decoded into.
type field struct {
	id       int
	index    []int // as for reflect.Value.FieldByIndex, through embedded pointers
	typ      reflect.Type
	name     string
	hasName  bool
	ignore   bool // case:ignore
	strict   bool // case:strict
	embed    bool
	str      bool // the `string` option
	format   string
	decode   *lazyDecoder
	unexport []bool // for each step of index, whether it passes through an unexported embedded pointer
}

func makeStructDecoder(t reflect.Type) decodeFunc {
	var once sync.Once
	var fs structFields
	return func(d *decoder, v reflect.Value, o fieldOpts) error {
		_, more, err := d.begin(v, t, o, '{')
		if !more {
			return err
		}
		once.Do(func() { fs = makeStructFields(t) })
		if fs.err != nil {
			return d.errorAfter(fs.err.GoType, fs.err.Err)
		}
		d.ownNames()
		var seen fieldSet
		for {
			if k, _ := d.peek(); k == '}' {
				break
			}
			_, raw, err := d.readValue()
			if err != nil {
				return err
			}
			name := unquote(raw)
			f := fs.field(name)
			if f == nil {
				matches := 0
				for _, g := range fs.byFolded[foldName(name)] {
					if g.ignore {
						if f == nil {
							f = g
						}
						matches++
					}
				}
				if matches > 1 {
					return d.errorAfter(t, errAmbiguousName)
				}
			}
			if f == nil {
				if err := d.addOwnName(); err != nil {
					return err
				}
				if fs.fallback == nil {
					if err := d.skipValue(); err != nil {
						return err
					}
				} else if err := d.decodeFallback(v, fs.fallback, string(name)); err != nil {
					return err
				}
				continue
			}
			if !seen.add(f.id) {
				return &Error{Pointer: d.pointer(-1), Offset: int64(d.prevStart), Err: ErrDuplicateName}
			}
			fv, ok := fieldByIndex(v, f.index)
			if !ok {
				return d.errorBefore(t, errNilField)
			}
			if err := f.decode.get()(d, fv, fieldOpts{stringTag: f.str}); err != nil {
				return err
			}
		}
		_, _, err = d.readToken()
		return err
	}
}

// The errors about struct fields.
var (
	errAmbiguousName = errors.New("ambiguous object member name")
	errNilField      = errors.New("cannot set embedded pointer to unexported struct type")
)

// fieldSet records the fields an object has set, to find a member that
// sets a field a second time.
type fieldSet struct {
	small uint64
	more  map[int]bool
}

func (s *fieldSet) add(id int) bool {
	if id < 64 {
		if s.small&(1<<id) != 0 {
			return false
		}
		s.small |= 1 << id
		return true
	}
	if s.more == nil {
		s.more = map[int]bool{}
	}
	if s.more[id] {
		return false
	}
	s.more[id] = true
	return true
}

// fieldByIndex is v's field at index, allocating the embedded structs
// that nil pointers stand for; false when a nil pointer is to an
// unexported struct type, which cannot be set.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, false
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// decodeFallback decodes the member name, which no field names, into the
// embedded map f.
func (d *decoder) decodeFallback(v reflect.Value, f *field, name string) error {
	m, ok := fieldByIndex(v, f.index)
	if !ok {
		return d.errorBefore(v.Type(), errNilField)
	}
	if m.Kind() == reflect.Pointer {
		if m.IsNil() {
			m.Set(reflect.New(m.Type().Elem()))
		}
		m = m.Elem()
	}
	if m.IsNil() {
		m.Set(reflect.MakeMap(m.Type()))
	}
	key := reflect.ValueOf(name).Convert(m.Type().Key())
	x := reflect.New(m.Type().Elem()).Elem()
	if old := m.MapIndex(key); old.IsValid() {
		x.Set(old)
	}
	err := f.decode.get()(d, x, fieldOpts{})
	m.SetMapIndex(key, x)
	return err
}

// foldName is name in lower case without '-' and '_', as case:ignore
// compares names.
func foldName(name []byte) string {
	var b strings.Builder
	for _, r := range string(name) {
		if r == '-' || r == '_' {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// makeStructFields reads t's fields and tags, embedded structs included
// breadth first; of several fields with one name, the least deep wins, or
// the one with a tag, or none.
func makeStructFields(root reflect.Type) structFields {
	var fs structFields
	fail := func(t reflect.Type, format string, args ...any) {
		if fs.err == nil {
			fs.err = &Error{GoType: t, Err: fmt.Errorf(format, args...)}
		}
	}
	type entry struct {
		t        reflect.Type
		index    []int
		children bool
	}
	queue := []entry{{root, nil, true}}
	seen := map[reflect.Type]bool{root: true}
	var all, fallbacks []field
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		t := e.t
		names := map[string]int{}
		fallbackIndex := -1
		var hasTag, hasField bool
		for i := range t.NumField() {
			sf := t.Field(i)
			_, tagged := sf.Tag.Lookup("json")
			hasTag = hasTag || tagged
			f, ignored, err := parseField(sf)
			if err != nil {
				fail(t, "%s", err)
			}
			if ignored {
				continue
			}
			hasField = true
			f.index = append(slices.Clip(e.index), i)
			f.typ = sf.Type
			if sf.Anonymous && !f.hasName {
				if indirect(f.typ).Kind() != reflect.Struct {
					fail(t, "embedded Go struct field %s of non-struct type must be explicitly given a JSON name", sf.Name)
				} else {
					f.embed = true
				}
			}
			asField := func() {
				if !sf.IsExported() {
					ft := indirect(f.typ)
					if !(sf.Anonymous && ft.Kind() == reflect.Struct) {
						fail(t, "Go struct field %s is not exported", sf.Name)
						return
					}
					if hasMethods(ft) {
						fail(t, "Go struct field %s is not exported for method calls", sf.Name)
						return
					}
				}
				if j, ok := names[f.name]; ok {
					fail(t, "Go struct fields %s and %s conflict over JSON object name %q", t.Field(j).Name, sf.Name, f.name)
				}
				names[f.name] = i
				f.id = len(all)
				f.decode = newLazy(sf.Type)
				all = append(all, f)
				if f.format != "" && fs.err == nil {
					fail(t, "Go struct field %s has unsupported `format` tag option", sf.Name)
				}
			}
			if !f.embed {
				asField()
				continue
			}
			if f.ignore || f.strict || f.str || f.format != "" {
				fail(t, "Go struct field %s cannot have any options other than `embed` specified", sf.Name)
				if f.hasName {
					asField()
					continue
				}
			}
			ft := indirect(f.typ)
			if hasMethods(ft) {
				fail(t, "embedded Go struct field %s of type %s must not implement marshal or unmarshal methods", sf.Name, ft)
			}
			switch {
			case ft.Kind() == reflect.Struct:
				if e.children {
					queue = append(queue, entry{ft, f.index, !seen[ft]})
				}
				seen[ft] = true
				continue
			case !sf.IsExported():
				fail(t, "embedded Go struct field %s is not exported", sf.Name)
				continue
			case ft.Kind() == reflect.Map && ft.Key().Kind() == reflect.String:
				if hasMethods(ft.Key()) {
					fail(t, "embedded map field %s of type %s must have a string key that does not implement marshal or unmarshal methods", sf.Name, ft)
					asField()
					continue
				}
				f.decode = newLazy(ft.Elem())
			default:
				fail(t, "embedded Go struct field %s of type %s must be a Go struct, Go map of string key, or jsontext.Value", sf.Name, ft)
				asField()
				continue
			}
			if fallbackIndex >= 0 {
				fail(t, "embedded Go struct fields %s and %s cannot both be a Go map or jsontext.Value", t.Field(fallbackIndex).Name, sf.Name)
			}
			fallbackIndex = i
			fallbacks = append(fallbacks, f)
		}
		if t.NumField() > 0 && !hasTag && !hasField {
			fail(t, "Go struct has no exported fields")
		}
	}
	// Of the fields of one name, keep the dominant one: the least deep,
	// then the one named by a tag; none when two tie.
	slices.SortStableFunc(all, func(x, y field) int {
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
		if c := len(x.index) - len(y.index); c != 0 {
			return c
		}
		return boolOrder(!x.hasName, !y.hasName)
	})
	var kept []field
	for len(all) > 0 {
		n := 1
		for n < len(all) && all[n-1].name == all[n].name {
			n++
		}
		if n == 1 || len(all[0].index) != len(all[1].index) || all[0].hasName != all[1].hasName {
			kept = append(kept, all[0])
		}
		all = all[n:]
	}
	slices.SortFunc(kept, func(x, y field) int { return x.id - y.id })
	for i := range kept {
		kept[i].id = i
	}
	fs.fields = kept
	fs.byName = make(map[string]*field, len(kept))
	fs.byFolded = make(map[string][]*field, len(kept))
	for i := range fs.fields {
		f := &fs.fields[i]
		fs.byName[f.name] = f
		folded := foldName([]byte(f.name))
		fs.byFolded[folded] = append(fs.byFolded[folded], f)
	}
	if n := len(fallbacks); n == 1 || n > 1 && len(fallbacks[0].index) != len(fallbacks[1].index) {
		fs.fallback = &fallbacks[0]
	}
	return fs
}

func boolOrder(x, y bool) int {
	switch {
	case !x && y:
		return -1
	case x && !y:
		return 1
	}
	return 0
}

// indirect is t's element type when t is an unnamed pointer.
func indirect(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer && t.Name() == "" {
		return t.Elem()
	}
	return t
}

// hasMethods reports whether t or *t reads or writes itself as JSON or
// text.
func hasMethods(t reflect.Type) bool {
	for _, i := range methodTypes {
		if implements(t, i) {
			return true
		}
	}
	return false
}

// parseField reads a field's json tag: its name and options. ignored is
// true for "-" and for unexported fields that are not embedded.
func parseField(sf reflect.StructField) (f field, ignored bool, err error) {
	tag, tagged := sf.Tag.Lookup("json")
	if tag == "-" {
		return field{}, true, nil
	}
	if !sf.IsExported() && !sf.Anonymous {
		if tagged {
			err = fmt.Errorf("unexported Go struct field %s cannot have non-ignored `json:%q` tag", sf.Name, tag)
		}
		return field{}, true, err
	}
	f.name = sf.Name
	if tag != "" && !strings.HasPrefix(tag, ",") {
		n := strings.IndexAny(tag, ",\\'\"`")
		if n < 0 {
			n = len(tag)
		}
		if n < len(tag) && tag[n] != ',' {
			return f, false, fmt.Errorf("Go struct field %s has a `json` tag name this decoder does not read (quoted or with a backslash)", sf.Name)
		}
		name := tag[:n]
		if !utf8.ValidString(name) {
			err = fmt.Errorf("Go struct field %s has JSON object name %q with invalid UTF-8", sf.Name, name)
			name = string([]rune(name))
		}
		f.hasName, f.name = true, name
		tag = tag[n:]
	}
	seen := map[string]bool{}
	for tag != "" {
		tag = tag[1:] // ','
		if tag == "" {
			return f, false, orErr(err, fmt.Errorf("Go struct field %s has malformed `json` tag: invalid trailing ',' character", sf.Name))
		}
		n := strings.IndexByte(tag, ',')
		if n < 0 {
			n = len(tag)
		}
		opt := tag[:n]
		tag = tag[n:]
		key, value, hasValue := strings.Cut(opt, ":")
		switch key {
		case "case":
			switch value {
			case "ignore":
				f.ignore = true
			case "strict":
				f.strict = true
			default:
				err = orErr(err, fmt.Errorf("Go struct field %s has unknown `case:%s` tag value", sf.Name, value))
			}
		case "embed":
			f.embed = true
		case "omitzero", "omitempty":
		case "string":
			f.str = true
		case "format":
			if !hasValue || value == "" {
				err = orErr(err, fmt.Errorf("Go struct field %s is missing value for `format` tag option", sf.Name))
			}
			f.format = value
		default:
			switch norm := strings.ReplaceAll(strings.ToLower(key), "_", ""); norm {
			case "case", "embed", "omitzero", "omitempty", "string", "format":
				err = orErr(err, fmt.Errorf("Go struct field %s has invalid appearance of `%s` tag option; specify `%s` instead", sf.Name, key, norm))
			}
		}
		if f.ignore && f.strict {
			err = orErr(err, fmt.Errorf("Go struct field %s cannot have both `case:ignore` and `case:strict` tag options", sf.Name))
		}
		if seen[key] {
			err = orErr(err, fmt.Errorf("Go struct field %s has duplicate appearance of `%s` tag option", sf.Name, key))
		}
		seen[key] = true
	}
	return f, false, err
}

func orErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
