# Knightwatch: `make test` runs every check CI runs; `make bench` the benchmarks.
GO ?= go
FUZZTIME ?= 3s

.PHONY: test deps vet unit race fuzz e2e bench fmt-check

test: deps fmt-check vet unit race fuzz e2e

deps:
	bash scripts/deps.sh

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Unit tests for every package except the browser tests.
unit:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v /e2e)

# The packages where goroutines share state, under the race detector
# (-short: fewer games than unit runs).
race:
	$(GO) test -count=1 -race -short ./web/ ./store/ ./recon/...

# A short run of every fuzz target (seed corpus under testdata/fuzz is committed).
fuzz:
	FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

# Browser tests: installs Debian's chromium when missing.
e2e:
	bash scripts/e2e.sh

bench:
	bash bench/run-all.sh
