package fastschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Failure is one reason a value fails its schema.
type Failure struct {
	// Instance is the path from the root value to the failing one: member
	// names, and array indices in decimal.
	Instance []string
	// Location is the keyword's absolute location: the schema's location,
	// then the "/"-joined escaped keyword path
	// (".../schema.json#/$defs/A/required"). Empty in a decoded program.
	Location string
	// Keyword is the failing keyword ("type", "required", "anyOf", ...;
	// "false" for the false schema).
	Keyword string
	// Message says what is wrong, in one line.
	Message string
	// Alternatives, for an anyOf or oneOf that no alternative matched,
	// holds each alternative's failures, in schema order.
	Alternatives [][]Failure
}

// ErrUnsupported is wrapped, with the feature's name, by the error Explain
// returns for a schema feature it cannot evaluate.
var ErrUnsupported = errors.New("fastschema: a schema feature Explain cannot evaluate")

// ErrNumberTooLarge is returned by Explain for a number whose exponent or
// fraction is too long to compare exactly, where its value matters.
var ErrNumberTooLarge = errors.New("fastschema: a number too large to compare exactly")

// Explain decides data (one JSON text) against v and says why it fails: nil
// for a valid value. err is non-nil for malformed JSON, and for a schema
// feature Explain cannot evaluate ($dynamicRef, $recursiveRef, vocabulary
// extensions): ErrUnsupported, a sentinel wrapped with the feature's name.
// The list holds leaves only, except that a failing anyOf or oneOf is one
// Failure carrying its Alternatives; it follows the schema's order, and
// members in document order. A nil Validator accepts every value.
func (v *Validator) Explain(data []byte) ([]Failure, error) {
	val, err := decodeValue(data)
	if err != nil {
		return nil, fmt.Errorf("fastschema: malformed JSON: %w", err)
	}
	if v == nil {
		return nil, nil
	}
	x := &explainer{}
	return x.validate(v.root, val, unevalFrom(val, v.root, false))
}

// decodedRefusal is what Explain refuses at a node decoded from a program,
// which keeps only the kinds a node answers Unknown for and the first
// reason: what unevaluatedProperties and unevaluatedItems need, formats and
// references resolved at run time are not in it. Only a node whose sole
// reason is many patternProperties (whose rules the program holds) is
// explained.
func decodedRefusal(unsup kindMask, why string) string {
	if unsup == 0 || (unsup == kObject && why == tooManyPatterns) {
		return ""
	}
	return why
}

// explainer walks one value and its schema, as the oracle's validator
// does.
type explainer struct {
	path  []string // of the value being checked
	stack []*node  // the nodes applied, innermost last
	start int      // where the nodes applied to the current value begin in stack
}

// validate checks v against n, ue being the members and elements of v not
// yet evaluated (the annotations unevaluatedProperties and unevaluatedItems
// read), and returns v's failures.
func (x *explainer) validate(n *node, v any, ue *uneval) ([]Failure, error) {
	n.ready()
	if n.never {
		return []Failure{x.failure(n.loc, "false", "no value is allowed here")}, nil
	}
	if n.always {
		return nil, nil
	}
	if slices.Contains(x.stack[x.start:], n) {
		// As the oracle: a schema met again on the same value fails there.
		return []Failure{x.failure(n.loc, "$ref", "refers back to itself without moving into the value")}, nil
	}
	x.stack = append(x.stack, n)
	defer func() { x.stack = x.stack[:len(x.stack)-1] }()

	// The keywords below end the check at their first failure.
	if f, err := x.assertions(n, v); f != nil || err != nil {
		return f, err
	}
	var out []Failure
	if n.ref != nil {
		f, err := x.self(n.ref, v, ue)
		if err != nil || n.refOnly {
			return f, err
		}
		out = append(out, f...)
	}
	var err error
	switch v := v.(type) {
	case *object:
		if n.obj != nil {
			out, err = x.object(n, v, ue, out)
		}
	case []any:
		if n.arr != nil {
			out, err = x.array(n, v, ue, out)
		}
	case string:
		if n.str != nil {
			out = x.string(n, v, out)
		}
	case json.Number:
		if n.num != nil {
			out, err = x.number(n, v, out)
		}
	}
	if err != nil {
		return nil, err
	}
	if out, err = x.applicators(n, v, ue, out); err != nil {
		return nil, err
	}
	return x.unevaluated(n, v, ue, out)
}

