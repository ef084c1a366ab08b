package devices_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/devices"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newService(t *testing.T) (*devices.Service, *store.DB, *clock) {
	t.Helper()
	db := storetest.Open(t)
	clk := &clock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	s := devices.New(db)
	s.SetClock(clk.Now)
	return s, db, clk
}

func TestRequiredIsOffUntilTurnedOn(t *testing.T) {
	s, _, _ := newService(t)
	ctx := context.Background()
	if on, err := s.Required(ctx); err != nil || on {
		t.Fatalf("Required on a new database = %v, %v; want off", on, err)
	}
	for _, want := range []bool{true, false, true} {
		if err := s.SetRequired(ctx, want); err != nil {
			t.Fatal(err)
		}
		if on, err := s.Required(ctx); err != nil || on != want {
			t.Fatalf("Required = %v, %v; want %v", on, err, want)
		}
	}
}

// A link is good once, for CodeTTL; its token works until revoked.
func TestEnrolOnceBeforeExpiry(t *testing.T) {
	s, _, clk := newService(t)
	ctx := context.Background()
	d, code, err := s.StartEnrolment(ctx, "  Kitchen tablet ")
	if err != nil || d.Name != "Kitchen tablet" || !d.Pending || len(code) < 22 {
		t.Fatalf("StartEnrolment = %+v, %q, %v", d, code, err)
	}
	if got, err := s.Enrolment(ctx, code); err != nil || got.ID != d.ID {
		t.Fatalf("Enrolment = %+v, %v", got, err)
	}
	clk.Advance(devices.CodeTTL - time.Second)
	got, token, err := s.Enrol(ctx, code)
	if err != nil || got.ID != d.ID || got.Pending || token == "" {
		t.Fatalf("Enrol = %+v, %q, %v", got, token, err)
	}
	if _, _, err := s.Enrol(ctx, code); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("second Enrol = %v, want refused", err)
	}
	if _, err := s.Enrolment(ctx, code); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("Enrolment of a used link = %v, want refused", err)
	}
	if c, err := s.Check(ctx, token); err != nil || c.ID != d.ID {
		t.Fatalf("Check = %+v, %v", c, err)
	}
	if _, err := s.Revoke(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(ctx, token); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("Check after revoke = %v, want refused", err)
	}
	if _, err := s.Revoke(ctx, d.ID); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("second Revoke = %v", err)
	}
}

func TestExpiredLinkIsRefusedAndDropped(t *testing.T) {
	s, _, clk := newService(t)
	ctx := context.Background()
	_, code, err := s.StartEnrolment(ctx, "Hall")
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(devices.CodeTTL)
	if _, err := s.Enrolment(ctx, code); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("Enrolment of an expired link = %v", err)
	}
	if _, _, err := s.Enrol(ctx, code); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("Enrol with an expired link = %v", err)
	}
	if l, err := s.List(ctx); err != nil || len(l) != 0 {
		t.Fatalf("List = %+v, %v; want the expired link dropped", l, err)
	}
}

// Two tablets opening one link at once: one token, one refusal.
func TestEnrolRaceGivesOneToken(t *testing.T) {
	s, _, _ := newService(t)
	ctx := context.Background()
	_, code, err := s.StartEnrolment(ctx, "Hall")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { _, _, errs[i] = s.Enrol(ctx, code) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !apperr.Is(err, apperr.NotFound):
			t.Errorf("Enrol: %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d enrolments from one link, want 1", ok)
	}
}

// Last seen is written at most once every SeenEvery per token.
func TestLastSeenIsThrottled(t *testing.T) {
	s, _, clk := newService(t)
	ctx := context.Background()
	_, token, err := s.CreateScript(ctx, "backup script")
	if err != nil {
		t.Fatal(err)
	}
	seen := func() time.Time {
		l, err := s.List(ctx)
		if err != nil || len(l) != 1 {
			t.Fatalf("List = %+v, %v", l, err)
		}
		return l[0].LastSeen
	}
	c, err := s.Check(ctx, token)
	if err != nil || !c.Touched || !seen().Equal(clk.Now()) {
		t.Fatalf("first Check = %+v, %v; last seen %v", c, err, seen())
	}
	first := clk.Now()
	for range 3 {
		clk.Advance(time.Minute)
		if c, err := s.Check(ctx, token); err != nil || c.Touched {
			t.Fatalf("Check within %v = %+v, %v; want no write", devices.SeenEvery, c, err)
		}
	}
	if !seen().Equal(first) {
		t.Fatalf("last seen moved to %v within %v", seen(), devices.SeenEvery)
	}
	clk.Advance(2 * time.Minute)
	if c, err := s.Check(ctx, token); err != nil || !c.Touched || !seen().Equal(clk.Now()) {
		t.Fatalf("Check after %v = %+v, %v; last seen %v", devices.SeenEvery, c, err, seen())
	}
}

func TestNamesAndBadSecretsAreRefused(t *testing.T) {
	s, _, _ := newService(t)
	ctx := context.Background()
	for _, name := range []string{"", "   ", "a\rb", strings.Repeat("x", devices.MaxName+1)} {
		if _, _, err := s.StartEnrolment(ctx, name); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("StartEnrolment(%q) = %v, want invalid", name, err)
		}
		if _, _, err := s.CreateScript(ctx, name); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("CreateScript(%q) = %v, want invalid", name, err)
		}
	}
	for _, tok := range []string{"", "x", strings.Repeat("A", 43) + "=", strings.Repeat("!", 43)} {
		if _, err := s.Check(ctx, tok); !apperr.Is(err, apperr.Unauthorized) {
			t.Errorf("Check(%q) = %v", tok, err)
		}
		if _, _, err := s.Enrol(ctx, tok); !apperr.Is(err, apperr.NotFound) {
			t.Errorf("Enrol(%q) = %v", tok, err)
		}
	}
}

// Only hashes are stored: neither a code nor a token is in the file.
func TestSecretsAreNotStored(t *testing.T) {
	s, db, _ := newService(t)
	ctx := context.Background()
	_, code, err := s.StartEnrolment(ctx, "Hall")
	if err != nil {
		t.Fatal(err)
	}
	_, pending, err := s.StartEnrolment(ctx, "Landing")
	if err != nil {
		t.Fatal(err)
	}
	_, screen, err := s.Enrol(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	_, script, err := s.CreateScript(ctx, "script")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	var file []byte
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(db.Path + suffix)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		file = append(file, b...)
	}
	if !bytes.Contains(file, []byte(devices.Hash(screen))) {
		t.Fatal("the token's hash is not in the database file: is the check reading the right file?")
	}
	for what, secret := range map[string]string{"used code": code, "waiting code": pending, "screen token": screen, "script token": script} {
		if bytes.Contains(file, []byte(secret)) {
			t.Errorf("the %s is in the database file", what)
		}
	}
}
