package fastschema

// Verdict is the outcome of a fast check.
type Verdict uint8

const (
	// Unknown means the fast path cannot decide: the caller asks the oracle.
	Unknown Verdict = iota
	// Valid means the oracle would accept the instance.
	Valid
	// Invalid means the oracle would reject the instance.
	Invalid
)

// String returns the verdict's name: "unknown", "valid" or "invalid".
func (v Verdict) String() string {
	switch v {
	case Valid:
		return "valid"
	case Invalid:
		return "invalid"
	default:
		return "unknown"
	}
}

// result is the internal outcome of checking one value against one node. It
// is ordered by precedence when results are combined by conjunction: a
// malformed input beats a failure, which beats an unknown, which beats a
// success.
type result uint8

const (
	rOK   result = iota // the node accepts the value
	rUnk                // the fast path cannot decide
	rFail               // the node rejects the value
	rBad                // the input is not well-formed JSON (or too deep)
)
