package lifeplan

import (
	"context"
	"fmt"
	"strings"

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/text"
)

// Value is something the member holds important ("family", "health"),
// ranked: 1 matters most.
type Value struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Rank        int    `json:"rank"`
}

// ValueInput is a value as given to SetValues.
type ValueInput struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Values returns the member's values, most important first.
func (s *Service) Values(ctx context.Context, member string) ([]Value, error) {
	var out []Value
	err := s.read(ctx, member, func(q store.Queryer) error {
		var err error
		out, err = values(ctx, q, member)
		return err
	})
	return out, err
}

// SetValues replaces the member's values with in, ranked in the order
// given. A value whose name (ignoring case) was already there keeps its id;
// values left out are removed; an empty list clears them. Names must differ
// (ignoring case).
func (s *Service) SetValues(ctx context.Context, member string, in []ValueInput) ([]Value, error) {
	f := map[string]string{}
	if len(in) > MaxValues {
		f["values"] = fmt.Sprintf("must be at most %d values", MaxValues)
	}
	clean := make([]ValueInput, 0, len(in))
	for i, v := range in {
		c := ValueInput{
			Name:        text.Required(f, fmt.Sprintf("values[%d].name", i), text.Line, v.Name, maxName),
			Description: text.Field(f, fmt.Sprintf("values[%d].description", i), text.Line, v.Description, maxDescription),
		}
		for j, prev := range clean {
			if c.Name != "" && strings.EqualFold(prev.Name, c.Name) {
				f[fmt.Sprintf("values[%d].name", i)] = fmt.Sprintf("repeats values[%d] (%q)", j, prev.Name)
			}
		}
		clean = append(clean, c)
	}
	if len(f) > 0 {
		return nil, apperr.FieldErrors(f)
	}
	var out []Value
	err := s.write(ctx, member, func(tx *store.Tx) error {
		old, err := values(ctx, tx, member)
		if err != nil {
			return err
		}
		now := s.stamp()
		kept := map[int64]bool{}
		ids := make([]int64, len(clean))
		for i, c := range clean {
			for _, o := range old {
				if strings.EqualFold(o.Name, c.Name) {
					ids[i] = o.ID
					kept[o.ID] = true
				}
			}
		}
		for _, o := range old {
			if !kept[o.ID] {
				if _, err := tx.ExecContext(ctx, `DELETE FROM lifeplan_values WHERE id = ? AND member_id = ?`, o.ID, member); err != nil {
					return fmt.Errorf("lifeplan: set values: %w", err)
				}
			}
		}
		for i, c := range clean {
			if ids[i] != 0 {
				_, err = tx.ExecContext(ctx, `UPDATE lifeplan_values SET name = ?, description = ?, rank = ?, updated_at = ?
					WHERE id = ? AND member_id = ?`, c.Name, c.Description, i+1, now, ids[i], member)
			} else {
				_, err = tx.ExecContext(ctx, `INSERT INTO lifeplan_values (member_id, name, description, rank, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?, ?)`, member, c.Name, c.Description, i+1, now, now)
			}
			if err != nil {
				return fmt.Errorf("lifeplan: set values: %w", err)
			}
		}
		out, err = values(ctx, tx, member)
		return err
	})
	return out, err
}

// RankValues reorders the member's values: the names in ranking (ignoring
// case) come first, in that order; the values not named follow in their
// previous order. A name that is not one of the member's values, or one
// named twice, is refused.
func (s *Service) RankValues(ctx context.Context, member string, ranking []string) ([]Value, error) {
	var out []Value
	err := s.write(ctx, member, func(tx *store.Tx) error {
		old, err := values(ctx, tx, member)
		if err != nil {
			return err
		}
		f := map[string]string{}
		if len(ranking) == 0 {
			f["ranking"] = "is required"
		}
		var order []Value
		placed := map[int64]int{}
		for i, name := range ranking {
			field := fmt.Sprintf("ranking[%d]", i)
			name = text.Required(f, field, text.Line, name, maxName)
			if name == "" {
				continue
			}
			found := false
			for _, o := range old {
				if !strings.EqualFold(o.Name, name) {
					continue
				}
				found = true
				if j, dup := placed[o.ID]; dup {
					f[field] = fmt.Sprintf("repeats ranking[%d] (%q)", j, o.Name)
					break
				}
				placed[o.ID] = i
				order = append(order, o)
			}
			if !found {
				f[field] = fmt.Sprintf("%q is not one of the values (%s)", name, valueNames(old))
			}
		}
		if len(f) > 0 {
			return apperr.FieldErrors(f)
		}
		for _, o := range old {
			if _, ok := placed[o.ID]; !ok {
				order = append(order, o)
			}
		}
		now := s.stamp()
		for i, v := range order {
			if _, err := tx.ExecContext(ctx, `UPDATE lifeplan_values SET rank = ?, updated_at = ? WHERE id = ? AND member_id = ?`,
				i+1, now, v.ID, member); err != nil {
				return fmt.Errorf("lifeplan: rank values: %w", err)
			}
		}
		out, err = values(ctx, tx, member)
		return err
	})
	return out, err
}

func valueNames(vs []Value) string {
	if len(vs) == 0 {
		return "there are none yet"
	}
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

func values(ctx context.Context, q store.Queryer, member string) ([]Value, error) {
	out, err := store.All(ctx, q, func(r store.Scanner) (Value, error) {
		var v Value
		err := r.Scan(&v.ID, &v.Name, &v.Description, &v.Rank)
		return v, err
	}, `SELECT id, name, description, rank FROM lifeplan_values WHERE member_id = ? ORDER BY rank, id`, member)
	if err != nil {
		return nil, fmt.Errorf("lifeplan: values: %w", err)
	}
	return out, nil
}
