// Package programs holds the four benchmark servers as serve.Programs, one
// subpackage per library (schemarpc, gosdk, mcpgo, limit), so that each
// server command links its own library and nothing else: a start-up or
// memory figure then counts one library's package init and heap, not all
// of them. Its tests serve each program exactly as its command does and
// check, with `go list -deps`, that no command links another library.
package programs
