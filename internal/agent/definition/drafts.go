package definition

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// SaveDraft validates d and inserts it as the agent's next version without
// making it current: a draft to evaluate (Admin → Evals, `hearth eval
// --definition-version N`) before it runs for anyone. Nothing changes for
// the agent until Activate.
func (r *Repo) SaveDraft(ctx context.Context, d Definition, by, note string) (Version, error) {
	v, _, err := r.insert(ctx, d, by, note, false, false)
	return v, err
}

// Activate makes draft number the agent's current version, validated again
// against today's registry. A draft newer than every active version is
// activated in place (it keeps its number: the version that was evaluated
// is the one that runs); when versions were saved since, it is saved again
// as the next version, so the newest active version is always current. The
// draft is then no longer one. Conflict when number is not a draft.
func (r *Repo) Activate(ctx context.Context, agentID string, number int, by string) (Version, error) {
	var out Version
	err := r.db.Tx(ctx, func(tx *store.Tx) error {
		v, err := r.draft(ctx, tx, agentID, number)
		if err != nil {
			return err
		}
		var newest int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM agent_definitions
			WHERE agent_id = ? AND is_active = 1`, agentID).Scan(&newest); err != nil {
			return fmt.Errorf("definition: activate %s: %w", agentID, err)
		}
		if newest > number {
			if err := r.retire(ctx, tx, v, by); err != nil {
				return err
			}
			out, _, err = r.insertTx(ctx, tx, v.Definition, by, fmt.Sprintf("activates draft v%d", number), false, true)
			return err
		}
		g, err := r.graph(ctx, tx, agentID)
		if err != nil {
			return err
		}
		if err := r.reg.validate(&v.Definition, g); err != nil {
			return err
		}
		now := r.now().UTC().Truncate(time.Millisecond)
		if _, err := tx.ExecContext(ctx, `UPDATE agent_definitions SET is_active = 1, activated_at = ?, activated_by = ?
			WHERE version_id = ?`, store.FormatTime(now), by, v.ID); err != nil {
			return fmt.Errorf("definition: activate %s v%d: %w", agentID, number, err)
		}
		v.Active, v.ActivatedAt, v.ActivatedBy = true, &now, by
		v.setState()
		out = v
		return nil
	})
	if err != nil {
		return Version{}, err
	}
	r.invalidate()
	return out, nil
}

// Discard retires draft number: it stays in the history, deactivated, and
// can no longer be activated. Conflict when number is not a draft.
func (r *Repo) Discard(ctx context.Context, agentID string, number int, by string) error {
	err := r.db.Tx(ctx, func(tx *store.Tx) error {
		v, err := r.draft(ctx, tx, agentID, number)
		if err != nil {
			return err
		}
		return r.retire(ctx, tx, v, by)
	})
	if err == nil {
		r.invalidate()
	}
	return err
}

// draft reads version number and checks it is a draft.
func (r *Repo) draft(ctx context.Context, q store.Queryer, agentID string, number int) (Version, error) {
	v, err := scanVersion(q.QueryRowContext(ctx, `SELECT `+versionColumns+` FROM agent_definitions
		WHERE agent_id = ? AND version = ?`, agentID, number))
	if errors.Is(err, sql.ErrNoRows) {
		return v, apperr.NotFoundf("agent %q has no version %d", agentID, number)
	}
	if err != nil {
		return v, err
	}
	if !v.Draft {
		return v, apperr.New(apperr.Conflict, "version %d of %q is not a draft", number, agentID)
	}
	return v, nil
}

// retire deactivates a draft: it is kept, discarded.
func (r *Repo) retire(ctx context.Context, tx *store.Tx, v Version, by string) error {
	_, err := tx.ExecContext(ctx, `UPDATE agent_definitions SET deactivated_at = ?, deactivated_by = ? WHERE version_id = ?`,
		store.FormatTime(r.now()), by, v.ID)
	if err != nil {
		return fmt.Errorf("definition: retire %s v%d: %w", v.AgentID, v.Number, err)
	}
	return nil
}
