package adminauth

import (
	"fmt"
	"testing"
	"time"
)

func TestLoginGuardBackoff(t *testing.T) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	g := newLoginGuard(func() time.Time { return now })
	for i := 1; i < loginFreeFailures; i++ {
		if w := g.failed("a"); w != 0 {
			t.Fatalf("failure %d: penalty %v", i, w)
		}
	}
	if w := g.failed("a"); w != 30*time.Second {
		t.Fatalf("5th failure: %v, want 30s", w)
	}
	if w, _ := g.blocked("a"); w != 30*time.Second {
		t.Fatalf("blocked %v", w)
	}
	if w, _ := g.blocked("b"); w != 0 {
		t.Fatalf("another client is blocked: %v", w)
	}
	// The penalty doubles with each further failure, up to 15 minutes.
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 15 * time.Minute, 15 * time.Minute}
	for _, wnt := range want {
		now = now.Add(time.Hour)
		if w := g.failed("a"); w != wnt {
			t.Fatalf("penalty %v, want %v", w, wnt)
		}
	}
	g.succeeded("a")
	if w, _ := g.blocked("a"); w != 0 {
		t.Fatalf("after a success: %v", w)
	}
}

func TestLoginGuardGlobalCeiling(t *testing.T) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	g := newLoginGuard(func() time.Time { return now })
	for i := range loginGlobalPerMinute {
		g.failed(fmt.Sprintf("10.0.0.%d", i))
		now = now.Add(500 * time.Millisecond)
	}
	w, global := g.blocked("192.0.2.1")
	if w <= 0 || !global {
		t.Fatalf("a fresh client after %d failures a minute: %v %v", loginGlobalPerMinute, w, global)
	}
	now = now.Add(w)
	if w, _ := g.blocked("192.0.2.1"); w != 0 {
		t.Fatalf("still blocked after the window: %v", w)
	}
}
