# schemarpc — common tasks. `make help` lists them.

SHELL := /bin/bash

GO        ?= go
TEST_FLAGS ?= -race -timeout 15m
BENCH     ?= .
BENCHTIME ?= 1s
FUZZTIME  ?= 2m
FUZZTIME_SHORT ?= 3s

.PHONY: help generate example test test-short test-go127 lint check-generated bench fuzz fuzz-short conformance-deps conformance interop inspect-screenshots

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'

generate: ## regenerate every committed binding (go generate)
	$(GO) generate ./...

example: generate ## regenerate the bindings, then call the calc example over stdio
	@printf '%s\n' \
	  '{"jsonrpc":"2.0","method":"add","params":{"a":40,"b":2},"id":1}' \
	  '{"jsonrpc":"2.0","method":"add","params":[1,"two"],"id":2}' \
	  '{"jsonrpc":"2.0","method":"fail","id":3}' \
	  '{"jsonrpc":"2.0","method":"echo","params":{"big":123456789012345678901234567890},"id":"\u00e9"}' \
	  | $(GO) run ./examples/calc

test: conformance-deps lint check-generated ## install the pinned conformance and interop tools, then run every test with the race detector (the bench, examples/telemetry and mcpredis modules' too; mcpredis's start a redis-server on 127.0.0.1 and skip without one unless SCHEMARPC_REQUIRE_REDIS=1, and run the conformance suites against replicas), after lint and the generated-code check
	SCHEMARPC_REQUIRE_INTEROP=1 $(GO) test $(TEST_FLAGS) ./...
	cd bench && $(GO) test $(TEST_FLAGS) ./...
	cd examples/telemetry && $(GO) test $(TEST_FLAGS) ./...
	cd mcpredis && SCHEMARPC_REQUIRE_INTEROP=1 $(GO) test $(TEST_FLAGS) ./...
	$(MAKE) --no-print-directory fuzz-short

test-short: ## run every test without the checks around them
	$(GO) test -timeout 10m ./...

# GO127 is the Go 1.27 toolchain test-go127 runs; the go command fetches it
# through the module proxy the first time.
GO127 ?= go1.27.4

test-go127: ## go vet and the short tests of the root module on Go 1.27 (GO127=go1.27.4, fetched through the module proxy once), without the race detector; make test covers Go 1.26
	GOTOOLCHAIN=$(GO127) $(GO) version
	GOTOOLCHAIN=$(GO127) $(GO) vet ./...
	GOTOOLCHAIN=$(GO127) $(GO) test -short -timeout 15m ./...

lint: ## gofmt and go vet
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd bench && $(GO) vet ./...
	cd examples/telemetry && $(GO) vet ./...
	cd mcpredis && $(GO) vet ./...

check-generated: ## fail if regenerating changes any generated file
	@snap() { git ls-files -co --exclude-standard | grep -E '_gen\.go$$' | sort | xargs -r sha256sum; }; \
	  before=$$(snap); $(GO) generate ./... && after=$$(snap); \
	  if [ "$$before" != "$$after" ]; then \
	    echo "generated code was stale; regenerated:"; diff <(echo "$$before") <(echo "$$after") || true; \
	    echo "review and commit the regenerated files"; exit 1; fi

bench: ## in-process benchmarks (BENCH=regexp BENCHTIME=1s), then bench/'s in-process benchmarks of the three libraries and the full load run against them (LOAD_ARGS=-quick for a smoke run); see docs/performance.md
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) -benchmem ./...
	$(MAKE) -C bench all LOAD_ARGS='$(LOAD_ARGS)'

