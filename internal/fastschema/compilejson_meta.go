package fastschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The checks below refuse what the library's metaschemas refuse (it checks
// every document against its draft's metaschema, with formats asserted),
// keyword by keyword, without the metaschemas. They may refuse more than
// the library (numbers too large to read), never less.

// keywordCheck checks the value v of one keyword at ptr (the keyword's own
// pointer), returning why it is wrong, or descending into its subschemas.
type keywordCheck func(r *jsonRoot, v any, ptr string) error

// keywordChecks are the checks of each draft's metaschema. Keywords not
// listed are not checked (the metaschemas allow anything there). The
// checks refer back to checkSchema, which reads this table: it is made on
// first use (which also keeps it out of package initialisation).
var (
	keywordChecks     map[int]map[string]keywordCheck
	keywordChecksOnce sync.Once
)

// makeKeywordChecks fills keywordChecks.
func makeKeywordChecks() {
	keywordChecks = map[int]map[string]keywordCheck{
		Draft4: {
			"id": isString, "$schema": isURI, "$ref": isString, "title": isString, "description": isString,
			"multipleOf": isPositiveNumber, "maximum": isNumber, "exclusiveMaximum": isBool,
			"minimum": isNumber, "exclusiveMinimum": isBool, "maxLength": isCount, "minLength": isCount,
			"pattern": isRegexp, "additionalItems": isBoolOrSchema, "items": isSchemaOrList,
			"maxItems": isCount, "minItems": isCount, "uniqueItems": isBool, "maxProperties": isCount,
			"minProperties": isCount, "required": isNonEmptyStringSet, "additionalProperties": isBoolOrSchema,
			"definitions": isSchemaMap, "properties": isSchemaMap, "patternProperties": isPatternMap,
			"dependencies": isDependencies, "enum": isUniqueList, "type": isType, "allOf": isSchemaList,
			"anyOf": isSchemaList, "oneOf": isSchemaList, "not": isSchema, "format": isString,
		},
		Draft6: {
			"$id": isURIReference, "$schema": isURI, "$ref": isURIReference,
			"title": isString, "description": isString, "multipleOf": isPositiveNumber, "maximum": isNumber,
			"exclusiveMaximum": isNumber, "minimum": isNumber, "exclusiveMinimum": isNumber,
			"maxLength": isCount, "minLength": isCount, "pattern": isRegexp,
			"additionalItems": isSchema, "items": isSchemaOrList, "maxItems": isCount, "minItems": isCount,
			"uniqueItems": isBool, "contains": isSchema, "maxProperties": isCount, "minProperties": isCount,
			"required": isStringSet, "additionalProperties": isSchema, "definitions": isSchemaMap,
			"properties": isSchemaMap, "patternProperties": isPatternMap, "dependencies": isDependencies,
			"propertyNames": isSchema, "enum": isUniqueList, "type": isType, "format": isString,
			"allOf": isSchemaList, "anyOf": isSchemaList, "oneOf": isSchemaList, "not": isSchema,
		},
		Draft7: {
			"$id": isURIReference, "$schema": isURI, "$ref": isURIReference, "$comment": isString,
			"title": isString, "description": isString, "readOnly": isBool, "writeOnly": isBool,
			"examples": isArray, "multipleOf": isPositiveNumber, "maximum": isNumber,
			"exclusiveMaximum": isNumber, "minimum": isNumber, "exclusiveMinimum": isNumber,
			"maxLength": isCount, "minLength": isCount, "pattern": isRegexp,
			"additionalItems": isSchema, "items": isSchemaOrList, "maxItems": isCount, "minItems": isCount,
			"uniqueItems": isBool, "contains": isSchema, "maxProperties": isCount, "minProperties": isCount,
			"required": isStringSet, "additionalProperties": isSchema, "definitions": isSchemaMap,
			"properties": isSchemaMap, "patternProperties": isPatternMap, "dependencies": isDependencies,
			"propertyNames": isSchema, "enum": isUniqueList, "type": isType, "format": isString,
			"contentMediaType": isString, "contentEncoding": isString, "if": isSchema, "then": isSchema,
			"else": isSchema, "allOf": isSchemaList, "anyOf": isSchemaList, "oneOf": isSchemaList, "not": isSchema,
		},
		Draft2019: {
			"$id": isBaseURI, "$schema": isURI, "$ref": isURIReference, "$anchor": isAnchor2019,
			"$recursiveRef": isURIReference, "$recursiveAnchor": isBool, "$vocabulary": isVocabulary,
			"$comment": isString, "$defs": isSchemaMap,
			"additionalItems": isSchema, "unevaluatedItems": isSchema, "items": isSchemaOrList,
			"contains": isSchema, "additionalProperties": isSchema, "unevaluatedProperties": isSchema,
			"properties": isSchemaMap, "patternProperties": isPatternMap, "dependentSchemas": isSchemaMap,
			"propertyNames": isSchema, "if": isSchema, "then": isSchema, "else": isSchema,
			"allOf": isSchemaList, "anyOf": isSchemaList, "oneOf": isSchemaList, "not": isSchema,
			"multipleOf": isPositiveNumber, "maximum": isNumber, "exclusiveMaximum": isNumber,
			"minimum": isNumber, "exclusiveMinimum": isNumber, "maxLength": isCount, "minLength": isCount,
			"pattern": isRegexp, "maxItems": isCount, "minItems": isCount, "uniqueItems": isBool,
			"maxContains": isCount, "minContains": isCount, "maxProperties": isCount,
			"minProperties": isCount, "required": isStringSet, "dependentRequired": isRequiredMap,
			"enum": isArray, "type": isType,
			"title": isString, "description": isString, "deprecated": isBool, "readOnly": isBool,
			"writeOnly": isBool, "examples": isArray, "format": isString,
			"contentEncoding": isString, "contentMediaType": isString, "contentSchema": isSchema,
			"definitions": isSchemaMap, "dependencies": isDependencies,
		},
		Draft2020: {
			"$id": isBaseURI, "$schema": isURI, "$ref": isURIReference, "$anchor": isAnchor,
			"$dynamicRef": isURIReference, "$dynamicAnchor": isAnchor, "$vocabulary": isVocabulary,
			"$comment": isString, "$defs": isSchemaMap,
			"prefixItems": isSchemaList, "items": isSchema, "contains": isSchema,
			"additionalProperties": isSchema, "properties": isSchemaMap, "patternProperties": isPatternMap,
			"dependentSchemas": isSchemaMap, "propertyNames": isSchema, "if": isSchema, "then": isSchema,
			"else": isSchema, "allOf": isSchemaList, "anyOf": isSchemaList, "oneOf": isSchemaList, "not": isSchema,
			"unevaluatedItems": isSchema, "unevaluatedProperties": isSchema,
			"type": isType, "enum": isArray, "multipleOf": isPositiveNumber, "maximum": isNumber,
			"exclusiveMaximum": isNumber, "minimum": isNumber, "exclusiveMinimum": isNumber,
			"maxLength": isCount, "minLength": isCount, "pattern": isRegexp, "maxItems": isCount,
			"minItems": isCount, "uniqueItems": isBool, "maxContains": isCount, "minContains": isCount,
			"maxProperties": isCount, "minProperties": isCount, "required": isStringSet,
			"dependentRequired": isRequiredMap,
			"title":             isString, "description": isString, "deprecated": isBool, "readOnly": isBool,
			"writeOnly": isBool, "examples": isArray, "format": isString,
			"contentEncoding": isString, "contentMediaType": isString, "contentSchema": isSchema,
			"definitions": isSchemaMap, "dependencies": isDependencies,
			"$recursiveAnchor": isAnchor, "$recursiveRef": isURIReference,
		},
	}
}

