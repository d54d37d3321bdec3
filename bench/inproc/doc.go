// Package inproc holds the in-process benchmarks of the bench module: one
// tools/call through each library's real stdio path (decode, validate,
// dispatch, encode), measured the same way for all of them, over an
// in-memory pipe. The package has no code of its own; see its tests.
//
//	cd bench && go test ./inproc -run '^$' -bench ToolsCall -benchtime 2000x
package inproc
