# Hearth: `make run` starts the kiosk on the embedded defaults, `make test` runs every test.
DATASTAR_VERSION := v1.0.0
DATASTAR_DIR = $(shell go env GOMODCACHE)/github.com/starfederation/datastar@$(DATASTAR_VERSION)
export CGO_ENABLED := 1

.PHONY: run test generate assets bench fuzz lint build

# Runs the built binary rather than `go run` (go run exits 1 on Ctrl-C).
# HEARTH_OWN_TERMINAL: Hearth takes the terminal's foreground, so Ctrl-C
# reaches it alone and `make run` exits 0 with it (make would otherwise die
# of the SIGINT too). HEARTH_STOP_WITH_PARENT: a signal sent to make alone
# is not passed on, so Hearth watches make and stops with it.
run: build
	HEARTH_DEMO=$${HEARTH_DEMO:-1} HEARTH_OWN_TERMINAL=1 HEARTH_STOP_WITH_PARENT=1 exec ./bin/hearth

build: assets
	go build -o bin/hearth ./cmd/hearth

test: assets
	go test -race -count=1 ./...

generate:
	go tool templ generate

assets: static/datastar.js

# Copied from the module cache, never committed, never a CDN (install: cache files are 0444).
static/datastar.js:
	go mod download github.com/starfederation/datastar@$(DATASTAR_VERSION)
	install -m 0644 "$(DATASTAR_DIR)/bundles/datastar.js" $@
	install -m 0644 "$(DATASTAR_DIR)/bundles/datastar.js.map" static/datastar.js.map

# Benchmarks (figures and commands in BENCHMARKS.md): BENCH selects them,
# BENCHTIME and COUNT trade time for steadier numbers.
BENCH ?= .
BENCHTIME ?= 1s
COUNT ?= 1
bench: assets
	go test -run '^$$' -bench '$(BENCH)' -benchmem -benchtime $(BENCHTIME) -count $(COUNT) -timeout 30m ./...

# Every fuzz target (func FuzzXxx in a _test.go file) for FUZZTIME each.
# A count ("Nx") rather than a duration: with a duration, Go 1.26's fuzz
# coordinator can fail a clean run with a bare "context deadline exceeded"
# at the deadline (golang/go#75804, fixed in Go 1.27). FUZZTIME=30s still works.
FUZZTIME ?= 100000x
fuzz: assets
	@grep -rE --include='*_test.go' '^func Fuzz[A-Za-z0-9_]+\(' . | \
	sed -E 's|^(.*)/[^/]*:func (Fuzz[A-Za-z0-9_]+)\(.*|\1 \2|' | sort -u | \
	while read -r dir name; do \
		echo "fuzz $$dir $$name ($(FUZZTIME))"; \
		go test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) "$$dir" || exit 1; \
	done

lint:
	go vet ./...
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"
	go tool templ fmt -fail views
