package rpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// MaxViolations is the most violations an error's data lists.
const MaxViolations = 20

// Violation is one way a value failed its schema, as listed in the data of
// -32600 and -32602 errors.
type Violation struct {
	// InstanceLocation is a JSON pointer to the failing value, relative to
	// the message (for -32600) or to its params (for -32602).
	InstanceLocation string `json:"instanceLocation"`
	// KeywordLocation is the absolute URL of the schema keyword that failed.
	KeywordLocation string `json:"keywordLocation"`
	// Message says what is wrong in one line.
	Message string `json:"message"`
	// Param names the param the failing value belongs to when the params
	// came by position: InstanceLocation then starts with its index, and
	// Param says which param that index is.
	Param string `json:"param,omitempty"`
	// Alternatives, for a value that matched none of the alternatives of
	// an anyOf or oneOf, lists how each one failed (its first violation),
	// in schema order: the violation itself comes from the alternative that
	// explains the failure best, and this shows every one tried, that one
	// included.
	Alternatives []Violation `json:"alternatives,omitempty"`
}

// ValidationData is the data of an error produced by schema validation.
type ValidationData struct {
	// Errors lists at most MaxViolations violations, ordered by instance
	// location, then keyword location.
	Errors []Violation `json:"errors"`
	// Truncated is true when more violations were found than listed.
	Truncated bool `json:"truncated"`
}

var printer = message.NewPrinter(language.English)

// validationError turns a schema validation failure into a JSON-RPC error
// with the given code and message prefix. rename maps the first segment of
// instance locations (by-position params validated as an object report the
// index the caller used, not the name).
func validationError(code int, prefix string, err error, rename map[string]string) *Error {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &Error{Code: code, Message: prefix + err.Error()}
	}
	leaves := collect(ve, nil)
	if len(leaves) == 0 {
		leaves = []leaf{{e: ve}}
	}
	all := make([]Violation, len(leaves))
	for i, l := range leaves {
		all[i] = violation(l.e, rename)
		for _, alt := range l.alternatives {
			all[i].Alternatives = append(all[i].Alternatives, violation(alt, rename))
		}
	}
	// The validator walks members in map order: sort, so that the same
	// input always gets the same answer.
	slices.SortStableFunc(all, func(a, b Violation) int {
		if c := strings.Compare(a.InstanceLocation, b.InstanceLocation); c != 0 {
			return c
		}
		return strings.Compare(a.KeywordLocation, b.KeywordLocation)
	})
	data := ValidationData{Errors: all[:min(len(all), MaxViolations)], Truncated: len(all) > MaxViolations}
	first := data.Errors[0]
	msg := prefix + first.Message
	switch {
	case first.Param != "":
		msg = prefix + first.InstanceLocation + " (" + first.Param + "): " + first.Message
	case first.InstanceLocation != "":
		msg = prefix + first.InstanceLocation + ": " + first.Message
	}
	if n := len(leaves) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	b, _ := json.Marshal(data) // plain strings and bools: cannot fail
	return &Error{Code: code, Message: msg, Data: b}
}

// violation renders one failure; rename maps the first segment of its
// instance location (a by-position param's name to its index), and the name
// is kept in Param.
func violation(e *jsonschema.ValidationError, rename map[string]string) Violation {
	if k, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
		// The validator lists them in map order: sort, for one answer.
		slices.Sort(k.Properties)
	}
	v := Violation{
		InstanceLocation: pointer(e.InstanceLocation, rename),
		KeywordLocation:  keywordLocation(e),
		Message:          e.ErrorKind.LocalizedString(printer),
	}
	if len(e.InstanceLocation) > 0 && rename[e.InstanceLocation[0]] != "" {
		v.Param = e.InstanceLocation[0]
	}
	return v
}

// leaf is one failure to report, with, when it comes from an anyOf or
// oneOf, the first failure of each of its alternatives.
type leaf struct {
	e            *jsonschema.ValidationError
	alternatives []*jsonschema.ValidationError
}

// collect appends the leaf failures under e, depth first. Wrappers (schema,
// group, $ref hops) are skipped; for anyOf and oneOf only the branch that
// best explains the failure is kept, and the others are listed beside it.
func collect(e *jsonschema.ValidationError, out []leaf) []leaf {
	if len(e.Causes) == 0 {
		return append(out, leaf{e: e})
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		return bestBranch(e, out)
	}
	for _, c := range e.Causes {
		out = collect(c, out)
	}
	return out
}

// bestBranch picks the anyOf/oneOf branch that best explains the failure:
// branches that fail only on a const or enum (a discriminator such as
// "type") are dropped; of the rest, the one whose failures lie deepest, then
// the one with the fewest failures. When every branch is dropped the
// combinator itself is reported.
func bestBranch(e *jsonschema.ValidationError, out []leaf) []leaf {
	var best []leaf
	var tried []*jsonschema.ValidationError
	bestDepth := -1
	for _, c := range e.Causes {
		leaves := collect(c, nil)
		if len(leaves) > 0 {
			tried = append(tried, leaves[0].e)
		}
		if onlyDiscriminator(leaves) {
			continue
		}
		d := 0
		for _, l := range leaves {
			d = max(d, len(l.e.InstanceLocation))
		}
		if d > bestDepth || (d == bestDepth && len(leaves) < len(best)) {
			best, bestDepth = leaves, d
		}
	}
	if best == nil {
		return append(out, leaf{e: &jsonschema.ValidationError{
			SchemaURL:        e.SchemaURL,
			InstanceLocation: e.InstanceLocation,
			ErrorKind:        e.ErrorKind,
		}, alternatives: tried})
	}
	for _, l := range best {
		if l.alternatives == nil {
			l.alternatives = tried
		}
		out = append(out, l)
	}
	return out
}

func onlyDiscriminator(leaves []leaf) bool {
	for _, l := range leaves {
		switch l.e.ErrorKind.(type) {
		case *kind.Const, *kind.Enum:
		default:
			return false
		}
	}
	return len(leaves) > 0
}

// pointer renders an instance location as a JSON pointer.
func pointer(loc []string, rename map[string]string) string {
	var sb strings.Builder
	for i, seg := range loc {
		if i == 0 && rename != nil {
			if r, ok := rename[seg]; ok {
				seg = r
			}
		}
		sb.WriteByte('/')
		sb.WriteString(escapePointer(seg))
	}
	return sb.String()
}

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func keywordLocation(e *jsonschema.ValidationError) string {
	loc := e.SchemaURL
	if !strings.Contains(loc, "#") {
		loc += "#"
	}
	for _, k := range e.ErrorKind.KeywordPath() {
		loc += "/" + escapePointer(k)
	}
	return loc
}

// SchemaError returns the JSON-RPC error for a value that failed its schema:
// code (say CodeInvalidParams), a message made of prefix and the first
// violation, and the violations (at most MaxViolations, sorted) in data as
// ValidationData. Errors other than a validation failure give just the
// prefixed text. Layers above rpc use it to report their own validations
// the way the router reports params.
func SchemaError(code int, prefix string, err error) *Error {
	return validationError(code, prefix, err, nil)
}
