// Package doctest holds the tests that keep the documentation true: every
// Go snippet of README.md, docs/*.md and the package overviews of mcp and
// rpc is compiled in a fresh module that uses schemarpc the way
// docs/getting-started.md tells a user to (go get -tool, go tool rpcgen),
// and getting-started itself is followed step by step, its commands run
// and their output compared, on each Go release the project supports.
//
// A snippet that is not a complete Go file says how to take it in an HTML
// comment on the line before its fence:
//
//	<!-- snippet: body PARAMS -->   statements, compiled as the body of func _(PARAMS)
//	<!-- snippet: decls -->         top-level declarations
//	<!-- snippet: skip REASON -->   not compiled, for the reason given
//	<!-- snippet: file PATH -->     a file of the getting-started module, written to PATH
//	<!-- snippet: run -->           shell commands run in that module; after "$ " a
//	<!-- snippet: run unordered --> command, then the lines it must print (in any order)
//
// Fragments are given the imports they name (package names of the standard
// library, of this module and of the getting-started module); a variable
// they declare and leave unused is not an error. Nothing is published yet,
// so the module replaces github.com/schemarpc/schemarpc with this
// repository; the module cache serves as the module proxy, so nothing goes
// online (a Go toolchain other than the running one is fetched once through
// the GOPROXY of the environment, or its test is skipped).
package doctest
