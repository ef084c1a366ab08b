package llm

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"hearth/internal/store"
)

// Endpoints is the ProfileStore in SQLite (table model_endpoints), with the
// list and reset Admin → Model uses.
type Endpoints struct {
	db  *store.DB
	now func() time.Time
}

var _ ProfileStore = (*Endpoints)(nil)

// NewEndpoints returns the store over db.
func NewEndpoints(db *store.DB) *Endpoints { return &Endpoints{db: db, now: db.Now} }

// Load implements ProfileStore.
func (e *Endpoints) Load(ctx context.Context, baseURL, model string) (Profile, bool, error) {
	var raw string
	err := e.db.Read.QueryRowContext(ctx, `SELECT profile FROM model_endpoints WHERE base_url = ? AND model = ?`,
		NormalizeBaseURL(baseURL), model).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return Profile{}, false, nil
	}
	if err != nil {
		return Profile{}, false, fmt.Errorf("llm: load endpoint profile: %w", err)
	}
	var p Profile
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return Profile{}, false, nil // an unreadable row is relearned
	}
	return p, true, nil
}

// Save implements ProfileStore.
func (e *Endpoints) Save(ctx context.Context, p Profile) error {
	p.BaseURL = NormalizeBaseURL(p.BaseURL)
	if p.UpdatedAt.IsZero() {
		p.UpdatedAt = e.now().UTC()
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	_, err = e.db.Write.ExecContext(ctx, `INSERT INTO model_endpoints (base_url, model, profile, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (base_url, model) DO UPDATE SET profile = excluded.profile, updated_at = excluded.updated_at`,
		p.BaseURL, p.Model, string(b), store.FormatTime(p.UpdatedAt))
	if err != nil {
		return fmt.Errorf("llm: save endpoint profile: %w", err)
	}
	return nil
}

// List returns every remembered endpoint, most recently updated first.
func (e *Endpoints) List(ctx context.Context) ([]Profile, error) {
	return store.All(ctx, e.db.Read, func(s store.Scanner) (Profile, error) {
		var raw string
		if err := s.Scan(&raw); err != nil {
			return Profile{}, err
		}
		var p Profile
		err := json.Unmarshal([]byte(raw), &p)
		return p, err
	}, `SELECT profile FROM model_endpoints ORDER BY updated_at DESC, base_url, model`)
}

// Reset forgets what was learned about an endpoint; the next request
// starts again from its family's settings. It reports whether there was
// anything to forget.
func (e *Endpoints) Reset(ctx context.Context, baseURL, model string) (bool, error) {
	res, err := e.db.Write.ExecContext(ctx, `DELETE FROM model_endpoints WHERE base_url = ? AND model = ?`,
		NormalizeBaseURL(baseURL), model)
	if err != nil {
		return false, fmt.Errorf("llm: reset endpoint profile: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