// self applies n to the value being checked (the oracle's in-place
// application): when it passes, what it evaluated counts as evaluated.
func (x *explainer) self(n *node, v any, ue *uneval) ([]Failure, error) {
	sub := unevalFrom(v, n, !ue.isEmpty())
	f, err := x.validate(n, v, sub)
	if err == nil && f == nil {
		ue.merge(sub)
	}
	return f, err
}

// child applies n to the member or element tok of the value being checked.
func (x *explainer) child(n *node, v any, tok string) ([]Failure, error) {
	x.path = append(x.path, tok)
	saved := x.start
	x.start = len(x.stack)
	f, err := x.validate(n, v, unevalFrom(v, n.ready(), false))
	x.start = saved
	x.path = x.path[:len(x.path)-1]
	return f, err
}

// fresh applies n to v as a value of its own (a member name checked by
// propertyNames), reporting failures at the current path.
func (x *explainer) fresh(n *node, v any) ([]Failure, error) {
	saved := x.start
	x.start = len(x.stack)
	f, err := x.validate(n, v, unevalFrom(v, n.ready(), false))
	x.start = saved
	return f, err
}

// failure is a leaf failure of the value being checked, at the keyword
// location loc.
func (x *explainer) failure(loc, keyword, msg string) Failure {
	f := Failure{Location: loc, Keyword: keyword, Message: msg}
	if len(x.path) > 0 {
		f.Instance = slices.Clone(x.path)
	}
	return f
}

// keywordLoc is the location of the keyword path kws in n.
func keywordLoc(n *node, kws ...string) string {
	if n.loc == "" {
		return ""
	}
	loc := n.loc
	for _, k := range kws {
		loc += "/" + escapeToken(k)
	}
	return loc
}

// applicators applies not, allOf, anyOf, oneOf and if/then/else.
func (x *explainer) applicators(n *node, v any, ue *uneval, out []Failure) ([]Failure, error) {
	if n.not != nil {
		f, err := x.self(n.not, v, ue)
		if err != nil {
			return nil, err
		}
		if f == nil {
			// The oracle reports "not" at the schema itself.
			out = append(out, x.failure(n.loc, "not", "matches a schema it must not match"))
		}
	}
	for _, sub := range n.allOf {
		f, err := x.self(sub, v, ue)
		if err != nil {
			return nil, err
		}
		out = append(out, f...)
	}
	if n.anyOf != nil {
		var alts [][]Failure
		matched := false
		for _, sub := range n.anyOf {
			f, err := x.self(sub, v, ue)
			if err != nil {
				return nil, err
			}
			if f != nil {
				alts = append(alts, f)
				continue
			}
			matched = true
			if ue.isEmpty() {
				break
			}
		}
		if !matched {
			g := x.failure(keywordLoc(n, "anyOf"), "anyOf", fmt.Sprintf("matches none of the %d alternatives", len(n.anyOf)))
			g.Alternatives = alts
			out = append(out, g)
		}
	}
	if n.oneOf != nil {
		var alts [][]Failure
		matched := -1
		for i, sub := range n.oneOf {
			f, err := x.self(sub, v, ue)
			if err != nil {
				return nil, err
			}
			if f != nil {
				if matched < 0 {
					alts = append(alts, f)
				}
				continue
			}
			if matched >= 0 {
				out = append(out, x.failure(keywordLoc(n, "oneOf"), "oneOf",
					fmt.Sprintf("matches alternatives %d and %d, but must match exactly one", matched, i)))
				break
			}
			matched = i
		}
		if matched < 0 {
			g := x.failure(keywordLoc(n, "oneOf"), "oneOf", fmt.Sprintf("matches none of the %d alternatives", len(n.oneOf)))
			g.Alternatives = alts
			out = append(out, g)
		}
	}
	if n.ifN != nil {
		f, err := x.self(n.ifN, v, ue)
		if err != nil {
			return nil, err
		}
		branch := n.thenN
		if f != nil {
			branch = n.elseN
		}
		if branch != nil {
			f, err := x.self(branch, v, ue)
			if err != nil {
				return nil, err
			}
			out = append(out, f...)
		}
	}
	return out, nil
}
