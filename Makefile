# Hearth: `make run` starts the kiosk on the embedded defaults, `make test` runs every test.
DATASTAR_VERSION := v1.0.0
DATASTAR_DIR = $(shell go env GOMODCACHE)/github.com/starfederation/datastar@$(DATASTAR_VERSION)
export CGO_ENABLED := 1
# sqlite_fts5 compiles SQLite's full-text search into go-sqlite3 (chat
# recall needs it): every build, test, vet and release sets it. A build
# without it refuses to open the database and says so (store.ErrNoFTS5).
TAGS := sqlite_fts5
# axe-core (the accessibility checker the browser test injects, internal/app
# TestAxe…) is an npm package: fetched into .cache/ at test time, never
# committed. The test reads it from HEARTH_AXE_JS (exported here for every
# recipe; a bare `go test` finds the same path on its own).
AXE_VERSION := 4.14.1
AXE_DIR := .cache/axe-core
export HEARTH_AXE_JS := $(CURDIR)/$(AXE_DIR)/node_modules/axe-core/axe.min.js

.PHONY: run test stress-test generate assets axe bench bench-http lighthouse fuzz lint build release release-version

# Runs the built binary rather than `go run` (go run exits 1 on Ctrl-C).
# HEARTH_OWN_TERMINAL: Hearth takes the terminal's foreground, so Ctrl-C
# reaches it alone and `make run` exits 0 with it (make would otherwise die
# of the SIGINT too). HEARTH_STOP_WITH_PARENT: a signal sent to make alone
# is not passed on, so Hearth watches make and stops with it.
run: build
	HEARTH_DEMO=$${HEARTH_DEMO:-1} HEARTH_OWN_TERMINAL=1 HEARTH_STOP_WITH_PARENT=1 exec ./bin/hearth

build: assets
	go build -tags $(TAGS) -o bin/hearth ./cmd/hearth

# The report (internal/testkit/testreport) prints each package's result, the
# output of failed tests, and at the end the tests run, passed, failed and
# skipped per package with every skip named and why. In CI (CI=true) a test
# that needs a missing tool fails (testkit.Need), and any skip fails the run.
# -timeout: internal/app (the whole app, browser tests included) takes
# about 9 minutes under -race on 2 busy cores, close to go test's default
# 10-minute limit per package; a test that hangs still fails, named by the
# report ("DID NOT FINISH").
test: assets axe
	bash -o pipefail -c 'go test -tags $(TAGS) -race -count=1 -timeout 30m -json ./... | go run ./internal/testkit/testreport'

# The whole suite STRESS_RUNS times in a row under -race with two
# CPU-burning loops beside it: a test that waits on a sleep instead of an
# event fails here first (issue: a test gate that can fail).
STRESS_RUNS ?= 5
stress-test: assets axe
	bash -o pipefail -c 'for i in 1 2; do (while :; do :; done) & done; trap "kill \$$(jobs -p)" EXIT; \
	  for run in $$(seq $(STRESS_RUNS)); do echo "stress run $$run of $(STRESS_RUNS)"; \
	    go test -tags $(TAGS) -race -count=1 -timeout 30m -json ./... | go run ./internal/testkit/testreport || exit 1; done'

# Releases: stripped, statically linked binaries for linux/amd64 (a mini PC)
# and linux/arm64 (a Raspberry Pi 4/5, 64-bit OS) in dist/, with SHA256SUMS.
# Each is stamped with the version (git describe), commit and build date;
# `hearth version` prints them and the newest schema version it knows.
# cgo (SQLite) cross-compiles with Debian's cross compiler:
#   apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross    (arm64, from amd64)
#   apt-get install gcc-x86-64-linux-gnu libc6-dev-amd64-cross     (amd64, from arm64)
# and qemu-user-static runs the arm64 binary on amd64 (.ci/run's smoke test).
# Static: netgo and osusergo keep glibc's NSS out (it cannot be linked
# statically), sqlite_omit_load_extension its dlopen; so one file runs on
# any Linux of its architecture, whatever its glibc.
# Evaluated once (":="), so both binaries carry the same values.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)
BUILD_DATE ?= $(shell date -u $${SOURCE_DATE_EPOCH:+-d @$$SOURCE_DATE_EPOCH} +%Y-%m-%dT%H:%M:%SZ)
VERSION := $(VERSION)
COMMIT := $(COMMIT)
BUILD_DATE := $(BUILD_DATE)
GOHOSTARCH := $(shell go env GOHOSTARCH)
CC_amd64 ?= $(if $(filter amd64,$(GOHOSTARCH)),gcc,x86_64-linux-gnu-gcc)
CC_arm64 ?= $(if $(filter arm64,$(GOHOSTARCH)),gcc,aarch64-linux-gnu-gcc)
PKG_amd64 := gcc-x86-64-linux-gnu libc6-dev-amd64-cross
PKG_arm64 := gcc-aarch64-linux-gnu libc6-dev-arm64-cross
RELEASE_TAGS := netgo,osusergo,sqlite_omit_load_extension,$(TAGS)
RELEASE_LDFLAGS = -s -w -extldflags -static \
	-X hearth/internal/buildinfo.version=$(VERSION) \
	-X hearth/internal/buildinfo.commit=$(COMMIT) \
	-X hearth/internal/buildinfo.date=$(BUILD_DATE)

