package gen

import "sort"

// The intermediate representation: what the front end fills and the emitter
// reads. It holds Go names and shapes, never jennifer code.

// service is everything generated for one index.
type service struct {
	name      string // Go stem of the service: Calc → CalcServer, CalcClient
	doc       string // the index's title and description, as written
	inputName string // base name of the index file, for the header
	inputHash string // hex sha256 of the input documents, for the header
	indexURL  string
	types     []*namedType // sorted by name
	methods   []*method    // in index order
	errors    []*rpcError  // declared errors, deduplicated, sorted by name
	docs      []*document  // every input document, sorted by URL
	// lock asks for methods.lock.json, the derived method index, next to
	// the Go files: set by front ends that derive the index by convention
	// (MCP), where a schema upgrade should show up as a reviewable diff.
	lock bool
	// typesOnly says the input has no methods (a plain JSON Schema
	// document): no server, client or method constants are generated.
	typesOnly bool
	// version is the version of the protocol the input describes, when the
	// front end knows it (MCP: from the input's directory name).
	version string
	// program holds the compiled params validators, when every params
	// schema compiled.
	program program
}

// setInputs gives svc what every front end ends with: the named types the
// conversion made, sorted by name; the documents read (and any documents
// the front end made, such as OpenRPC's inline schemas), sorted by URL; and
// the hash of the documents read, for the header.
func (svc *service) setInputs(types []*namedType, read []*document, made ...*document) {
	svc.types = types
	sort.Slice(svc.types, func(i, j int) bool { return svc.types[i].name < svc.types[j].name })
	svc.docs = append(append([]*document(nil), read...), made...)
	sort.Slice(svc.docs, func(i, j int) bool { return svc.docs[i].url < svc.docs[j].url })
	svc.inputHash = inputHash(read)
}

// namedKind says what Go declaration a named type becomes.
type namedKind int

const (
	namedPending namedKind = iota // being converted
	namedStruct                   // type T struct{...}
	namedEnum                     // type T string + constants + IsKnown
	namedDefined                  // type T <underlying>
	namedAlias                    // type T = <underlying>
	namedUnion                    // box struct + sealed variant interface (unions_gen.go)
	namedTuple                    // struct written and read as a JSON array
)

// namedType is one generated type declaration.
type namedType struct {
	name       string
	origin     loc
	doc        string
	deprecated bool
	kind       namedKind
	nullable   bool // the schema also allows null: references to it become pointers where needed
	fields     []*field
	enum       []enumValue
	underlying typeRef // namedDefined, namedAlias
	note       string  // extra doc line (e.g. the values of a non-string enum)
	// extra is the element type of the Extra map of a struct that keeps
	// the members its properties do not name; nil when it drops them.
	extra *typeRef
	// bases names the definitions an allOf struct includes, for its doc.
	bases []string
	// union is the variant set of a namedUnion.
	union *union
	// tuple describes a namedTuple; its fields are the positions.
	tuple *tuple
}

// field is one struct field, from one property (or one tuple position).
type field struct {
	name       string
	jsonName   string
	typ        typeRef // the field's Go type
	base       typeRef // the property's type before presence made it a pointer or Nullable
	nullable   bool    // the property may be null
	omit       string  // "", "omitempty" or "omitzero"
	fillEmpty  bool    // required non-null slice or map: MarshalJSON writes nil as empty
	required   bool
	doc        string
	deprecated bool
	origin     loc
	schema     *node // the property's schema
	// constant is the JSON text of a const (or single-value enum) the
	// property always has; fill says MarshalJSON writes it when the field
	// is empty.
	constant string
	consts   []string // the string values a discriminating property may take
	fill     bool
	// def is the JSON text of the property's default: a Get accessor
	// returns it when the field is absent.
	def     string
	defNode *node
}

// enumValue is one constant of a string enum.
type enumValue struct {
	name  string
	value string
}

// refKind is the shape of a Go type expression.
type refKind int

const (
	refRaw      refKind = iota // json.RawMessage
	refBasic                   // string, int64, float64, bool
	refNamed                   // a generated type
	refSlice                   // []elem
	refMap                     // map[string]elem
	refNullable                // rpc.Nullable[elem]
	refQual                    // a type named in the config: qual.path, qual.name
)

// typeRef is a Go type expression.
type typeRef struct {
	kind  refKind
	basic string
	named *namedType
	elem  *typeRef
	qual  goType
	ptr   bool // *T
}

// shapeKind is what a type looks like once names are seen through, which
// decides pointers and omit tags.
type shapeKind int

const (
	shapeRaw shapeKind = iota
	shapeString
	shapeScalar // bool, int64, float64
	shapeStruct // structs, unions, tuples, pointers and config types: optional means *T
	shapeSlice
	shapeMap
	shapeNullable // rpc.Nullable: omitzero
)

