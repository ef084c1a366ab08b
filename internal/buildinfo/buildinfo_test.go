package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestReadStampedWins(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "ffff"}, {Key: "vcs.time", Value: "2020-01-01T00:00:00Z"}}}
	i := read("v1.2.0", "0123456789abcdef", "2026-02-14T03:30:00Z", bi)
	if i.Version != "v1.2.0" || i.Commit != "0123456789abcdef" || i.Date != "2026-02-14T03:30:00Z" {
		t.Fatalf("stamped values lost: %+v", i)
	}
	if i.Short() != "v1.2.0" {
		t.Fatalf("Short = %q", i.Short())
	}
	if i.Platform == "" || i.Go == "" {
		t.Fatalf("platform or toolchain missing: %+v", i)
	}
}

// A plain `go build` is "dev", with the commit and time Go recorded.
func TestReadPlainBuild(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "3f2c1a9e5d"},
		{Key: "vcs.time", Value: "2026-02-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	i := read("", "", "", bi)
	if i.Version != "dev" || i.Commit != "3f2c1a9e5d-dirty" || i.Date != "2026-02-01T10:00:00Z" {
		t.Fatalf("plain build: %+v", i)
	}
	if got := i.Short(); got != "dev (3f2c1a9-dirty)" {
		t.Fatalf("Short = %q", got)
	}
	if i := read("", "", "", nil); i.Version != "dev" || i.Commit != "" || i.Short() != "dev" {
		t.Fatalf("no build info: %+v %q", i, i.Short())
	}
}
