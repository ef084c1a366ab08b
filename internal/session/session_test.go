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
	a, err := s.Create(ctx, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Create(ctx, time.Hour)
	if !s.Valid(ctx, a) || !s.Valid(ctx, b) || s.Valid(ctx, "forged") || s.Valid(ctx, "") {
		t.Fatal("validity")
	}
	var stored string
	if err := db.Read.QueryRow(`SELECT token_hash FROM admin_sessions LIMIT 1`).Scan(&stored); err != nil || stored == a || stored == b {
		t.Fatalf("the token itself is stored: %v", err)
	}
	if err := s.Revoke(ctx, a); err != nil || s.Valid(ctx, a) || !s.Valid(ctx, b) {
		t.Fatal("revoke ended the wrong session")
	}
	// The same password at the next start keeps sessions.
	if ended, _ := New(db).SyncPassword(ctx, "hunter2"); ended || !s.Valid(ctx, b) {
		t.Fatal("an unchanged password ended sessions")
	}
	// Another password ends them all.
	if ended, _ := New(db).SyncPassword(ctx, "correct horse"); !ended || s.Valid(ctx, b) {
		t.Fatal("a new password kept an old session")
	}
	// Expiry.
	c, _ := s.Create(ctx, time.Minute)
	s.now = func() time.Time { return time.Now().Add(2 * time.Minute) }
	if s.Valid(ctx, c) {
		t.Fatal("an expired session is valid")
	}
}
