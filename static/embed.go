// Package static embeds the CSS, scripts and images (coach avatar, favicon,
// catalog thumbnails under thumbs/) served under /static.
// datastar.js is not committed: `make assets` copies it from the Go module
// cache (module github.com/starfederation/datastar@v1.0.0) before building.
package static

import "embed"

// FS holds the static files at its root.
//
//go:embed *.css *.js *.svg thumbs/*.svg
var FS embed.FS
