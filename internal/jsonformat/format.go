package jsonformat

import (
	"fmt"
	"regexp"
	"sort"
)

// Format is one named format check.
type Format struct {
	// Name is the format's name, as the "format" keyword spells it.
	Name  string
	check func(s string) error
}

// Validate returns nil when v (a value decoded by encoding/json with
// UseNumber) is valid for the format; values that are not strings are
// valid, as the library treats them.
func (f *Format) Validate(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if err := f.check(s); err != nil {
		return fmt.Errorf("not a valid %s: %w", f.Name, err)
	}
	return nil
}

// Lookup returns the format named name, nil when the library does not know
// it either.
func Lookup(name string) *Format { return formats[name] }

// Names lists the names Lookup knows, in order.
func Names() []string {
	names := make([]string, 0, len(formats))
	for name := range formats {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// formats are every format the library asserts in drafts 07, 06 and 04
// (the same set in each), by name.
var formats = named(map[string]func(string) error{
	"json-pointer":          checkJSONPointer,
	"relative-json-pointer": checkRelativeJSONPointer,
	"uuid":                  checkUUID,
	"duration":              checkDuration,
	"period":                checkPeriod,
	"ipv4":                  checkIPv4,
	"ipv6":                  checkIPv6,
	"hostname":              checkHostname,
	"email":                 checkEmail,
	"date":                  checkDate,
	"time":                  checkTime,
	"date-time":             checkDateTime,
	"uri":                   checkURI,
	"iri":                   checkURI, // the library checks an IRI as a URI
	"uri-reference":         checkURIReference,
	"iri-reference":         checkURIReference,
	"uri-template":          checkURITemplate,
	"semver":                checkSemver,
	"regex":                 checkRegex,
})

// named makes the formats of checks, keyed by name.
func named(checks map[string]func(string) error) map[string]*Format {
	out := make(map[string]*Format, len(checks))
	for name, check := range checks {
		out[name] = &Format{Name: name, check: check}
	}
	return out
}

// checkRegex compiles s with Go's regexp, the library's default engine.
func checkRegex(s string) error {
	_, err := regexp.Compile(s)
	return err
}
