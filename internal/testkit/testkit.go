// Package testkit holds what tests across the project share: the rule for
// a test that needs a tool or a feature of the machine (skip on a
// developer's machine, fail in CI), and waiting on a condition.
package testkit

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// InCI reports whether the tests run in CI (CI=true or 1, as CI services
// set it; .ci/run does too). There a missing tool is a failure: a gate that
// goes green with the browser tests skipped has not tested the browser.
func InCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v == "true" || v == "1" || v == "yes"
}

// Need stops t when ok is false: a skip on a developer's machine, a
// failure in CI. why says what is missing and how to get it.
func Need(t testing.TB, ok bool, why string) {
	t.Helper()
	if ok {
		return
	}
	if InCI() {
		t.Fatalf("%s (required in CI: .ci/run installs it)", why)
		return
	}
	t.Skip(why)
}

// NeedTool returns the path of the command name, or stops t as Need does;
// pkg is the Debian package that provides it.
func NeedTool(t testing.TB, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	Need(t, err == nil, name+" is not installed (apt-get install -y "+pkg+")")
	return path
}

// Patience bounds a wait for something that should happen soon: a test
// that passes never waits it out, so it is generous. Under -race with two
// CPU-burning loops (make stress-test) a run queued behind the app's own
// startup runs took over 20 s to reach its next step.
const Patience = 60 * time.Second

// WaitFor checks cond until it holds, and fails t when d has passed first,
// naming what it waited for. It is for a condition the test cannot be told
// about (a row another process writes, a server's state); where an event
// or a channel says it, wait on that instead.
func WaitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
