package testkit

import (
	"testing"
	"time"
)

// recordTB records how Need stopped a test (the real testing.T would end
// the goroutine, which a test of the rule itself cannot observe).
type recordTB struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (r *recordTB) Helper()                      {}
func (r *recordTB) Fatalf(f string, args ...any) { r.failed, r.msg = true, f }
func (r *recordTB) Skip(args ...any)             { r.skipped = true }

func TestNeedFailsInCIAndSkipsElsewhere(t *testing.T) {
	for _, tc := range []struct {
		ci                 string
		wantFail, wantSkip bool
	}{{"true", true, false}, {"1", true, false}, {"", false, true}, {"false", false, true}} {
		t.Setenv("CI", tc.ci)
		r := &recordTB{TB: t}
		Need(r, false, "chromium is not installed")
		if r.failed != tc.wantFail || r.skipped != tc.wantSkip {
			t.Errorf("CI=%q: failed %v skipped %v, want %v %v", tc.ci, r.failed, r.skipped, tc.wantFail, tc.wantSkip)
		}
		r = &recordTB{TB: t}
		Need(r, true, "present")
		if r.failed || r.skipped {
			t.Errorf("CI=%q: a present tool stopped the test", tc.ci)
		}
	}
	t.Setenv("CI", "true")
	r := &recordTB{TB: t}
	if NeedTool(r, "surely-not-a-command-hearth", "nothing"); !r.failed {
		t.Fatal("a missing command did not fail in CI")
	}
}

func TestWaitFor(t *testing.T) {
	n := 0
	WaitFor(t, time.Second, "three checks", func() bool { n++; return n == 3 })
	if n != 3 {
		t.Fatalf("checked %d times", n)
	}
	r := &recordTB{TB: t}
	WaitFor(r, 20*time.Millisecond, "never", func() bool { return false })
	if !r.failed {
		t.Fatal("a condition that never held did not fail the test")
	}
}