func (t typeRef) shape() shapeKind {
	if t.ptr {
		return shapeStruct // a pointer is omitted when nil, like a struct pointer
	}
	switch t.kind {
	case refBasic:
		if t.basic == "string" {
			return shapeString
		}
		return shapeScalar
	case refSlice:
		return shapeSlice
	case refMap:
		return shapeMap
	case refNullable:
		return shapeNullable
	case refQual:
		switch t.qual.name {
		case "string":
			if t.qual.path == "" {
				return shapeString
			}
		case "RawMessage":
			if t.qual.path == jsonPath {
				return shapeRaw
			}
		}
		if t.qual.path == "" && t.qual.name != "any" {
			return shapeScalar
		}
		return shapeStruct
	case refNamed:
		switch t.named.kind {
		case namedStruct, namedUnion, namedTuple:
			return shapeStruct
		case namedEnum:
			return shapeString
		case namedDefined, namedAlias:
			return t.named.underlying.shape()
		}
	}
	return shapeRaw
}

// allowsEmptyString reports whether t is an enum that lists "" among its
// values: then "" is not "absent", and an optional t needs a pointer.
func (t typeRef) allowsEmptyString() bool {
	for t.kind == refNamed && t.named.kind == namedAlias {
		t = t.named.underlying
	}
	if t.kind != refNamed || t.named.kind != namedEnum {
		return true
	}
	for _, v := range t.named.enum {
		if v.value == "" {
			return true
		}
	}
	return false
}

// pointer returns *t for shapes whose zero value is meaningful, and t as it
// is for shapes that can already say "nothing" (slices, maps, raw JSON).
func (t typeRef) pointer() typeRef {
	switch t.shape() {
	case shapeSlice, shapeMap, shapeRaw, shapeNullable:
		return t
	}
	if t.ptr || t.kind == refNamed && t.named.kind == namedUnion && t.named.union.nullable {
		return t // a nullable union holds null itself
	}
	t.ptr = true
	return t
}

// describe renders a type for an error message.
func (t typeRef) describe(nullable bool) string {
	s := ""
	if t.ptr {
		s = "*"
	}
	switch t.kind {
	case refRaw:
		s += "json.RawMessage"
	case refBasic:
		s += t.basic
	case refNamed:
		s += t.named.name
	case refSlice:
		s += "[]" + t.elem.describe(false)
	case refMap:
		s += "map[string]" + t.elem.describe(false)
	case refNullable:
		s += "rpc.Nullable[" + t.elem.describe(false) + "]"
	case refQual:
		s += t.qual.path + "." + t.qual.name
	}
	if nullable {
		s += " or null"
	}
	return s
}

// nullable returns rpc.Nullable[t].
func (t typeRef) nullable() typeRef {
	return typeRef{kind: refNullable, elem: &t}
}

// same reports whether two type expressions are the same Go type.
func (t typeRef) same(u typeRef) bool {
	if t.kind != u.kind || t.ptr != u.ptr || t.basic != u.basic || t.named != u.named || t.qual != u.qual {
		return false
	}
	if t.elem == nil || u.elem == nil {
		return t.elem == u.elem
	}
	return t.elem.same(*u.elem)
}

// paramStructure mirrors rpc.ParamStructure.
type paramStructure int

const (
	byName paramStructure = iota
	byPosition
	either
)

// direction says which side of a connection handles a method.
type direction int

const (
	toServer direction = iota // the client calls, the server handles (the default)
	toClient                  // the server calls, the client handles (MCP sampling, roots, …)
	bothWays                  // either side may call (MCP ping, progress, cancelled)
)

// directionNames are the spellings of the directions in an index and in
// methods.lock.json.
var directionNames = map[direction]string{toServer: "client-to-server", toClient: "server-to-client", bothWays: "both"}

// handledByServer reports whether the server side handles the method.
func (d direction) handledByServer() bool { return d != toClient }

// handledByClient reports whether the client side handles the method.
func (d direction) handledByClient() bool { return d != toServer }

// method is one entry of the method index.
type method struct {
	name         string // wire name
	stem         string // Go stem: notify_me → NotifyMe
	origin       loc
	notification bool
	direction    direction
	doc          string
	deprecated   bool
	structure    paramStructure
	paramNames   []string // positional order, for byPosition and either
	hasParams    bool
	params       typeRef
	paramsURL    string // absolute location the runtime compiles for params validation
	// paramsRequired makes a call without params invalid even when the
	// params schema accepts an empty object (MCP: "params" in the request
	// definition's required list).
	paramsRequired bool
	result         typeRef
	// resultURLs are the absolute locations of the result schemas: the
	// result first, then the alternatives, for validating responses.
	resultURLs []string
	resultFill bool // a non-null slice or map result: nil is returned as empty
	// altResults are the other results the schema allows (MCP
	// EmptyResult, CreateTaskResult, InputRequiredResult): listed in the
	// doc comments and methods.lock.json.
	altResults []typeRef
	// definition names the schema definition the method was derived from
	// (MCP), for doc comments and methods.lock.json.
	definition string
	errors     []*rpcError
	// paramNullable says, per positional param, whether its schema accepts
	// null, which a by-position client then sends for an absent param
	// followed by a present one; nil when none does.
	paramNullable []bool
	// extensions are the method's "x-" members, in index order, each
	// value as compact JSON text: passed through to <Service>MethodFacts.
	extensions []extension
}

// extension is one "x-" member of a method's index entry.
type extension struct {
	name, value string
}

// rpcError is a declared application error.
type rpcError struct {
	name    string // Go stem: CodeX, NewXError
	code    int64
	message string
	doc     string
	origin  loc
}
