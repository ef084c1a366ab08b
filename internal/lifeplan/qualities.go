package lifeplan

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/text"
)

// Quality is a trait the member wants to cultivate ("patience").
type Quality struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Why       string    `json:"why,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// QualityInput is a new quality.
type QualityInput struct {
	Name string `json:"name"`
	Why  string `json:"why,omitempty"`
}

// Qualities returns the member's qualities, oldest first.
func (s *Service) Qualities(ctx context.Context, member string) ([]Quality, error) {
	var out []Quality
	err := s.read(ctx, member, func(q store.Queryer) error {
		var err error
		out, err = qualities(ctx, q, member)
		return err
	})
	return out, err
}

// AddQuality adds a quality; a name already listed (ignoring case) is refused.
func (s *Service) AddQuality(ctx context.Context, member string, in QualityInput) (Quality, error) {
	f := map[string]string{}
	name := text.Required(f, "name", text.Line, in.Name, maxName)
	why := text.Field(f, "why", text.Multi, in.Why, maxWhy)
	if len(f) > 0 {
		return Quality{}, apperr.FieldErrors(f)
	}
	var out Quality
	err := s.write(ctx, member, func(tx *store.Tx) error {
		old, err := qualities(ctx, tx, member)
		if err != nil {
			return err
		}
		if len(old) >= MaxQualities {
			return full("qualities", MaxQualities)
		}
		for _, o := range old {
			if strings.EqualFold(o.Name, name) {
				return apperr.FieldErrors(map[string]string{"name": fmt.Sprintf("%q is already listed", o.Name)})
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO lifeplan_qualities (member_id, name, why, created_at) VALUES (?, ?, ?, ?)`,
			member, name, why, s.stamp())
		if err != nil {
			return fmt.Errorf("lifeplan: add quality: %w", err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("lifeplan: add quality: %w", err)
		}
		out, err = store.One(ctx, tx, scanQuality, selectQuality+` WHERE id = ? AND member_id = ?`, id, member)
		if err != nil {
			return fmt.Errorf("lifeplan: add quality: %w", err)
		}
		return nil
	})
	return out, err
}

const selectQuality = `SELECT id, name, why, created_at FROM lifeplan_qualities`

func scanQuality(r store.Scanner) (Quality, error) {
	var q Quality
	var created string
	if err := r.Scan(&q.ID, &q.Name, &q.Why, &created); err != nil {
		return q, err
	}
	var err error
	q.CreatedAt, err = store.ParseTime(created)
	return q, err
}

func qualities(ctx context.Context, q store.Queryer, member string) ([]Quality, error) {
	out, err := store.All(ctx, q, scanQuality, selectQuality+` WHERE member_id = ? ORDER BY id`, member)
	if err != nil {
		return nil, fmt.Errorf("lifeplan: qualities: %w", err)
	}
	return out, nil
}
