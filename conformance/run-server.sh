#!/usr/bin/env bash
# Runs the official MCP conformance suite (server mode, --suite all by default) against
# examples/everything over Streamable HTTP and prints one line per scenario. Exit status:
# 0 green, 1 failures, 2 usage or tools missing, 3 the server never answered.
# Flags are passed on: -suite active|all|pending, -requirements 2025-11-25,2026-07-28 (the 0.2.0
# legs against one process), -out DIR, -binary PATH, -strict=false.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/conformance-suite" ./conformance/cmd/conformance-suite
status=0
"$bin/conformance-suite" "$@" || status=$?
exit "$status"
