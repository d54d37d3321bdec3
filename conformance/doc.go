// Package conformance holds the tests that drive examples/everything with tools this
// project did not write: the official MCP conformance suite (server mode, Streamable
// HTTP) and the official TypeScript and Python SDK clients (stdio and Streamable HTTP).
//
// The tools are pinned in package.json, package-lock.json and interop/requirements.txt
// and installed by `make conformance-deps`. Without them the tests skip, unless
// SCHEMARPC_REQUIRE_INTEROP=1 is set (CI sets it), in which case they fail.
// docs/conformance.md explains how to run everything and what green means.
package conformance
