package session

import (
	"context"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"hearth/internal/store/storetest"
)

// A configured password that is a bcrypt hash is stored and checked as it
// is: the same hash at the next start keeps sessions, the plain password
// matches it, and the hash string is not itself a password.
func TestPasswordMayBeConfiguredAsAHash(t *testing.T) {
	ctx := context.Background()
	raw, err := bcrypt.GenerateFromPassword([]byte("hunter2"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	hash := string(raw)
	if !IsPasswordHash(hash) || IsPasswordHash("hunter2") || IsPasswordHash("$2b$"+hash[4:59]) || IsPasswordHash("$2b$99$"+hash[7:]) {
		t.Fatal("IsPasswordHash")
	}
	got, err := PasswordHash(hash)
	if err != nil || string(got) != hash {
		t.Fatalf("PasswordHash(hash) = %q, %v: want the hash as it is", got, err)
	}
	if plain, err := PasswordHash("hunter2"); err != nil || bcrypt.CompareHashAndPassword(plain, []byte("hunter2")) != nil {
		t.Fatalf("PasswordHash(plain): %v", err)
	}

	db := storetest.Open(t)
	s := New(db)
	if _, err := s.SyncPassword(ctx, hash); err != nil {
		t.Fatal(err)
	}
	var stored string
	if err := db.Read.QueryRow(`SELECT bcrypt FROM admin_password`).Scan(&stored); err != nil || stored != hash {
		t.Fatalf("stored %q (%v), want the configured hash", stored, err)
	}
	tok, _ := s.Create(ctx, "", time.Hour)
	if ended, err := New(db).SyncPassword(ctx, hash); err != nil || ended || !s.Valid(ctx, "", tok) {
		t.Fatalf("the same hash at the next start ended sessions (%v)", err)
	}
	if !samePassword(stored, "hunter2") || samePassword(stored, hash+"x") || bcrypt.CompareHashAndPassword([]byte(stored), []byte(hash)) == nil {
		t.Fatal("samePassword")
	}
}
