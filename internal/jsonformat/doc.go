// Package jsonformat checks the values of the JSON Schema "format"
// keyword, for the drafts (07, 06 and 04) in which format asserts.
//
// The checks are written from the specifications each format names (RFC
// 3339 dates, times and durations, RFC 3986 and 3987 URIs, RFC 6570 URI
// templates, RFC 1123 host names, RFC 5321/5322 addresses, RFC 4291 IPv6,
// RFC 6901 JSON pointers and their relative form, RFC 4122 UUIDs, semver
// 2.0.0). The jsonschema library (github.com/santhosh-tekuri/jsonschema/v6)
// stays the oracle: where its verdict departs from a specification, ours
// follows the library, and a comment at the check says where. The tests
// compare every format with the library over tables of edge cases, mutated
// strings and a fuzz target; only the tests import it.
//
// Where the library's verdict is the Go standard library's own parser (URIs
// through net/url, IPv6 addresses through net/netip, "regex" through
// regexp), the checks call that parser too, so that both agree on every Go
// release rather than on the one a copy of its rules was written against.
package jsonformat
