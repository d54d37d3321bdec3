// Package fastschema checks JSON texts against compiled JSON Schemas
// straight from their bytes, without building the generic value tree the
// jsonschema library validates.
//
// # The contract
//
// The library (github.com/santhosh-tekuri/jsonschema/v6) stays the oracle:
// a schema's meaning is whatever its Validate says about the text decoded
// with numbers as json.Number. [CompileJSON] (or a [JSONCompiler]) compiles
// a schema into a [Validator] whose [Validator.Check] answers one of three
// verdicts:
//
//   - [Valid]: the oracle accepts the text;
//   - [Invalid]: the oracle rejects it;
//   - [Unknown]: the fast path cannot tell, the caller asks the oracle.
//
// Unknown is always a correct answer; Valid and Invalid must never
// disagree with the oracle. Malformed input (bad syntax, invalid UTF-8,
// unpaired surrogate escapes, duplicate member names, trailing data,
// nesting deeper than 10000) answers Unknown, and Check never panics or
// loops on any input.
//
// # The subset
//
// Supported everywhere: boolean schemas, $ref (recursive, also through
// cycles that descend into the value), type (integer accepts 1.0 and 1e2,
// as the oracle does), const and enum (strings decoded, numbers by exact
// value, arrays and objects through a slow decoding path), allOf, anyOf,
// oneOf, not, if/then/else, properties, required, additionalProperties,
// patternProperties, propertyNames, minProperties, maxProperties,
// dependentRequired, dependentSchemas, dependencies, prefixItems, items
// (both the 2020-12 and the draft-07 forms), additionalItems, minItems,
// maxItems, uniqueItems (slow path), contains with minContains and
// maxContains, minLength and maxLength (code points of the decoded
// string), pattern, minimum, maximum, exclusiveMinimum, exclusiveMaximum
// (compared exactly on the decimal digits), multipleOf, and format where
// the schema asserts it (drafts 07, 06 and 04): the formats the library
// knows are checked on the decoded value by package jsonformat, our own
// checks, tested against the library's; a format registered on the
// library under another name answers Unknown. Annotations are ignored.
//
// Answered Unknown when reached: $dynamicRef, $recursiveRef, vocabulary
// extensions, unevaluatedProperties (for objects), unevaluatedItems (for
// arrays), content assertions (for strings), more than 64
// patternProperties, and schemas that reach themselves without descending
// into the value (the oracle reports those cycles as errors). Numbers
// whose exponent or fraction is longer than 100000 digits answer Unknown
// wherever their value matters (integer type, bounds, multipleOf, const),
// because the oracle's big.Rat arithmetic refuses or struggles with them.
//
// # Compiling without the library
//
// [CompileJSON] compiles a schema known only at run time (a tool's input
// schema, a user's schema set) straight from its documents, without the
// library: it builds the very nodes the tests' compiler of the library's
// compiled schemas builds (compilelib_test.go; the tests compare the two
// programs byte for byte). It
// reads drafts 2020-12, 2019-09, 07, 06 and 04 ($schema, or the default
// draft given); resolves $id (id in draft 04), $anchor, "$id": "#name" in the
// older drafts, JSON pointers (with ~0, ~1 and percent-decoding) and $ref
// within the documents given, never fetching; and checks every keyword's
// value as the draft's metaschema does (types, non-negative counts,
// regexps compiled by Go's regexp, type names, unique enum items in the
// older drafts, URI references), so that a schema the library refuses is
// refused with a [SchemaError] naming the JSON pointer of the keyword at
// fault. It refuses more than the library, never less: $vocabulary
// choices, custom metaschemas that name no draft (a document of a custom
// metaschema that does is read in that draft and checked against it, as
// an OpenRPC document names OpenRPC's), references to the metaschemas,
// documents mixing drafts, and numbers too large for big.Rat. Formats the
// library asserts (drafts 07 and older) are checked by jsonformat, as in a
// program, which records a format by its name. The package does not link
// the library: only its tests do.
//
// # Explaining
//
// [Validator.Explain] decides a text on its own, without the library, and
// says why it fails: a list of [Failure] leaves, each with the instance
// path, the keyword's absolute location (the schema's location as the
// library renders it, then the keyword path), the keyword and a one-line
// message. Wrappers ($ref, allOf, properties, items, then, else ...) are
// not listed; a failing anyOf or oneOf is one Failure whose Alternatives
// hold each alternative's failures. It evaluates everything Check answers
// Unknown for: unevaluatedProperties and unevaluatedItems (with the
// library's annotation rules across in-place applicators), uniqueItems,
// many patternProperties, the asserted formats, and numbers exactly. It
// refuses, with an error wrapping [ErrUnsupported]: $dynamicRef,
// $recursiveRef, vocabulary extensions and content assertions, once type,
// const and enum have passed; and with [ErrNumberTooLarge] a
// number whose exponent or fraction is longer than 100000 digits where its
// value matters.
//
// The failures are the library's, located where it locates them: a "not"
// at the schema itself, a dependency at ".../dependency/<name>", a missing
// contains match through the elements' own failures, a schema met again
// on the same value (a cycle of in-place references) as a "$ref" failure
// at that schema. One difference: a
// member name failing propertyNames is reported at its object's path, its
// name at the head of the message. The tests flatten the library's error
// tree (as rpc does, without choosing a branch) and compare it with
// Explain's on every corpus Check is held to, and a fuzz target.
//
// A Validator decoded from a program explains with empty locations, names
// dependentRequired "dependencies", and refuses wherever its program
// answers Unknown, except for many patternProperties: a program does not
// carry what the other cases need.
//
// # Cost
//
// A Validator is compiled once and is safe for concurrent use; each
// compiled sub-schema is shared by every place that refers to it. Check
// allocates nothing for valid instances of the common shapes (objects with
// plain member names, plain strings, numbers, nested values, $ref chains):
// member names are looked up without copying, required members are tracked
// in a bit set, and scratch space comes from a pool. An anyOf or oneOf of
// objects told apart by a string constant member (MCP content blocks by
// "type") checks only the alternative the member names.
package fastschema
