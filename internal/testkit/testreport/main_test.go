package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goTestJSON runs `go test -json` on a small module whose tests pass, fail
// and skip, so the report is tested on the real format of this Go.
func goTestJSON(t *testing.T, failing bool) []byte {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a_test.go": `package a

import "testing"

func TestPasses(t *testing.T) { t.Run("sub", func(t *testing.T) {}) }
func TestNeedsChromium(t *testing.T) { t.Skip("chromium is not installed (apt-get install -y chromium)") }
func TestMaybeFails(t *testing.T) {
	if FAILING {
		t.Log("the figure was 81.2")
		t.Fatal("want 80.4")
	}
}
`,
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n",
	}
	files["a/a_test.go"] = strings.ReplaceAll(files["a/a_test.go"], "FAILING", map[bool]string{true: "true", false: "false"}[failing])
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-json", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, err := cmd.Output()
	if _, exit := err.(*exec.ExitError); err != nil && !(exit && failing) {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	return out
}

func TestReportCountsAndNamesSkips(t *testing.T) {
	var out bytes.Buffer
	if !run(bytes.NewReader(goTestJSON(t, false)), &out, false) {
		t.Fatalf("a passing run with a skip failed outside CI:\n%s", out.String())
	}
	text := out.String()
	for _, want := range []string{
		"example.com/m/a", // the package table
		"TestNeedsChromium: chromium is not installed (apt-get install -y chromium)",
		"1 skipped:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	// a: 3 run, 2 passed, 1 skipped (the subtest is part of its test).
	if !containsRow(text, "example.com/m/a", "3", "2", "0", "1") {
		t.Errorf("row for a:\n%s", text)
	}
	if strings.Contains(text, "=== RUN") {
		t.Errorf("the report echoes every test's run line:\n%s", text)
	}

	// In CI the same run fails, naming the skip.
	out.Reset()
	if run(bytes.NewReader(goTestJSON(t, false)), &out, true) {
		t.Fatalf("a run with a skip passed in CI:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "tests skipped in CI") {
		t.Errorf("CI report:\n%s", out.String())
	}
}

func TestReportShowsFailures(t *testing.T) {
	var out bytes.Buffer
	if run(bytes.NewReader(goTestJSON(t, true)), &out, false) {
		t.Fatalf("a failing run passed:\n%s", out.String())
	}
	text := out.String()
	if !strings.Contains(text, "want 80.4") || !strings.Contains(text, "the figure was 81.2") || !containsRow(text, "example.com/m/a", "3", "1", "1", "1") {
		t.Fatalf("the failure's output or counts are missing:\n%s", text)
	}
}

func containsRow(text string, fields ...string) bool {
	for _, line := range strings.Split(text, "\n") {
		if strings.Join(strings.Fields(line), " ") == strings.Join(fields, " ") {
			return true
		}
	}
	return false
}

// TestReportNamesATestThatDidNotFinish: a package whose binary times out
// (go test -timeout) while a test waits is a failure that names that test
// and shows its last lines, not "1 of 2 passed, 0 failed".
func TestReportNamesATestThatDidNotFinish(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"s/s_test.go": `package s

import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) {}
func TestWaitsForever(t *testing.T) {
	t.Log("waiting for the lamp")
	time.Sleep(time.Hour)
}
`,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-json", "-count=1", "-timeout=2s", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	raw, _ := cmd.Output() // fails: the timeout
	var out bytes.Buffer
	if run(bytes.NewReader(raw), &out, false) {
		t.Fatalf("a timed-out package passed:\n%s", out.String())
	}
	text := out.String()
	for _, want := range []string{"--- DID NOT FINISH: example.com/m/s TestWaitsForever", "waiting for the lamp"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}
