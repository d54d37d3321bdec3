// Package appenddiff holds no code: its tests compare, for every generated
// type with an AppendJSON method (the MCP bindings and the calc example),
// the bytes AppendJSON writes with the encoding it replaced (encoding/json
// on a copy of the value without methods, the required lists, maps and
// consts filled in, then the Extra members joined on), on the published
// example messages, mutations of them, hand-built values and fuzzed input.
package appenddiff
