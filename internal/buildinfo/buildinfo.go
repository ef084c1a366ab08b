// Package buildinfo says which Hearth this is: the version, commit and build
// date that `make release` stamps into the binary with -ldflags -X, or, for a
// plain `go build`, "dev" and what the Go toolchain recorded (the VCS commit
// when it was built in a git checkout with VCS stamping on).
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Stamped by the Makefile:
//
//	-X hearth/internal/buildinfo.version=v1.2.0
//	-X hearth/internal/buildinfo.commit=<sha>
//	-X hearth/internal/buildinfo.date=2026-02-14T03:30:00Z
var version, commit, date string

// Info describes the running binary.
type Info struct {
	Version string // "dev" when not stamped
	Commit  string // "" when unknown; "-dirty" marks uncommitted changes
	Date    string // build date (RFC 3339, UTC); "" when unknown
	Go      string // toolchain, e.g. go1.26.8
	// Platform is GOOS/GOARCH, e.g. linux/arm64.
	Platform string
}

// Read returns the running binary's Info.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	return read(version, commit, date, bi)
}

func read(version, commit, date string, bi *debug.BuildInfo) Info {
	i := Info{Version: version, Commit: commit, Date: date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if i.Version == "" {
		i.Version = "dev"
	}
	if bi == nil {
		return i
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if i.Commit == "" {
		i.Commit = settings["vcs.revision"]
		if i.Commit != "" && settings["vcs.modified"] == "true" {
			i.Commit += "-dirty"
		}
	}
	if i.Date == "" {
		i.Date = settings["vcs.time"] // the commit's time: the best a plain build knows
	}
	return i
}

// Short is the version with a short commit, for page footers and logs:
// "v1.2.0" when stamped, "dev (3f2c1a9)" for a plain build.
func (i Info) Short() string {
	if i.Version != "dev" || i.Commit == "" {
		return i.Version
	}
	c, dirty := strings.CutSuffix(i.Commit, "-dirty")
	if len(c) > 7 {
		c = c[:7]
	}
	if dirty {
		c += "-dirty"
	}
	return fmt.Sprintf("%s (%s)", i.Version, c)
}
