// Package session keeps admin sessions in SQLite so they can be ended: a
// logout deletes one, and a start with a different admin password deletes
// them all. The cookie carries a random token; only its SHA-256 is stored.
//
// The same table keeps the admin's other bearer secrets, each of its own
// kind so one never passes for another: a trusted browser's device mark and
// a one-time login link. A kind is hashed in with the token; the empty kind
// is a session (and hashes as sessions always have).
package session

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"hearth/internal/store"
)

// Store keeps sessions in the database.
type Store struct {
	db  *store.DB
	now func() time.Time
}

// New returns a Store over db.
func New(db *store.DB) *Store { return &Store{db: db, now: time.Now} }

func hash(kind, token string) string {
	if kind != "" {
		token = kind + "\x00" + token
	}
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// Create starts a secret of kind ("" for a session) valid for ttl and
// returns its token.
func (s *Store) Create(ctx context.Context, kind string, ttl time.Duration) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("session: token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	now := s.now()
	_, err := s.db.Write.ExecContext(ctx, `INSERT INTO admin_sessions (token_hash, created_at, expires_at) VALUES (?,?,?)`,
		hash(kind, token), store.FormatTime(now), store.FormatTime(now.Add(ttl)))
	if err != nil {
		return "", fmt.Errorf("session: create: %w", err)
	}
	// Expired sessions go when new ones come: there are only ever a few.
	_, _ = s.db.Write.ExecContext(ctx, `DELETE FROM admin_sessions WHERE expires_at < ?`, store.FormatTime(now))
	return token, nil
}

// Valid reports whether token is a live secret of kind.
func (s *Store) Valid(ctx context.Context, kind, token string) bool {
	if token == "" {
		return false
	}
	var one int
	err := s.db.Read.QueryRowContext(ctx, `SELECT 1 FROM admin_sessions WHERE token_hash = ? AND expires_at > ?`,
		hash(kind, token), store.FormatTime(s.now())).Scan(&one)
	return err == nil
}

// Revoke ends one secret.
func (s *Store) Revoke(ctx context.Context, kind, token string) error {
	if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM admin_sessions WHERE token_hash = ?`, hash(kind, token)); err != nil {
		return fmt.Errorf("session: revoke: %w", err)
	}
	return nil
}

// Take uses up a single-use secret: it reports whether token was live, and
// it is gone either way. One delete does both, so two requests racing with
// the same link cannot both get in.
func (s *Store) Take(ctx context.Context, kind, token string) (bool, error) {
	if token == "" {
		return false, nil
	}
	res, err := s.db.Write.ExecContext(ctx, `DELETE FROM admin_sessions WHERE token_hash = ? AND expires_at > ?`,
		hash(kind, token), store.FormatTime(s.now()))
	if err != nil {
		return false, fmt.Errorf("session: take: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SyncPassword records the configured admin password (as a bcrypt hash)
// and ends every session when it differs from the one they were issued
// under. An empty password ends them too: without a password there is no
// login. It reports whether sessions were ended.
func (s *Store) SyncPassword(ctx context.Context, password string) (bool, error) {
	var stored string
	err := s.db.Read.QueryRowContext(ctx, `SELECT bcrypt FROM admin_password WHERE id = 1`).Scan(&stored)
	switch {
	case err == nil && password != "" && samePassword(stored, password):
		return false, nil
	case errors.Is(err, sql.ErrNoRows) && password == "":
		return false, nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return false, fmt.Errorf("session: read password: %w", err)
	}
	now := store.FormatTime(s.now())
	err = s.db.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM admin_sessions`); err != nil {
			return err
		}
		if password == "" {
			_, err := tx.ExecContext(ctx, `DELETE FROM admin_password`)
			return err
		}
		h, err := PasswordHash(password)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO admin_password (id, bcrypt, changed_at) VALUES (1, ?, ?)
			ON CONFLICT (id) DO UPDATE SET bcrypt = excluded.bcrypt, changed_at = excluded.changed_at`, string(h), now)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("session: record password: %w", err)
	}
	return true, nil
}