// checkSchema checks the schema v at ptr and every subschema in it.
func (r *jsonRoot) checkSchema(v any, ptr string) error {
	r.checked[ptr] = true
	switch v := v.(type) {
	case bool:
		if r.draft == Draft4 {
			return &SchemaError{Location: r.loc(ptr), Reason: "a draft-04 schema must be an object"}
		}
		return nil
	case map[string]any:
		if r.draft == Draft4 {
			for excl, bound := range map[string]string{"exclusiveMaximum": "maximum", "exclusiveMinimum": "minimum"} {
				if _, ok := v[excl]; ok {
					if _, ok := v[bound]; !ok {
						return &SchemaError{Location: r.loc(ptr + "/" + excl), Reason: "needs " + bound + " beside it"}
					}
				}
			}
		}
		keywordChecksOnce.Do(makeKeywordChecks)
		checks := keywordChecks[r.draft]
		for _, kw := range sortedKeys(v) {
			if check := checks[kw]; check != nil {
				if err := check(r, v[kw], ptr+"/"+escapeToken(kw)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return &SchemaError{Location: r.loc(ptr), Reason: "a schema must be an object or a boolean"}
}

// wrong is the error for the keyword at ptr.
func wrong(r *jsonRoot, ptr, why string) error {
	return &SchemaError{Location: r.loc(ptr), Reason: why}
}

func isSchema(r *jsonRoot, v any, ptr string) error { return r.checkSchema(v, ptr) }

func isSchemaList(r *jsonRoot, v any, ptr string) error {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return wrong(r, ptr, "must be a non-empty array of schemas")
	}
	for i, sub := range arr {
		if err := r.checkSchema(sub, ptr+"/"+strconv.Itoa(i)); err != nil {
			return err
		}
	}
	return nil
}

func isSchemaOrList(r *jsonRoot, v any, ptr string) error {
	if _, ok := v.([]any); ok {
		return isSchemaList(r, v, ptr)
	}
	return r.checkSchema(v, ptr)
}

// isBoolOrSchema accepts draft 4's additionalProperties and
// additionalItems: a boolean or a schema.
func isBoolOrSchema(r *jsonRoot, v any, ptr string) error {
	if _, ok := v.(bool); ok {
		return nil
	}
	return r.checkSchema(v, ptr)
}

// eachMember checks that v is an object (what says what it must be
// otherwise) and calls f with each member, in name order, and its pointer,
// up to the first error.
func eachMember(r *jsonRoot, v any, ptr, what string, f func(name string, val any, at string) error) error {
	m, ok := v.(map[string]any)
	if !ok {
		return wrong(r, ptr, what)
	}
	for _, k := range sortedKeys(m) {
		if err := f(k, m[k], ptr+"/"+escapeToken(k)); err != nil {
			return err
		}
	}
	return nil
}

func isSchemaMap(r *jsonRoot, v any, ptr string) error {
	return eachMember(r, v, ptr, "must be an object of schemas", func(_ string, val any, at string) error {
		return r.checkSchema(val, at)
	})
}

func isPatternMap(r *jsonRoot, v any, ptr string) error {
	err := eachMember(r, v, ptr, "must be an object of schemas", func(name string, _ any, at string) error {
		if _, err := regexp.Compile(name); err != nil {
			return wrong(r, at, "not a regular expression: "+err.Error())
		}
		return nil
	})
	if err != nil {
		return err
	}
	return isSchemaMap(r, v, ptr)
}

func isDependencies(r *jsonRoot, v any, ptr string) error {
	return eachMember(r, v, ptr, "must be an object of schemas or arrays of names", func(_ string, val any, at string) error {
		_, isArr := val.([]any)
		switch {
		case isArr && r.draft == Draft4:
			return isNonEmptyStringSet(r, val, at)
		case isArr:
			return isStringSet(r, val, at)
		}
		return r.checkSchema(val, at)
	})
}

func isRequiredMap(r *jsonRoot, v any, ptr string) error {
	return eachMember(r, v, ptr, "must be an object of arrays of names", func(_ string, val any, at string) error {
		return isStringSet(r, val, at)
	})
}

func isString(r *jsonRoot, v any, ptr string) error {
	if _, ok := v.(string); !ok {
		return wrong(r, ptr, "must be a string")
	}
	return nil
}

func isBool(r *jsonRoot, v any, ptr string) error {
	if _, ok := v.(bool); !ok {
		return wrong(r, ptr, "must be a boolean")
	}
	return nil
}

func isArray(r *jsonRoot, v any, ptr string) error {
	if _, ok := v.([]any); !ok {
		return wrong(r, ptr, "must be an array")
	}
	return nil
}

func isNumber(r *jsonRoot, v any, ptr string) error {
	if _, ok := v.(json.Number); !ok {
		return wrong(r, ptr, "must be a number")
	}
	if _, ok := ratOf(v); !ok {
		return wrong(r, ptr, "number too large to read")
	}
	return nil
}

func isPositiveNumber(r *jsonRoot, v any, ptr string) error {
	if err := isNumber(r, v, ptr); err != nil {
		return err
	}
	if q, _ := ratOf(v); q.Sign() <= 0 {
		return wrong(r, ptr, "must be greater than 0")
	}
	return nil
}

// isCount accepts the non-negative integers (1.0 is one) the library can
// read as an int.
func isCount(r *jsonRoot, v any, ptr string) error {
	if err := isNumber(r, v, ptr); err != nil {
		return wrong(r, ptr, "must be a non-negative integer")
	}
	q, _ := ratOf(v)
	if !q.IsInt() || q.Sign() < 0 {
		return wrong(r, ptr, "must be a non-negative integer")
	}
	if !q.Num().IsInt64() {
		return wrong(r, ptr, "integer too large")
	}
	return nil
}

func isRegexp(r *jsonRoot, v any, ptr string) error {
	s, ok := v.(string)
	if !ok {
		return wrong(r, ptr, "must be a string")
	}
	if _, err := regexp.Compile(s); err != nil {
		return wrong(r, ptr, "not a regular expression: "+err.Error())
	}
	return nil
}

// isUniqueList accepts a non-empty array of distinct values (draft 7's
// enum).
func isUniqueList(r *jsonRoot, v any, ptr string) error {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return wrong(r, ptr, "must be a non-empty array")
	}
	return distinct(r, arr, ptr)
}

// isNonEmptyStringSet accepts a non-empty array of distinct strings
// (draft 4's required).
func isNonEmptyStringSet(r *jsonRoot, v any, ptr string) error {
	if arr, ok := v.([]any); ok && len(arr) == 0 {
		return wrong(r, ptr, "must be a non-empty array of strings")
	}
	return isStringSet(r, v, ptr)
}

// isStringSet accepts an array of distinct strings.
func isStringSet(r *jsonRoot, v any, ptr string) error {
	arr, ok := v.([]any)
	if !ok {
		return wrong(r, ptr, "must be an array of strings")
	}
	for i, e := range arr {
		if _, ok := e.(string); !ok {
			return wrong(r, ptr+"/"+strconv.Itoa(i), "must be a string")
		}
	}
	return distinct(r, arr, ptr)
}

// distinct refuses an array with two equal values, equal as the library
// compares them (numbers by value).
func distinct(r *jsonRoot, arr []any, ptr string) error {
	seen := make(map[string]bool, len(arr))
	var b bytes.Buffer
	for i, e := range arr {
		b.Reset()
		if !canonical(&b, e) {
			return wrong(r, ptr+"/"+strconv.Itoa(i), "number too large to compare")
		}
		if seen[b.String()] {
			return wrong(r, ptr, "items must be unique")
		}
		seen[b.String()] = true
	}
	return nil
}

func isType(r *jsonRoot, v any, ptr string) error {
	const why = "must be a type name (null, boolean, number, integer, string, array, object) or a non-empty array of distinct ones"
	switch t := v.(type) {
	case string:
		if kindOfType(t) == 0 {
			return wrong(r, ptr, why)
		}
		return nil
	case []any:
		if len(t) == 0 {
			return wrong(r, ptr, why)
		}
		for _, e := range t {
			if s, _ := e.(string); kindOfType(s) == 0 {
				return wrong(r, ptr, why)
			}
		}
		return distinct(r, t, ptr)
	}
	return wrong(r, ptr, why)
}

func isAnchor(r *jsonRoot, v any, ptr string) error {
	if s, ok := v.(string); !ok || !isAnchorName(s, "_", ".-_") {
		return wrong(r, ptr, "must be an anchor name (a letter or _, then letters, digits, -, . or _)")
	}
	return nil
}

func isAnchor2019(r *jsonRoot, v any, ptr string) error {
	if s, ok := v.(string); !ok || !isAnchorName(s, "", ".-:_") {
		return wrong(r, ptr, "must be an anchor name (a letter, then letters, digits, -, ., : or _)")
	}
	return nil
}

// isAnchorName reports whether s is an ASCII letter or one of first, then
// letters, digits or any of rest.
func isAnchorName(s, first, rest string) bool {
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	if s == "" || !letter(s[0]) && !strings.Contains(first, s[:1]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !letter(c) && !(c >= '0' && c <= '9') && !strings.ContainsRune(rest, rune(c)) {
			return false
		}
	}
	return true
}

func isURIReference(r *jsonRoot, v any, ptr string) error {
	s, ok := v.(string)
	if !ok {
		return wrong(r, ptr, "must be a string")
	}
	if _, err := parseURIReference(s); err != nil {
		return wrong(r, ptr, "not a URI reference: "+err.Error())
	}
	return nil
}

func isURI(r *jsonRoot, v any, ptr string) error {
	s, ok := v.(string)
	if !ok {
		return wrong(r, ptr, "must be a string")
	}
	u, err := parseURIReference(s)
	if err == nil && !u.IsAbs() {
		err = errors.New("relative")
	}
	if err != nil {
		return wrong(r, ptr, "not an absolute URI: "+err.Error())
	}
	return nil
}

// isBaseURI accepts a 2020-12 $id: a URI reference without a non-empty
// fragment.
func isBaseURI(r *jsonRoot, v any, ptr string) error {
	if err := isURIReference(r, v, ptr); err != nil {
		return err
	}
	if _, frag, _ := strings.Cut(v.(string), "#"); frag != "" {
		return wrong(r, ptr, "must not have a fragment (use $anchor)")
	}
	return nil
}

func isVocabulary(r *jsonRoot, v any, ptr string) error {
	return eachMember(r, v, ptr, "must be an object", func(name string, val any, at string) error {
		if err := isURI(r, name, at); err != nil {
			return err
		}
		return isBool(r, val, at)
	})
}

// parseURIReference parses s as the library's uri-reference format does,
// refusing a little more: an IPv6 host must be a bracketed address without
// a zone.
func parseURIReference(s string) (*url.URL, error) {
	if strings.Contains(s, `\`) {
		return nil, errors.New(`contains \`)
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if host := u.Hostname(); strings.Contains(host, ":") || strings.Contains(u.Host, "[") {
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is6() || a.Zone() != "" || !strings.Contains(u.Host, "[") {
			return nil, errors.New("bad IPv6 host")
		}
	}
	return u, nil
}
