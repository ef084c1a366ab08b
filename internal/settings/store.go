package settings

import (
	"context"
	"crypto/cipher"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"unicode/utf8"

	"hearth/internal/store"
)

// State is what a page may know of a secret.
type State int

const (
	Unset State = iota
	Set
	// Unreadable: a secret is stored but does not decrypt under this
	// secret.key (a backup restored on another machine, a new key file).
	Unreadable
)

func (s State) String() string {
	switch s {
	case Set:
		return "set"
	case Unreadable:
		return "set but unreadable: enter it again"
	}
	return "unset"
}

// ErrUnreadable is Secret's error for a stored secret that does not
// decrypt; the admin enters it again.
var ErrUnreadable = errors.New("the saved secret is set but unreadable (the data directory's secret.key changed, e.g. a restore on a new machine): enter it again")

// maxValue bounds a plain value and a secret's plain text (the table's
// CHECK allows the ciphertext of this much).
const maxValue = 4096

// version is the first byte of a stored secret: the layout below.
const version byte = 1

// Store reads and writes settings in db; secrets with the key from
// dataDir/secret.key, read (or created) on the first secret used.
type Store struct {
	db      *store.DB
	keyPath string

	mu   sync.Mutex
	aead cipher.AEAD // nil until a secret is used; a failure is not kept, so a fixed file is picked up
}

// New returns the settings of db, with secrets keyed from dataDir.
func New(db *store.DB, dataDir string) *Store {
	return &Store{db: db, keyPath: filepath.Join(dataDir, KeyFileName)}
}

// KeyPath is where secret.key is (or will be).
func (s *Store) KeyPath() string { return s.keyPath }

func (s *Store) key() (cipher.AEAD, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aead == nil {
		aead, err := loadKey(s.keyPath)
		if err != nil {
			return nil, err
		}
		s.aead = aead
	}
	return s.aead, nil
}

func checkName(name string) error {
	if name == "" || len(name) > 100 || !utf8.ValidString(name) {
		return fmt.Errorf("settings: bad name %q", name)
	}
	return nil
}

// Get is a plain setting's value ("" when unset or when name is a secret).
func (s *Store) Get(ctx context.Context, name string) (string, error) {
	var v string
	err := s.db.Read.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = ?`, name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("settings: read %s: %w", name, err)
	}
	return v, nil
}

// Set saves a plain setting; "" removes it (the default applies again).
func (s *Store) Set(ctx context.Context, name, value string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if value == "" {
		return s.Clear(ctx, name)
	}
	if len(value) > maxValue || !utf8.ValidString(value) {
		return fmt.Errorf("settings: %s: value too long or not text", name)
	}
	return s.put(ctx, name, value, nil)
}

// SetSecret saves a secret, encrypted; "" removes it.
func (s *Store) SetSecret(ctx context.Context, name, plain string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if plain == "" {
		return s.Clear(ctx, name)
	}
	if len(plain) > maxValue {
		return fmt.Errorf("settings: %s: secret too long", name)
	}
	aead, err := s.key()
	if err != nil {
		return err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	blob := append([]byte{version}, nonce...)
	blob = aead.Seal(blob, nonce, []byte(plain), []byte(name))
	return s.put(ctx, name, "", blob)
}

func (s *Store) put(ctx context.Context, name, value string, secret []byte) error {
	_, err := s.db.Write.ExecContext(ctx, `INSERT INTO settings (name, value, secret, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value, secret = excluded.secret, updated_at = excluded.updated_at`,
		name, value, secret, store.FormatTime(s.db.Now()))
	if err != nil {
		return fmt.Errorf("settings: save %s: %w", name, err)
	}
	return nil
}

// Clear removes a setting, plain or secret.
func (s *Store) Clear(ctx context.Context, name string) error {
	if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM settings WHERE name = ?`, name); err != nil {
		return fmt.Errorf("settings: remove %s: %w", name, err)
	}
	return nil
}

// Secret is a secret's plain text for use (never for a page): "" when
// unset, ErrUnreadable when it does not decrypt, an ErrKeyFile error when
// secret.key cannot be used.
func (s *Store) Secret(ctx context.Context, name string) (string, error) {
	var blob []byte
	err := s.db.Read.QueryRowContext(ctx, `SELECT secret FROM settings WHERE name = ? AND secret IS NOT NULL`, name).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("settings: read %s: %w", name, err)
	}
	aead, err := s.key()
	if err != nil {
		return "", err
	}
	n := aead.NonceSize()
	if len(blob) < 1+n || blob[0] != version {
		return "", ErrUnreadable
	}
	plain, err := aead.Open(nil, blob[1:1+n], blob[1+n:], []byte(name))
	if err != nil {
		return "", ErrUnreadable
	}
	return string(plain), nil
}

// SecretState says whether a secret is set, and whether it still reads,
// without handing out its text.
func (s *Store) SecretState(ctx context.Context, name string) (State, error) {
	v, err := s.Secret(ctx, name)
	switch {
	case errors.Is(err, ErrUnreadable):
		return Unreadable, nil
	case err != nil:
		return Unset, err
	case v == "":
		return Unset, nil
	}
	return Set, nil
}

// Source says where a value in force came from.
type Source string

const (
	FromEnvironment Source = "environment" // the environment or a flag
	FromAdmin       Source = "admin"       // saved on Admin → Integrations
	FromDefault     Source = "unset"       // neither: the default (for a URL or token, none)
)

// Resolve applies the precedence to one field: env when set, else saved,
// else the default (def, which may be "").
func Resolve(env, saved, def string) (string, Source) {
	switch {
	case env != "":
		return env, FromEnvironment
	case saved != "":
		return saved, FromAdmin
	}
	return def, FromDefault
}
