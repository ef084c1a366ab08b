package lifeplan

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/text"
)

// Purpose is a member's purpose statement: why they do what they do.
type Purpose struct {
	Statement string `json:"statement"`
	// UpdatedAt is when it was last written; nil while there is none.
	UpdatedAt *time.Time `json:"updated_at,omitempty"`
}

// GetPurpose returns the member's purpose (an empty one while unset).
func (s *Service) GetPurpose(ctx context.Context, member string) (Purpose, error) {
	var p Purpose
	err := s.read(ctx, member, func(q store.Queryer) error {
		var err error
		p, err = purpose(ctx, q, member)
		return err
	})
	return p, err
}

// SetPurpose replaces the member's purpose statement.
func (s *Service) SetPurpose(ctx context.Context, member, statement string) (Purpose, error) {
	f := map[string]string{}
	statement = text.Required(f, "statement", text.Multi, statement, maxPurpose)
	if len(f) > 0 {
		return Purpose{}, apperr.FieldErrors(f)
	}
	var p Purpose
	err := s.write(ctx, member, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO lifeplan_purposes (member_id, statement, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (member_id) DO UPDATE SET statement = excluded.statement, updated_at = excluded.updated_at`,
			member, statement, s.stamp()); err != nil {
			return fmt.Errorf("lifeplan: set purpose: %w", err)
		}
		var err error
		p, err = purpose(ctx, tx, member)
		return err
	})
	return p, err
}

func purpose(ctx context.Context, q store.Queryer, member string) (Purpose, error) {
	var p Purpose
	var at string
	err := q.QueryRowContext(ctx, `SELECT statement, updated_at FROM lifeplan_purposes WHERE member_id = ?`, member).Scan(&p.Statement, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Purpose{}, nil
	}
	if err != nil {
		return p, fmt.Errorf("lifeplan: purpose: %w", err)
	}
	t, err := store.ParseTime(at)
	if err != nil {
		return p, fmt.Errorf("lifeplan: purpose: %w", err)
	}
	p.UpdatedAt = &t
	return p, nil
}
