// Package extradiff holds no code: its tests compare, for every generated
// MCP type that keeps unknown members in Extra, the generated UnmarshalJSON
// (rpc.DecodeMembersChecked, with the simple members decoded directly by the
// rpc.Decode* helpers) with the decoding it replaced. One comparison is
// one level deep: the whole struct decoded by DecodeJSON's reflection,
// then the unknown members from a map, on the published example messages
// and on mutations of them, with the same error texts. The other goes all
// the way down (reference_test.go): every such type met inside is decoded
// the old way too, and the values must be equal or both decodes fail; a
// fuzz target runs both on the richest types. On text the strict scanner
// accepts, the generated UnmarshalCheckedJSON, which does not check its
// input again, must give UnmarshalJSON's value or error exactly.
package extradiff
