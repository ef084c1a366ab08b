// Command testreport reads `go test -json` on stdin and prints what a
// person needs from a full run: each package's result as `go test` prints
// it, the output of every failed test, and at the end the tests run,
// passed, failed and skipped per package, with every skipped test named
// and its reason. In CI (see testkit.InCI) a skipped test fails the run:
// the gate must not go green with tests that did not run.
//
//	go test -json ./... | go run ./internal/testkit/testreport
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"hearth/internal/testkit"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

type counts struct{ run, pass, fail, skip int }

type skipped struct{ pkg, test, reason string }

type report struct {
	out      io.Writer
	pkgs     map[string]*counts
	order    []string
	outputs  map[string][]string // by package + test, until the test ends
	skips    []skipped
	failed   bool
	build    map[string][]string // build output by import path
	failPkgs []string
}

func newReport(out io.Writer) *report {
	return &report{out: out, pkgs: map[string]*counts{}, outputs: map[string][]string{}, build: map[string][]string{}}
}

func (r *report) pkg(name string) *counts {
	c := r.pkgs[name]
	if c == nil {
		c = &counts{}
		r.pkgs[name] = c
		r.order = append(r.order, name)
	}
	return c
}

// add takes one event. Only top-level tests are counted (subtests are part
// of their test); their output is kept until the test ends.
func (r *report) add(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "build-output":
		r.build[e.Package] = append(r.build[e.Package], e.Output)
		return
	case "build-fail":
		r.failed = true
		fmt.Fprint(r.out, strings.Join(r.build[e.Package], ""))
		return
	}
	if e.Test == "" { // the package's own lines: "ok …", "FAIL …", panics outside tests
		switch e.Action {
		case "output":
			if !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "PASS\n") {
				fmt.Fprint(r.out, e.Output)
			}
		case "fail":
			r.failed = true
			r.failPkgs = append(r.failPkgs, e.Package)
			r.unfinished(e.Package)
		case "start":
			r.pkg(e.Package)
		}
		return
	}
	top := !strings.Contains(e.Test, "/")
	c := r.pkg(e.Package)
	switch e.Action {
	case "output":
		r.outputs[key] = append(r.outputs[key], e.Output)
		if !top { // a subtest's lines belong to its test's story too
			parent := e.Package + " " + e.Test[:strings.Index(e.Test, "/")]
			r.outputs[parent] = append(r.outputs[parent], e.Output)
		}
		return
	case "run":
		if top {
			c.run++
		}
		return
	case "pass":
		if top {
			c.pass++
		}
	case "fail":
		r.failed = true
		if top {
			c.fail++
			fmt.Fprint(r.out, strings.Join(r.outputs[key], ""))
		}
	case "skip":
		if top {
			c.skip++
			r.skips = append(r.skips, skipped{e.Package, e.Test, skipReason(r.outputs[key])})
		}
	}
	delete(r.outputs, key)
}

// unfinished names the tests of a failed package that never ended (the
// package's binary timed out or crashed while they ran) and prints their
// last lines: otherwise a timeout reads as "71 of 72 passed, 0 failed".
func (r *report) unfinished(pkg string) {
	var names []string
	for key := range r.outputs {
		test, ok := strings.CutPrefix(key, pkg+" ")
		if ok && !strings.Contains(test, "/") {
			names = append(names, test)
		}
	}
	sort.Strings(names)
	for _, test := range names {
		lines := r.outputs[pkg+" "+test]
		if len(lines) > maxUnfinishedLines {
			lines = lines[len(lines)-maxUnfinishedLines:]
		}
		fmt.Fprintf(r.out, "--- DID NOT FINISH: %s %s (the package's test binary ended while it ran; its last lines:)\n%s",
			strings.TrimPrefix(pkg, "hearth/"), test, strings.Join(lines, ""))
		delete(r.outputs, pkg+" "+test)
	}
}

// maxUnfinishedLines caps the lines shown of a test that did not finish.
const maxUnfinishedLines = 60

// skipReason is the message t.Skip printed: the line before "--- SKIP".
func skipReason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		if _, after, ok := strings.Cut(l, ": "); ok && strings.Contains(strings.SplitN(l, " ", 2)[0], "_test.go:") {
			return after
		}
		return l
	}
	return "(no reason given)"
}

// summary prints the table and the skipped tests; it reports whether the
// run passes (no failure, and in CI no skip).
func (r *report) summary(ci bool) bool {
	sort.Strings(r.order)
	var total counts
	fmt.Fprintf(r.out, "\n%-52s %6s %6s %6s %6s\n", "package", "run", "passed", "failed", "skipped")
	for _, name := range r.order {
		c := r.pkgs[name]
		total.run += c.run
		total.pass += c.pass
		total.fail += c.fail
		total.skip += c.skip
		if c.run == 0 {
			continue
		}
		fmt.Fprintf(r.out, "%-52s %6d %6d %6d %6d\n", strings.TrimPrefix(name, "hearth/"), c.run, c.pass, c.fail, c.skip)
	}
	fmt.Fprintf(r.out, "%-52s %6d %6d %6d %6d\n", "total", total.run, total.pass, total.fail, total.skip)
	if len(r.skips) > 0 {
		fmt.Fprintf(r.out, "\n%d skipped:\n", len(r.skips))
		for _, s := range r.skips {
			fmt.Fprintf(r.out, "  %s %s: %s\n", strings.TrimPrefix(s.pkg, "hearth/"), s.test, s.reason)
		}
	}
	ok := !r.failed
	if ci && len(r.skips) > 0 {
		fmt.Fprintf(r.out, "\nFAIL: %d tests skipped in CI; every test must run there (install what they need in .ci/run)\n", len(r.skips))
		ok = false
	}
	if len(r.failPkgs) > 0 {
		fmt.Fprintf(r.out, "\nFAIL: %s\n", strings.Join(r.failPkgs, ", "))
	}
	return ok
}

func run(in io.Reader, out io.Writer, ci bool) bool {
	r := newReport(out)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(out, sc.Text()) // not an event: go test's own message
			continue
		}
		r.add(e)
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(out, "testreport:", err)
		return false
	}
	return r.summary(ci)
}

func main() {
	if !run(os.Stdin, os.Stdout, testkit.InCI()) {
		os.Exit(1)
	}
}