# run_fuzz runs every fuzz target (each func Fuzz* of a package's test
# files, one `go test -fuzz` per target) for the time given as its argument.
#
# Go up to 1.26 has a race in its fuzzing coordinator (go.dev/issue/75804):
# when a duration -fuzztime runs out, a target can fail with a bare "context
# deadline exceeded" although no input failed. A run that fails that way, and
# wrote no failing input, is run again (twice at most); any other failure, and
# every failure that wrote an input to testdata/fuzz, stops the pass at once.
define run_fuzz
	@log=$$(mktemp); trap 'rm -f "$$log"' EXIT; \
	for pkg in $$(grep -rl --include='*_test.go' '^func Fuzz' rpc mcp internal cmd gen | xargs -n1 dirname | sort -u); do \
	  for target in $$(grep -h '^func Fuzz' $$pkg/*_test.go | sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/'); do \
	    for try in 1 2 3; do \
	      echo "== ./$$pkg $$target ($(1))"; \
	      if $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(1) ./$$pkg 2>&1 | tee "$$log"; test $${PIPESTATUS[0]} -eq 0; then break; fi; \
	      if [ $$try -lt 3 ] && grep -q '^    context deadline exceeded$$' "$$log" && ! grep -q 'Failing input written' "$$log"; then \
	        echo "== $$target: Go's fuzz coordinator failed at the -fuzztime deadline with no failing input (go.dev/issue/75804); running it again"; continue; fi; \
	      exit 1; done; done; done
endef

fuzz: ## run each fuzz target of every package for FUZZTIME (default 2m); the default tests run only their seeds (testdata/fuzz/<Target>/ and f.Add)
	$(call run_fuzz,$(FUZZTIME))

fuzz-short: ## run each fuzz target for FUZZTIME_SHORT (default 3s), the short pass that ends `make test` (about a minute and a half in all)
	$(call run_fuzz,$(FUZZTIME_SHORT))

inspect-screenshots: ## rewrite docs/inspect/*.png from the rpcgen inspect browser tests (needs chromium)
	SCHEMARPC_REQUIRE_BROWSER=1 $(GO) test -count=1 -run 'TestPage' ./cmd/rpcgen/internal/inspect -update-screenshots

conformance-deps: ## install the pinned conformance suites (0.1.16 in conformance/, 0.2.0-alpha.12 in conformance/next/), TS SDK, TS everything-server and Node 22 (npm ci) and the Python SDK (conformance/.venv)
	cd conformance && npm ci --no-audit --no-fund
	cd conformance/next && npm ci --no-audit --no-fund
	python3 -m venv conformance/.venv
	conformance/.venv/bin/python -m pip install --disable-pip-version-check -q -r conformance/interop/requirements.txt

conformance: ## run the official MCP conformance suites against examples/everything over Streamable HTTP: 0.1.16 (--suite all), then both 0.2.0-alpha.12 legs (2025-11-25 and 2026-07-28) against one process
	./conformance/run-server.sh
	./conformance/run-server.sh -requirements 2025-11-25,2026-07-28

.PHONY: conformance-replicas
conformance-replicas: ## run both official conformance suites (0.1.16 --suite all, then the two 0.2.0 legs) against mcpredis/cmd/mcpcluster: 3 everything-redis replicas on a redis-server of their own behind a round-robin proxy (needs redis-server)
	cd mcpredis && SCHEMARPC_REQUIRE_INTEROP=1 SCHEMARPC_REQUIRE_REDIS=1 $(GO) test -count=1 -v -timeout 15m -run '^TestConformanceAgainstReplicas$$' .

interop: ## run the interop tests, stdio and HTTP: the official TypeScript and Python SDK clients against examples/everything, and our client against the official TypeScript server-everything and a Python SDK server
	SCHEMARPC_REQUIRE_INTEROP=1 $(GO) test -count=1 -v -run '^(TestInterop|TestClientInterop)' ./conformance/

SOAK ?= 5m
GOVULNCHECK ?= golang.org/x/vuln/cmd/govulncheck@v1.8.0
# VULNDB overrides govulncheck's vulnerability database (passed as -db), e.g.
# VULNDB=file:///srv/vulndb for a local mirror; GOVULNDB in the environment works too.
VULNDB ?= $(GOVULNDB)

.PHONY: soak vuln

soak: ## the long soak test (SOAK=5m by default, race detector off): mixed valid and invalid MCP traffic from many clients over HTTP and stdio; fails on an undeserved outcome or on memory or goroutines that keep growing
	SCHEMARPC_SOAK=$(SOAK) $(GO) test -count=1 -v -timeout 0 -run '^TestSoak$$' ./internal/soak/

vuln: ## govulncheck (pinned) over ./..., the bench module, examples/telemetry and mcpredis; exit 1 on any vulnerability found or any other failure, exit 0 with a notice when only the database could not be fetched (VULNDB=file:///path to use a local copy)
	@set -u; bin=$$(mktemp -d); trap 'rm -rf "$$bin"' EXIT; \
	  GOBIN=$$bin $(GO) install $(GOVULNCHECK) || { echo "vuln: cannot install $(GOVULNCHECK)"; exit 1; }; \
	  db=(); if [ -n "$(VULNDB)" ]; then db=(-db "$(VULNDB)"); fi; \
	  unfetched=0; \
	  for mod in . bench examples/telemetry mcpredis; do \
	    echo "== govulncheck $${db[*]} ./... in $$mod"; \
	    out=$$(cd $$mod && "$$bin/govulncheck" "$${db[@]}" ./... 2>&1); rc=$$?; \
	    printf '%s\n' "$$out"; \
	    case $$rc in \
	      0) ;; \
	      3) echo "vuln: vulnerabilities found in $$mod"; exit 1;; \
	      *) if [ -z "$(VULNDB)" ] && grep -q '^govulncheck: fetching vulnerabilities: ' <<<"$$out"; then unfetched=1; \
	         else echo "vuln: govulncheck failed in $$mod (exit $$rc)"; exit 1; fi;; \
	    esac; \
	  done; \
	  if [ $$unfetched = 1 ]; then \
	    echo "vuln: NOTICE: the vulnerability database could not be fetched (no network access to it here), so nothing was checked;"; \
	    echo "vuln: NOTICE: point VULNDB (or GOVULNDB) at a reachable copy, e.g. make vuln VULNDB=file:///path/to/vulndb, which is passed as -db"; \
	  fi
