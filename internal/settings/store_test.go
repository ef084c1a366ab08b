package settings_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/internal/settings"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

const token = "llat-eyJhbGciOiJIUzI1NiJ9.sweep-known-token-3f9c"

func newStore(t *testing.T) (*settings.Store, *store.DB, string) {
	t.Helper()
	db := storetest.Open(t)
	dir := t.TempDir()
	return settings.New(db, dir), db, dir
}

func TestSecretRoundTrip(t *testing.T) {
	s, _, _ := newStore(t)
	ctx := context.Background()
	if st, err := s.SecretState(ctx, "homeassistant.token"); err != nil || st != settings.Unset {
		t.Fatalf("before: %v %v", st, err)
	}
	if err := s.SetSecret(ctx, "homeassistant.token", token); err != nil {
		t.Fatal(err)
	}
	got, err := s.Secret(ctx, "homeassistant.token")
	if err != nil || got != token {
		t.Fatalf("Secret = %q, %v", got, err)
	}
	if st, err := s.SecretState(ctx, "homeassistant.token"); err != nil || st != settings.Set {
		t.Fatalf("state = %v %v", st, err)
	}
	// A plain read of a secret's name gives nothing: Get is for plain values.
	if v, err := s.Get(ctx, "homeassistant.token"); err != nil || v != "" {
		t.Fatalf("Get of a secret = %q, %v", v, err)
	}
	if err := s.Clear(ctx, "homeassistant.token"); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.SecretState(ctx, "homeassistant.token"); st != settings.Unset {
		t.Fatalf("after Clear: %v", st)
	}
	if err := s.Set(ctx, "homeassistant.url", "http://ha.local:8123"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Get(ctx, "homeassistant.url"); v != "http://ha.local:8123" {
		t.Fatalf("Get url = %q", v)
	}
}

// The database file (and its WAL) holds ciphertext only, a fresh nonce per
// write, bound to the setting's name.
func TestSecretCiphertextOnly(t *testing.T) {
	s, db, _ := newStore(t)
	ctx := context.Background()
	if err := s.SetSecret(ctx, "homeassistant.token", token); err != nil {
		t.Fatal(err)
	}
	var first []byte
	_ = db.Read.QueryRow(`SELECT secret FROM settings WHERE name = 'homeassistant.token'`).Scan(&first)
	if err := s.SetSecret(ctx, "homeassistant.token", token); err != nil {
		t.Fatal(err)
	}
	var second []byte
	_ = db.Read.QueryRow(`SELECT secret FROM settings WHERE name = 'homeassistant.token'`).Scan(&second)
	if len(first) == 0 || bytes.Equal(first, second) {
		t.Fatalf("the same token written twice gave the same bytes (nonce reused?): %x", first)
	}
	for _, path := range []string{db.Path, db.Path + "-wal"} {
		raw, err := os.ReadFile(path)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte(token)) || bytes.Contains(raw, []byte("sweep-known-token")) {
			t.Fatalf("%s holds the token in plain text", filepath.Base(path))
		}
	}
	if err := db.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(db.Path)
	if bytes.Contains(raw, []byte(token)) {
		t.Fatal("the database file holds the token in plain text after a checkpoint")
	}
	// Moved to another name, the ciphertext does not decrypt.
	if _, err := db.Write.Exec(`INSERT INTO settings (name, secret, updated_at) VALUES ('plex.token', ?, '2026-01-01T00:00:00Z')`, second); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Secret(ctx, "plex.token"); !errors.Is(err, settings.ErrUnreadable) {
		t.Fatalf("a ciphertext under another name: %v, want ErrUnreadable", err)
	}
}

// Another secret.key (a restore on a new machine): the secret reads as set
// but unreadable, with the clear error, not a crash; entering it again works.
func TestSecretWrongKey(t *testing.T) {
	s, db, dir := newStore(t)
	ctx := context.Background()
	if err := s.SetSecret(ctx, "homeassistant.token", token); err != nil {
		t.Fatal(err)
	}
	keyPath := filepath.Join(dir, settings.KeyFileName)
	if err := os.Remove(keyPath); err != nil {
		t.Fatal(err)
	}
	other := settings.New(db, dir) // makes a new key on first use
	_, err := other.Secret(ctx, "homeassistant.token")
	if !errors.Is(err, settings.ErrUnreadable) || !strings.Contains(err.Error(), "enter it again") {
		t.Fatalf("wrong key: %v, want ErrUnreadable saying to enter it again", err)
	}
	if st, err := other.SecretState(ctx, "homeassistant.token"); err != nil || st != settings.Unreadable {
		t.Fatalf("state = %v, %v; want Unreadable", st, err)
	}
	if settings.Unreadable.String() != "set but unreadable: enter it again" {
		t.Fatalf("Unreadable says %q", settings.Unreadable)
	}
	if err := other.SetSecret(ctx, "homeassistant.token", token); err != nil {
		t.Fatal(err)
	}
	if got, err := other.Secret(ctx, "homeassistant.token"); err != nil || got != token {
		t.Fatalf("entered again: %q, %v", got, err)
	}
}

func TestKeyFileMode(t *testing.T) {
	s, _, dir := newStore(t)
	ctx := context.Background()
	keyPath := filepath.Join(dir, settings.KeyFileName)
	if _, err := os.Stat(keyPath); !os.IsNotExist(err) {
		t.Fatalf("secret.key exists before any secret: %v", err)
	}
	if err := s.SetSecret(ctx, "homeassistant.token", token); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 || st.Size() != 32 {
		t.Fatalf("secret.key: mode %04o size %d, want 0600 and 32 bytes", st.Mode().Perm(), st.Size())
	}
}

func TestKeyFileReadableByOthersIsRefused(t *testing.T) {
	s, db, dir := newStore(t)
	ctx := context.Background()
	if err := s.SetSecret(ctx, "homeassistant.token", token); err != nil {
		t.Fatal(err)
	}
	keyPath := filepath.Join(dir, settings.KeyFileName)
	if err := os.Chmod(keyPath, 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := settings.New(db, dir)
	_, err := fresh.Secret(ctx, "homeassistant.token")
	if !errors.Is(err, settings.ErrKeyFile) || !strings.Contains(err.Error(), "0644") || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("0644 key file: %v, want ErrKeyFile naming the mode and the fix", err)
	}
	if err := fresh.SetSecret(ctx, "other.token", "x"); !errors.Is(err, settings.ErrKeyFile) {
		t.Fatalf("writing with a 0644 key file: %v", err)
	}
	if _, err := fresh.SecretState(ctx, "homeassistant.token"); !errors.Is(err, settings.ErrKeyFile) {
		t.Fatalf("state with a 0644 key file: %v", err)
	}
	// Fixed, it is used again (a refusal is not remembered).
	if err := os.Chmod(keyPath, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := fresh.Secret(ctx, "homeassistant.token"); err != nil || got != token {
		t.Fatalf("after chmod 600: %q, %v", got, err)
	}
}

func TestResolvePrecedence(t *testing.T) {
	for _, c := range []struct {
		env, saved, def, want string
		from                  settings.Source
	}{
		{"http://env", "http://admin", "", "http://env", settings.FromEnvironment},
		{"", "http://admin", "", "http://admin", settings.FromAdmin},
		{"", "", "", "", settings.FromDefault},
		{"", "", "d", "d", settings.FromDefault},
	} {
		got, from := settings.Resolve(c.env, c.saved, c.def)
		if got != c.want || from != c.from {
			t.Errorf("Resolve(%q, %q, %q) = %q, %s; want %q, %s", c.env, c.saved, c.def, got, from, c.want, c.from)
		}
	}
}
