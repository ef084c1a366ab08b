// Package devices keeps the household's device tokens: the optional rule
// that kiosk screens and scripts of the household API (/api/v1) identify
// themselves, for a household network that is not fully trusted.
//
// A screen is enrolled once: the admin names it and gets a single-use link
// (a 128-bit random code, valid CodeTTL) to open on the tablet, which
// exchanges it for a long-lived device token kept in a cookie. A script
// gets its token at creation, shown once. Only SHA-256 hashes of codes and
// tokens are stored, and they are looked up by hash, so no secret is
// compared byte by byte and a copy of the database holds nothing usable.
// Revoking deletes the device: its next request is refused.
package devices

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

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/text"
)

// Kind is what holds a token: a kiosk screen (a cookie) or a script (a
// bearer token).
type Kind string

const (
	Screen Kind = "screen"
	Script Kind = "script"
)

const (
	// CodeTTL is how long an enrolment link can be opened: long enough to
	// walk to the tablet, short enough that a photographed code is stale.
	CodeTTL = 15 * time.Minute
	// SeenEvery throttles last-seen writes: a wall screen makes a request
	// every few seconds, which must not mean a database write each time.
	SeenEvery = 5 * time.Minute
	// MaxName is the longest device name, in characters.
	MaxName = 60

	codeBytes  = 16 // 128 bits
	tokenBytes = 32
)

// Device is one enrolled screen or script, or a screen whose enrolment
// link is still waiting to be opened (Pending).
type Device struct {
	ID        int64
	Name      string
	Kind      Kind
	CreatedAt time.Time
	// Pending: the enrolment link was not opened yet; it expires at Expires.
	Pending  bool
	Expires  time.Time
	Enrolled time.Time // zero while pending
	LastSeen time.Time // zero when never seen
	// Touched: Check has just recorded LastSeen (at most every SeenEvery):
	// the caller may renew the screen's cookie then.
	Touched bool
}

// ErrNotEnrolled is the refusal of a missing, unknown or revoked token.
var ErrNotEnrolled = apperr.New(apperr.Unauthorized,
	"This screen is not enrolled: ask the household admin to enrol it from Admin → Screens.")

// errLink is the refusal of an enrolment link that cannot be used.
var errLink = apperr.NotFoundf("This enrolment link cannot be used: it was used already, it expired " +
	"(links last 15 minutes) or it was cancelled. Ask the household admin for a new one from Admin → Screens.")

// Service keeps device tokens and the setting in the database.
type Service struct {
	db  *store.DB
	now func() time.Time
}

// New returns the service over db, on db's clock.
func New(db *store.DB) *Service { return &Service{db: db, now: db.Now} }

