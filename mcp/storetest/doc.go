// Package storetest checks that an implementation of the stores replicas
// of an MCP server share — mcp.SessionStore, mcp.Broker, mcp.EventStore
// and mcp.TaskStore — keeps every promise their doc comments make.
//
// An implementation runs the suites from its own tests, with a constructor
// that returns a fresh, empty store for each subtest:
//
//	func TestSessionStore(t *testing.T) {
//		storetest.SessionStore(t, func(t *testing.T) mcp.SessionStore {
//			return newStoreForTest(t)
//		})
//	}
//
// The suites use short expiries (150 ms) and wait for what is promised
// with bounded polling: they assert that state expires within 2 s, never
// how fast anything happens. Run them with -race: each suite includes
// concurrent use.
package storetest
