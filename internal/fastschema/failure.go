package fastschema

// Failure is one reason a value fails its schema.
type Failure struct {
	// Instance is the path from the root value to the failing value:
	// member names, and array indices in decimal.
	Instance []string
	// Location is the keyword location: the schema's absolute location,
	// then the "/"-joined escaped keyword path.
	Location string
	// Keyword is the failing keyword ("type", "required", "const", "enum",
	// "anyOf", "oneOf", "false" for a false schema, ...).
	Keyword string
	// Message says what is wrong, in one line.
	Message string
	// Alternatives, for an anyOf or oneOf no alternative matched, holds
	// each failing alternative's failures, in schema order.
	Alternatives [][]Failure
}