// SetClock replaces the clock (tests: expiry and last-seen throttling).
// Call it before the service is used.
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Hash is the stored form of a code or token: hex SHA-256. The secrets are
// random and long, so a fast hash is enough (nothing to brute-force).
func Hash(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

func random(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("devices: random: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// wellFormed reports whether s could be a code or token of n random bytes:
// anything else is refused before touching the database.
func wellFormed(s string, n int) bool {
	if len(s) != base64.RawURLEncoding.EncodedLen(n) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil
}

// Required reports whether screens and the household API need a device
// token (false, the trusted-network default, until the admin turns it on).
func (s *Service) Required(ctx context.Context) (bool, error) {
	var on bool
	err := s.db.Read.QueryRowContext(ctx, `SELECT require_token FROM device_settings WHERE id = 1`).Scan(&on)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("devices: read setting: %w", err)
	}
	return on, nil
}

// SetRequired turns the device-token rule on or off.
func (s *Service) SetRequired(ctx context.Context, on bool) error {
	_, err := s.db.Write.ExecContext(ctx, `INSERT INTO device_settings (id, require_token, updated_at) VALUES (1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET require_token = excluded.require_token, updated_at = excluded.updated_at`,
		on, store.FormatTime(s.now()))
	if err != nil {
		return fmt.Errorf("devices: save setting: %w", err)
	}
	return nil
}

func checkName(name string) (string, error) {
	errs := map[string]string{}
	if n := text.Required(errs, "name", text.Line, name, MaxName); len(errs) == 0 {
		return n, nil
	}
	return "", apperr.FieldErrors(errs)
}

// StartEnrolment adds a screen named name, waiting for its enrolment link,
// and returns the link's code (shown once: only its hash is kept). Expired
// links are dropped here.
func (s *Service) StartEnrolment(ctx context.Context, name string) (Device, string, error) {
	name, err := checkName(name)
	if err != nil {
		return Device{}, "", err
	}
	code, err := random(codeBytes)
	if err != nil {
		return Device{}, "", err
	}
	now := s.now()
	if err := s.dropExpired(ctx, now); err != nil {
		return Device{}, "", err
	}
	d := Device{Name: name, Kind: Screen, CreatedAt: now, Pending: true, Expires: now.Add(CodeTTL)}
	res, err := s.db.Write.ExecContext(ctx, `INSERT INTO devices (name, kind, code_hash, code_expires_at, created_at)
		VALUES (?, 'screen', ?, ?, ?)`, name, Hash(code), store.FormatTime(d.Expires), store.FormatTime(now))
	if err != nil {
		return Device{}, "", fmt.Errorf("devices: start enrolment: %w", err)
	}
	d.ID, _ = res.LastInsertId()
	return d, code, nil
}

// CreateScript adds a script named name and returns its bearer token
// (shown once: only its hash is kept).
func (s *Service) CreateScript(ctx context.Context, name string) (Device, string, error) {
	name, err := checkName(name)
	if err != nil {
		return Device{}, "", err
	}
	token, err := random(tokenBytes)
	if err != nil {
		return Device{}, "", err
	}
	now := s.now()
	d := Device{Name: name, Kind: Script, CreatedAt: now, Enrolled: now}
	res, err := s.db.Write.ExecContext(ctx, `INSERT INTO devices (name, kind, token_hash, created_at, enrolled_at)
		VALUES (?, 'script', ?, ?, ?)`, name, Hash(token), store.FormatTime(now), store.FormatTime(now))
	if err != nil {
		return Device{}, "", fmt.Errorf("devices: create script: %w", err)
	}
	d.ID, _ = res.LastInsertId()
	return d, token, nil
}

// Enrolment returns the screen a still-valid enrolment link is for, without
// using it (the page that asks "enrol this screen?"); apperr.NotFound when
// the link cannot be used.
func (s *Service) Enrolment(ctx context.Context, code string) (Device, error) {
	if !wellFormed(code, codeBytes) {
		return Device{}, errLink
	}
	d, err := s.scan(s.db.Read.QueryRowContext(ctx, `SELECT `+columns+` FROM devices
		WHERE code_hash = ? AND code_expires_at > ?`, Hash(code), store.FormatTime(s.now())))
	if errors.Is(err, sql.ErrNoRows) {
		return Device{}, errLink
	}
	return d, err
}

// Enrol exchanges a valid enrolment link for the screen's device token, in
// one statement, so two tablets opening one link cannot both get a token:
// the code's hash is cleared as the token's is set.
func (s *Service) Enrol(ctx context.Context, code string) (Device, string, error) {
	if !wellFormed(code, codeBytes) {
		return Device{}, "", errLink
	}
	token, err := random(tokenBytes)
	if err != nil {
		return Device{}, "", err
	}
	now := store.FormatTime(s.now())
	d, err := s.scan(s.db.Write.QueryRowContext(ctx, `UPDATE devices
		SET token_hash = ?, code_hash = NULL, code_expires_at = NULL, enrolled_at = ?, last_seen_at = ?
		WHERE code_hash = ? AND code_expires_at > ? RETURNING `+columns, Hash(token), now, now, Hash(code), now))
	if errors.Is(err, sql.ErrNoRows) {
		return Device{}, "", errLink
	}
	if err != nil {
		return Device{}, "", err
	}
	return d, token, nil
}

// Check returns the device a token belongs to, or ErrNotEnrolled. It
// records the device as seen, at most once every SeenEvery.
func (s *Service) Check(ctx context.Context, token string) (Device, error) {
	if !wellFormed(token, tokenBytes) {
		return Device{}, ErrNotEnrolled
	}
	h := Hash(token)
	d, err := s.scan(s.db.Read.QueryRowContext(ctx, `SELECT `+columns+` FROM devices WHERE token_hash = ?`, h))
	if errors.Is(err, sql.ErrNoRows) {
		return Device{}, ErrNotEnrolled
	}
	if err != nil {
		return Device{}, err
	}
	now := s.now()
	if now.Sub(d.LastSeen) >= SeenEvery {
		// A revoke in between deletes the row: the update then changes nothing.
		if _, err := s.db.Write.ExecContext(ctx, `UPDATE devices SET last_seen_at = ? WHERE token_hash = ?`,
			store.FormatTime(now), h); err != nil {
			return Device{}, fmt.Errorf("devices: last seen: %w", err)
		}
		d.LastSeen, d.Touched = now, true
	}
	return d, nil
}

// List returns the devices, screens waiting for their link first, then by
// name; expired links are dropped.
func (s *Service) List(ctx context.Context) ([]Device, error) {
	if err := s.dropExpired(ctx, s.now()); err != nil {
		return nil, err
	}
	rows, err := s.db.Read.QueryContext(ctx, `SELECT `+columns+` FROM devices
		ORDER BY token_hash IS NOT NULL, name COLLATE NOCASE, id`)
	if err != nil {
		return nil, fmt.Errorf("devices: list: %w", err)
	}
	defer rows.Close()
	var out []Device
	for rows.Next() {
		d, err := s.scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("devices: list: %w", err)
	}
	return out, nil
}

// Revoke deletes a device (or cancels a waiting link): its token stops
// working at its next request. apperr.NotFound for an unknown id.
func (s *Service) Revoke(ctx context.Context, id int64) (Device, error) {
	d, err := s.scan(s.db.Write.QueryRowContext(ctx, `DELETE FROM devices WHERE id = ? RETURNING `+columns, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Device{}, apperr.NotFoundf("no such screen or script (revoked already?)")
	}
	return d, err
}

func (s *Service) dropExpired(ctx context.Context, now time.Time) error {
	if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM devices WHERE code_hash IS NOT NULL AND code_expires_at <= ?`,
		store.FormatTime(now)); err != nil {
		return fmt.Errorf("devices: drop expired links: %w", err)
	}
	return nil
}

const columns = `id, name, kind, created_at, code_expires_at, enrolled_at, last_seen_at`

func (s *Service) scan(row interface{ Scan(...any) error }) (Device, error) {
	var (
		d                       Device
		created                 string
		expires, enrolled, seen sql.NullString
	)
	if err := row.Scan(&d.ID, &d.Name, &d.Kind, &created, &expires, &enrolled, &seen); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Device{}, err
		}
		return Device{}, fmt.Errorf("devices: read: %w", err)
	}
	var err error
	parse := func(ns sql.NullString) time.Time {
		if !ns.Valid || err != nil {
			return time.Time{}
		}
		var t time.Time
		t, err = store.ParseTime(ns.String)
		return t
	}
	d.CreatedAt = parse(sql.NullString{String: created, Valid: true})
	d.Expires, d.Enrolled, d.LastSeen = parse(expires), parse(enrolled), parse(seen)
	d.Pending = expires.Valid
	if err != nil {
		return Device{}, fmt.Errorf("devices: read: %w", err)
	}
	return d, nil
}