release: dist/hearth-linux-amd64 dist/hearth-linux-arm64
	cd dist && sha256sum hearth-linux-amd64 hearth-linux-arm64 > SHA256SUMS
	@for b in dist/hearth-linux-*; do echo "$$b: $$(du -h $$b | cut -f1)"; done

release-version:
	@echo $(VERSION)

dist/hearth-linux-%: assets FORCE
	@command -v $(CC_$*) >/dev/null || { echo "make release: $(CC_$*) is missing; on Debian: apt-get install $(PKG_$*)"; exit 1; }
	CGO_ENABLED=1 GOOS=linux GOARCH=$* CC=$(CC_$*) go build -trimpath -tags $(RELEASE_TAGS) -ldflags '$(RELEASE_LDFLAGS)' -o $@ ./cmd/hearth

FORCE:

generate:
	go tool templ generate

assets: static/datastar.js

# Copied from the module cache, never committed, never a CDN (install: cache files are 0444).
static/datastar.js:
	go mod download github.com/starfederation/datastar@$(DATASTAR_VERSION)
	install -m 0644 "$(DATASTAR_DIR)/bundles/datastar.js" $@
	install -m 0644 "$(DATASTAR_DIR)/bundles/datastar.js.map" static/datastar.js.map

# The pinned axe-core from the npm registry (needs npm): installed again
# when the copy in $(AXE_DIR) is another version.
axe:
	@grep -qs '"version": "$(AXE_VERSION)"' $(AXE_DIR)/node_modules/axe-core/package.json || \
	  npm install --no-save --no-audit --no-fund --no-package-lock --prefix $(AXE_DIR) axe-core@$(AXE_VERSION)

# Benchmarks (figures and commands in BENCHMARKS.md): BENCH selects them,
# BENCHTIME and COUNT trade time for steadier numbers.
BENCH ?= .
BENCHTIME ?= 1s
COUNT ?= 1
bench: assets
	go test -tags $(TAGS) -run '^$$' -bench '$(BENCH)' -benchmem -benchtime $(BENCHTIME) -count $(COUNT) -timeout 30m ./...

# The HTTP and streaming figures of BENCHMARKS.md, side by side in one run:
# wrk against Hearth and a bare net/http server serving the same bytes
# (unpinned, then pinned to one core as on a Pi), 1,000 and (pinned) 100
# live streams at 20 writes/s, and idle memory of the stripped binary.
# Needs wrk (Debian/Ubuntu: apt-get install wrk) and taskset (util-linux).
ROUNDS ?= 3
bench-http: assets
	@command -v wrk >/dev/null || { echo "bench-http needs wrk: sudo apt-get install wrk (Debian/Ubuntu), brew install wrk (macOS)"; exit 1; }
	@command -v taskset >/dev/null || { echo "bench-http needs taskset (util-linux)"; exit 1; }
	go build -o bin/hearth-load ./cmd/hearth-load
	go build -trimpath -ldflags '-s -w' -o bin/hearth-stripped ./cmd/hearth
	bin/hearth-load http -rounds $(ROUNDS)
	bin/hearth-load http -rounds $(ROUNDS) -pin
	bin/hearth-load -streams 1000 -rate 20 -duration 20s
	bin/hearth-load -streams 100 -rate 20 -duration 20s -pin
	bin/hearth-load -server bin/hearth-stripped -streams 0 -settle 30s

# Lighthouse (mobile preset: simulated 4x CPU slowdown and slow 4G) on the
# household page and a member's dashboard of the demo household, each
# LIGHTHOUSE_RUNS times, medians printed with the main-thread breakdown
# (BENCHMARKS.md, "Lighthouse"). Lighthouse comes from npm at use time into
# .cache/lighthouse (never committed; 12.x runs on Node 18+, 13 needs 22);
# Chromium is Debian's (apt-get install chromium, installed here when
# missing and run as root). Reports (and with LIGHTHOUSE_FLAGS=-trace the
# traces) go to artifacts/lighthouse/.
LIGHTHOUSE_VERSION ?= 12.8.2
LIGHTHOUSE_RUNS ?= 5
LIGHTHOUSE_FLAGS ?=
LIGHTHOUSE_DIR := .cache/lighthouse
LIGHTHOUSE_BIN := $(LIGHTHOUSE_DIR)/node_modules/.bin/lighthouse
lighthouse: build
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y chromium; } || \
	  { echo "make lighthouse needs Debian's chromium: sudo apt-get install chromium"; exit 1; }
	@command -v npm >/dev/null || { echo "make lighthouse needs node and npm (Debian: apt-get install nodejs npm)"; exit 1; }
	@[ "$$($(LIGHTHOUSE_BIN) --version 2>/dev/null)" = "$(LIGHTHOUSE_VERSION)" ] || \
	  npm install --prefix $(LIGHTHOUSE_DIR) --save-exact --no-audit --no-fund --loglevel=error lighthouse@$(LIGHTHOUSE_VERSION)
	go run ./cmd/hearth-lighthouse -server bin/hearth -lighthouse $(LIGHTHOUSE_BIN) -chrome "$$(command -v chromium)" \
	  -runs $(LIGHTHOUSE_RUNS) $(LIGHTHOUSE_FLAGS)

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
		go test -tags $(TAGS) -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) "$$dir" || exit 1; \
	done

lint:
	go vet -tags $(TAGS) ./...
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"
	go tool templ fmt -fail views
