package main

import (
	"fmt"
	"io"

	"hearth/internal/buildinfo"
	"hearth/internal/store"
)

// runVersion is `hearth version`: what `make release` stamped, and the
// newest schema version this binary's migrations reach (a database with a
// newer one is refused; see README "Install", upgrades).
func runVersion(args []string, _ func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: hearth version")
		return 2
	}
	i := buildinfo.Read()
	or := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	fmt.Fprintf(stdout, "hearth %s\ncommit   %s\nbuilt    %s\nschema   %d\ngo       %s %s\n",
		i.Version, or(i.Commit), or(i.Date), store.LatestVersion(), i.Go, i.Platform)
	return 0
}
