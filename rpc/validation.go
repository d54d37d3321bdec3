package rpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schemarpc/schemarpc/internal/fastschema"
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

// ValidationError is a value that failed its schema: what [Schema.Validate]
// returns, and what [SchemaError] renders as error data.
type ValidationError struct {
	// Violations lists every violation found, ordered by instance
	// location, then keyword location.
	Violations []Violation
}

// Error names the first violation and how many more there are.
func (e *ValidationError) Error() string {
	return headline("", e.Violations)
}

// headline is the message of an error whose data lists all: prefix, the
// first violation and how many more there are.
func headline(prefix string, all []Violation) string {
	if len(all) == 0 {
		return prefix + "the value fails its schema"
	}
	first := all[0]
	msg := prefix + first.Message
	switch {
	case first.Param != "":
		msg = prefix + first.InstanceLocation + " (" + first.Param + "): " + first.Message
	case first.InstanceLocation != "":
		msg = prefix + first.InstanceLocation + ": " + first.Message
	}
	if n := len(all) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// validationError turns a schema validation failure into a JSON-RPC error
// with the given code and message prefix.
func validationError(code int, prefix string, err error) *Error {
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Violations) == 0 {
		return &Error{Code: code, Message: prefix + err.Error()}
	}
	return violationsError(code, prefix, ve.Violations)
}

// violationsError is the JSON-RPC error listing all (sorted) violations.
func violationsError(code int, prefix string, all []Violation) *Error {
	data := ValidationData{Errors: all[:min(len(all), MaxViolations)], Truncated: len(all) > MaxViolations}
	b, _ := json.Marshal(data) // plain strings and bools: cannot fail
	return &Error{Code: code, Message: headline(prefix, all), Data: b}
}

// violations renders failures, sorted; rename maps the first segment of
// instance locations (by-position params validated as an object report the
// index the caller used, not the name).
func violations(fails []fastschema.Failure, rename map[string]string) []Violation {
	leaves := collect(fails, nil)
	all := make([]Violation, len(leaves))
	for i, l := range leaves {
		all[i] = violation(l.f, rename)
		for _, alt := range l.alternatives {
			all[i].Alternatives = append(all[i].Alternatives, violation(alt, rename))
		}
	}
	// So that the same input always gets the same answer.
	slices.SortStableFunc(all, func(a, b Violation) int {
		if c := strings.Compare(a.InstanceLocation, b.InstanceLocation); c != 0 {
			return c
		}
		return strings.Compare(a.KeywordLocation, b.KeywordLocation)
	})
	return all
}

// violation renders one failure; rename maps the first segment of its
// instance location (a by-position param's name to its index), and the name
// is kept in Param.
func violation(f fastschema.Failure, rename map[string]string) Violation {
	v := Violation{
		InstanceLocation: pointer(f.Instance, rename),
		KeywordLocation:  f.Location,
		Message:          f.Message,
	}
	if len(f.Instance) > 0 && rename[f.Instance[0]] != "" {
		v.Param = f.Instance[0]
	}
	return v
}

// leaf is one failure to report, with, when it comes from an anyOf or
// oneOf, the first failure of each of its alternatives.
type leaf struct {
	f            fastschema.Failure
	alternatives []fastschema.Failure
}

// collect appends the failures to report: for an anyOf or oneOf only the
// alternative that best explains the failure is kept, and the others are
// listed beside it.
func collect(fails []fastschema.Failure, out []leaf) []leaf {
	for _, f := range fails {
		if f.Alternatives == nil {
			out = append(out, leaf{f: f})
			continue
		}
		out = bestBranch(f, out)
	}
	return out
}

// bestBranch picks the anyOf/oneOf alternative that best explains the
// failure: alternatives that fail only on a const or enum (a discriminator
// such as "type") are dropped; of the rest, the one whose failures lie
// deepest, then the one with the fewest failures. When every alternative
// is dropped the combinator itself is reported.
func bestBranch(f fastschema.Failure, out []leaf) []leaf {
	var best []leaf
	var tried []fastschema.Failure
	bestDepth := -1
	for _, alt := range f.Alternatives {
		leaves := collect(alt, nil)
		if len(leaves) > 0 {
			tried = append(tried, leaves[0].f)
		}
		if onlyDiscriminator(leaves) {
			continue
		}
		d := 0
		for _, l := range leaves {
			d = max(d, len(l.f.Instance))
		}
		if d > bestDepth || (d == bestDepth && len(leaves) < len(best)) {
			best, bestDepth = leaves, d
		}
	}
	if best == nil {
		itself := f
		itself.Alternatives = nil
		return append(out, leaf{f: itself, alternatives: tried})
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
		switch l.f.Keyword {
		case "const", "enum":
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

// SchemaError returns the JSON-RPC error for a value that failed its schema:
// code (say CodeInvalidParams), a message made of prefix and the first
// violation, and the violations (at most MaxViolations, sorted) in data as
// ValidationData. Errors other than a validation failure give just the
// prefixed text. Layers above rpc use it to report their own validations
// the way the router reports params.
func SchemaError(code int, prefix string, err error) *Error {
	return validationError(code, prefix, err)
}
