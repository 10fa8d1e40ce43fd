# Knightwatch: `make test` runs every check CI runs; `make bench` the benchmarks.
GO ?= go
FUZZTIME ?= 3s

.PHONY: test deps vet tidy staticcheck unit race fuzz e2e bench fmt-check

test: deps fmt-check tidy vet staticcheck unit race fuzz e2e

deps:
	bash scripts/deps.sh

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# go.mod and go.sum must be what `go mod tidy` makes of them.
tidy:
	$(GO) mod tidy -diff

# staticcheck at a pinned version (the script installs it when missing).
staticcheck:
	GO=$(GO) bash scripts/staticcheck.sh

# Unit tests for every package except the browser tests.
unit:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v /e2e)

# The packages where goroutines share state, under the race detector
# (-short: fewer games than unit runs), and the engine's tests that search
# with several threads or stop and ponder (the rest of the engine is
# single-threaded and slow under -race), and the Gaviota tables' shared
# block cache.
ENGINE_RACE_TESTS = ^(TestLazySMPFindsSameTactics|TestSearchCancellation|TestSearchMovesRestricts|TestMultiPV|TestMultiPVCancelled|TestUCITranscripts|TestUCIStopAndPonder|TestUCIIsReadyDuringSearch|TestInfiniteWaitsForStop|TestPonderWaitsForPonderHitOrStop|TestPonderHitAppliesTimeLimit)$$
race:
	$(GO) test -count=1 -race -short ./web/ ./live/ ./play/ ./rbcapi/ ./enginepool/ ./analysisboard/ ./review/ ./experience/ ./training/ ./store/ ./recon/... ./chenserver/ ./match/ ./changefeed/ ./enginejobs/
	$(GO) test -count=1 -race -short -run '$(ENGINE_RACE_TESTS)' ./engine/
	$(GO) test -count=1 -race -short -run '^(TestConcurrentProbes|TestCacheBounded)$$' ./gaviota/

# A short run of every fuzz target (seed corpus under testdata/fuzz is committed).
fuzz:
	FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

# Browser tests: installs Debian's chromium when missing.
e2e:
	bash scripts/e2e.sh

bench:
	bash bench/run-all.sh
