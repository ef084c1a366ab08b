package agent

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// MemoryChange is one history row: key went from Old to New (nil = absent)
// by Actor ("run:<id>" or "admin:<name>"). UndoOf names the change an undo reverted.
type MemoryChange struct {
	ID           int64      `json:"id"`
	Agent        string     `json:"agent"`
	Member       string     `json:"member"`
	Key          string     `json:"key"`
	OldValue     *string    `json:"old_value"`
	OldExpiresAt *time.Time `json:"old_expires_at,omitempty"`
	NewValue     *string    `json:"new_value"`
	NewExpiresAt *time.Time `json:"new_expires_at,omitempty"`
	Actor        string     `json:"actor"`
	RunID        *int64     `json:"run_id,omitempty"`
	UndoOf       *int64     `json:"undo_of,omitempty"`
	At           time.Time  `json:"at"`
}

// Now is the store's clock: what "live" means for Entries. Pages that
// show an entry's age or time left use it too, so a page and the store
// never disagree about whether an entry has expired.
func (s *MemoryStore) Now() time.Time { return s.now() }

// Entries lists the live entries of (agent, member), sorted by key.
func (s *MemoryStore) Entries(ctx context.Context, agentID, memberID string) ([]MemoryEntry, error) {
	return loadEntries(ctx, s.db.Read, agentID, memberID, s.now())
}

// Set stores key for (agent, member) on behalf of actor (e.g.
// AdminActor("ada")); ttl 0 is persistent. It returns the recorded change,
// or a zero change (ID 0) when the value was already so.
func (s *MemoryStore) Set(ctx context.Context, agentID, memberID, key, value string, ttl time.Duration, actor string) (MemoryChange, error) {
	value, err := checkMemoryEntry(key, value, ttl)
	if err != nil {
		return MemoryChange{}, err
	}
	now := s.now().UTC()
	e := &MemoryEntry{Key: key, Value: value, UpdatedAt: now}
	if ttl > 0 {
		exp := now.Add(ttl).Truncate(time.Millisecond)
		e.ExpiresAt = &exp
	}
	return s.adminWrite(ctx, agentID, memberID, key, e, actor, 0)
}

// Delete removes key of (agent, member) on behalf of actor; NotFound if absent.
func (s *MemoryStore) Delete(ctx context.Context, agentID, memberID, key, actor string) (MemoryChange, error) {
	return s.adminWrite(ctx, agentID, memberID, key, nil, actor, 0)
}

func (s *MemoryStore) adminWrite(ctx context.Context, agentID, memberID, key string, e *MemoryEntry, actor string, undoOf int64) (MemoryChange, error) {
	if actor == "" {
		return MemoryChange{}, apperr.Invalidf("a memory change needs an actor")
	}
	now := s.now()
	var id int64
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM agent_memory WHERE agent_id = ? AND member_id = ? AND key = ?
			AND expires_at IS NOT NULL AND expires_at <= ?`, agentID, memberID, key, store.FormatTime(now)); err != nil {
			return fmt.Errorf("agent: prune memory: %w", err)
		}
		if e == nil {
			cur, err := currentEntry(ctx, tx, agentID, memberID, key)
			if err != nil {
				return err
			}
			if cur == nil {
				return apperr.NotFoundf("no memory entry %q", key)
			}
		}
		var err error
		id, err = writeMemory(ctx, tx, now, agentID, memberID, key, e, actor, 0, undoOf)
		return err
	})
	if err != nil {
		if isForeignKey(err) {
			return MemoryChange{}, apperr.NotFoundf("unknown member %q", memberID)
		}
		return MemoryChange{}, err
	}
	if id == 0 {
		return MemoryChange{}, nil
	}
	return s.Change(ctx, id)
}

// Undo restores the value key had before change id, recording a new change
// by actor that points back at it. Restoring an entry whose old expiry has
// passed is Invalid.
func (s *MemoryStore) Undo(ctx context.Context, changeID int64, actor string) (MemoryChange, error) {
	c, err := s.Change(ctx, changeID)
	if err != nil {
		return MemoryChange{}, err
	}
	var e *MemoryEntry
	if c.OldValue != nil {
		if c.OldExpiresAt != nil && !s.now().Before(*c.OldExpiresAt) {
			return MemoryChange{}, apperr.Invalidf("the earlier value of %q has expired since", c.Key)
		}
		e = &MemoryEntry{Key: c.Key, Value: *c.OldValue, ExpiresAt: c.OldExpiresAt}
	}
	if e == nil {
		// Undoing a creation: deleting an entry that is already gone is fine.
		cur, err := currentEntry(ctx, s.db.Read, c.Agent, c.Member, c.Key)
		if err != nil {
			return MemoryChange{}, err
		}
		if cur == nil {
			return MemoryChange{}, nil
		}
	}
	return s.adminWrite(ctx, c.Agent, c.Member, c.Key, e, actor, changeID)
}

const changeColumns = `id, agent_id, member_id, key, old_value, old_expires_at, new_value, new_expires_at,
	actor, run_id, undo_of, created_at`

// Change returns one history row; NotFound if there is none.
func (s *MemoryStore) Change(ctx context.Context, id int64) (MemoryChange, error) {
	c, err := scanChange(s.db.Read.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM agent_memory_history WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return MemoryChange{}, apperr.NotFoundf("memory change %d not found", id)
	}
	return c, err
}

// History lists the changes of (agent, member), newest first; limit <= 0 means 100.
func (s *MemoryStore) History(ctx context.Context, agentID, memberID string, limit int) ([]MemoryChange, error) {
	if limit <= 0 {
		limit = 100
	}
	out, err := store.All(ctx, s.db.Read, scanChange, `SELECT `+changeColumns+` FROM agent_memory_history
		WHERE agent_id = ? AND member_id = ? ORDER BY id DESC LIMIT ?`, agentID, memberID, limit)
	if err != nil {
		return nil, fmt.Errorf("agent: memory history: %w", err)
	}
	return out, nil
}

func scanChange(row store.Scanner) (MemoryChange, error) {
	var c MemoryChange
	var oldV, oldExp, newV, newExp sql.NullString
	var runID, undoOf sql.NullInt64
	var at string
	if err := row.Scan(&c.ID, &c.Agent, &c.Member, &c.Key, &oldV, &oldExp, &newV, &newExp,
		&c.Actor, &runID, &undoOf, &at); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return c, err
		}
		return c, fmt.Errorf("agent: scan memory change: %w", err)
	}
	var err error
	if oldV.Valid {
		c.OldValue = &oldV.String
	}
	if newV.Valid {
		c.NewValue = &newV.String
	}
	if c.OldExpiresAt, err = store.ParseNullTime(oldExp); err != nil {
		return c, err
	}
	if c.NewExpiresAt, err = store.ParseNullTime(newExp); err != nil {
		return c, err
	}
	if runID.Valid {
		c.RunID = &runID.Int64
	}
	if undoOf.Valid {
		c.UndoOf = &undoOf.Int64
	}
	c.At, err = store.ParseTime(at)
	return c, err
}
