package fastschema_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// explainAgrees checks Explain of v (compiled from the oracle's sch, or
// from the same documents) on data against the oracle: the same verdict,
// and the same failures once both are put in canonical form. Explain may
// refuse only with ErrUnsupported or ErrNumberTooLarge; it reports whether
// it explained.
func explainAgrees(t testing.TB, sch *jsonschema.Schema, v *fastschema.Validator, data []byte) bool {
	t.Helper()
	failures, err := v.Explain(data)
	val, decodeErr := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if decodeErr != nil {
		require.Error(t, err, "Explain accepts %q, which the oracle cannot decode", data)
		return false
	}
	if err != nil {
		require.True(t, errors.Is(err, fastschema.ErrUnsupported) || errors.Is(err, fastschema.ErrNumberTooLarge),
			"%s: Explain fails on %s: %v", sch.Location, data, err)
		return false
	}
	libErr, judged := oracleError(sch, val)
	if !judged {
		return false
	}
	if libErr == nil {
		require.Nil(t, failures, "%s: the oracle accepts %s", sch.Location, data)
		return true
	}
	var ve *jsonschema.ValidationError
	require.ErrorAs(t, libErr, &ve)
	require.NotEmpty(t, failures, "%s: the oracle refuses %s: %v", sch.Location, data, libErr)
	require.Equal(t, canonicalOracle(ve), canonicalFailures(failures), "%s: instance %s\noracle: %v", sch.Location, data, libErr)
	checkMessages(t, failures)
	return true
}

// oracleError is the oracle's Validate of val; judged is false when the
// oracle panics (on some huge numbers).
func oracleError(sch *jsonschema.Schema, val any) (err error, judged bool) {
	defer func() {
		if recover() != nil {
			err, judged = nil, false
		}
	}()
	return sch.Validate(val), true
}

// checkMessages requires every failure to say something, on one line.
func checkMessages(t testing.TB, failures []fastschema.Failure) {
	t.Helper()
	for _, f := range failures {
		require.NotEmpty(t, f.Keyword)
		require.NotEmpty(t, f.Message)
		require.NotContains(t, f.Message, "\n")
		for _, alt := range f.Alternatives {
			checkMessages(t, alt)
		}
	}
}

// nameOnly stands, in the canonical forms, for the instance location of a
// failure of propertyNames: the oracle reports it with its own slice of
// the path being walked, which later siblings overwrite (a library bug no
// one should copy), so only its keyword location is compared. Explain
// reports the object's path and starts the message with the name.
const nameOnly = "(a member name)"

// canonicalFailures is the canonical form of Explain's failures: each leaf
// as its instance pointer and keyword location, each anyOf or oneOf with its
// alternatives in order, sorted.
func canonicalFailures(failures []fastschema.Failure) []string {
	out := []string{}
	for _, f := range failures {
		where := pointerOf(f.Instance)
		if strings.HasPrefix(f.Message, "member name ") {
			where = nameOnly
		}
		s := where + " " + f.Location
		if f.Alternatives != nil {
			s += " {"
			for _, alt := range f.Alternatives {
				s += " [" + strings.Join(canonicalFailures(alt), "; ") + "]"
			}
			s += " }"
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// canonicalOracle flattens the oracle's error tree as rpc's collect does,
// without choosing a branch: wrappers are skipped, an anyOf or oneOf with
// causes becomes a group of each cause's flattened failures.
func canonicalOracle(ve *jsonschema.ValidationError) []string {
	out := oracleLeaves(ve, false, []string{})
	slices.Sort(out)
	return out
}

// oracleLeaves appends the canonical leaves under e; name is true under a
// propertyNames failure.
func oracleLeaves(e *jsonschema.ValidationError, name bool, out []string) []string {
	where := pointerOf(e.InstanceLocation)
	if name {
		where = nameOnly
	}
	if len(e.Causes) == 0 {
		return append(out, where+" "+oracleKeywordLocation(e))
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		s := where + " " + oracleKeywordLocation(e) + " {"
		for _, c := range e.Causes {
			alt := oracleLeaves(c, name, nil)
			slices.Sort(alt)
			s += " [" + strings.Join(alt, "; ") + "]"
		}
		return append(out, s+" }")
	case *kind.PropertyNames:
		name = true
	}
	for _, c := range e.Causes {
		out = oracleLeaves(c, name, out)
	}
	return out
}

// oracleKeywordLocation renders a keyword location as rpc does.
func oracleKeywordLocation(e *jsonschema.ValidationError) string {
	loc := e.SchemaURL
	if !strings.Contains(loc, "#") {
		loc += "#"
	}
	for _, k := range e.ErrorKind.KeywordPath() {
		loc += "/" + escapeToken(k)
	}
	return loc
}

// pointerOf renders a path as a JSON pointer.
func pointerOf(path []string) string {
	var sb strings.Builder
	for _, seg := range path {
		sb.WriteByte('/')
		sb.WriteString(escapeToken(seg))
	}
	return sb.String()
}

// escapeToken escapes one JSON pointer token.
func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
