package rpc

// MethodFacts is what a service's schema says of one method beyond its Go
// types, as generated bindings hand it out (<Service>MethodFacts): the
// shapes its result may take and the extension members its index entry
// declares. A server reads them to treat a method as its schema says,
// instead of keeping a second table of methods by hand.
type MethodFacts struct {
	// Notification marks a method that is a notification: it has no
	// result and is never answered.
	Notification bool
	// Results names, by their generated Go names, the types a result may
	// be: the result's own type, or each variant of a union result, then
	// the alternative results the schema allows. Empty for a notification
	// and for a result of no named type.
	Results []string
	// ResultMembers lists, sorted, the member names that any object in
	// Results declares as a property.
	ResultMembers []string
	// Extensions are the method's "x-" members as its index writes them,
	// sorted by name, each value as compact JSON text.
	Extensions []MethodExtension
}

// MethodExtension is one "x-" member of a method's index entry.
type MethodExtension struct {
	// Name is the member's name, "x-" included.
	Name string
	// Value is the member's value as compact JSON text.
	Value string
}

// Extension returns the JSON text of the extension member name, and whether
// the method declares it.
func (f MethodFacts) Extension(name string) (string, bool) {
	for _, x := range f.Extensions {
		if x.Name == name {
			return x.Value, true
		}
	}
	return "", false
}

// HasResult reports whether a result of the method may be of the generated
// type name.
func (f MethodFacts) HasResult(name string) bool {
	for _, r := range f.Results {
		if r == name {
			return true
		}
	}
	return false
}

// HasResultMember reports whether some result of the method declares the
// member name.
func (f MethodFacts) HasResultMember(name string) bool {
	for _, m := range f.ResultMembers {
		if m == name {
			return true
		}
	}
	return false
}
