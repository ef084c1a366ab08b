# Hearth: `make run` starts the kiosk on the embedded defaults, `make test` runs every test.
DATASTAR_VERSION := v1.0.0
DATASTAR_DIR = $(shell go env GOMODCACHE)/github.com/starfederation/datastar@$(DATASTAR_VERSION)
export CGO_ENABLED := 1

.PHONY: run test generate assets bench fuzz lint build

run: assets
	HEARTH_DEMO=$${HEARTH_DEMO:-1} go run ./cmd/hearth

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

bench: assets
	go test -run '^$$' -bench . -benchmem -count=1 ./...

lint:
	go vet ./...
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"
	go tool templ fmt -fail views
