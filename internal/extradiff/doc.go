// Package extradiff holds no code: its tests compare, for every generated
// MCP type that keeps unknown members in Extra, the one-pass UnmarshalJSON
// (rpc.DecodeMembers) with the two-pass decoding it replaced (DecodeJSON of
// the whole struct, then the unknown members decoded from a map), on the published example messages
// and on mutations of them.
package extradiff
