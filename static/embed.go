// Package static embeds the CSS, scripts and images served under /static.
// datastar.js is not committed: `make assets` copies it from the Go module
// cache (module github.com/starfederation/datastar@v1.0.0) before building.
package static

import "embed"

// FS holds the static files at its root.
//
//go:embed *.css *.js
var FS embed.FS
