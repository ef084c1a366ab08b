package session

import (
	"context"
	"testing"
	"time"

	"hearth/internal/store/storetest"
)

func TestSessionsEndOnLogoutExpiryAndPasswordChange(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	s := New(db)
	if ended, err := s.SyncPassword(ctx, "hunter2"); err != nil || !ended {
		t.Fatalf("first password: %v %v", ended, err)
	}
	a, err := s.Create(ctx, "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Create(ctx, "", time.Hour)
	if !s.Valid(ctx, "", a) || !s.Valid(ctx, "", b) || s.Valid(ctx, "", "forged") || s.Valid(ctx, "", "") {
		t.Fatal("validity")
	}
	var stored string
	if err := db.Read.QueryRow(`SELECT token_hash FROM admin_sessions LIMIT 1`).Scan(&stored); err != nil || stored == a || stored == b {
		t.Fatalf("the token itself is stored: %v", err)
	}
	if err := s.Revoke(ctx, "", a); err != nil || s.Valid(ctx, "", a) || !s.Valid(ctx, "", b) {
		t.Fatal("revoke ended the wrong session")
	}
	// The same password at the next start keeps sessions.
	if ended, _ := New(db).SyncPassword(ctx, "hunter2"); ended || !s.Valid(ctx, "", b) {
		t.Fatal("an unchanged password ended sessions")
	}
	// Another password ends them all.
	if ended, _ := New(db).SyncPassword(ctx, "correct horse"); !ended || s.Valid(ctx, "", b) {
		t.Fatal("a new password kept an old session")
	}
	// Expiry.
	c, _ := s.Create(ctx, "", time.Minute)
	s.now = func() time.Time { return time.Now().Add(2 * time.Minute) }
	if s.Valid(ctx, "", c) {
		t.Fatal("an expired session is valid")
	}
}

// A secret of one kind never passes for another (a login link or a trusted
// browser's mark is not a session cookie), and a single-use one is taken
// once, also when many requests race with it.
func TestKindsAreSeparateAndTakeIsOnce(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	s := New(db)
	link, err := s.Create(ctx, "link", 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if s.Valid(ctx, "", link) || s.Valid(ctx, "device", link) || !s.Valid(ctx, "link", link) {
		t.Fatal("a link passes for another kind, or not for its own")
	}
	const racers = 24
	wins := make(chan bool, racers)
	for range racers {
		go func() {
			ok, err := s.Take(ctx, "link", link)
			if err != nil {
				t.Error(err)
			}
			wins <- ok
		}()
	}
	n := 0
	for range racers {
		if <-wins {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d requests took one single-use link, want 1", n)
	}
	if s.Valid(ctx, "link", link) {
		t.Fatal("a taken link is still valid")
	}
	late, _ := s.Create(ctx, "link", time.Minute)
	s.now = func() time.Time { return time.Now().Add(2 * time.Minute) }
	if ok, _ := s.Take(ctx, "link", late); ok {
		t.Fatal("an expired link was taken")
	}
}
