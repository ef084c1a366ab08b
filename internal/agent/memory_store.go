package agent

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// MemoryStore persists working memory in SQLite (agent_memory) and keeps
// every change in agent_memory_history with who made it.
type MemoryStore struct {
	db  *store.DB
	now func() time.Time
}

// NewMemoryStore returns a store using now as its clock (db.Now if nil).
func NewMemoryStore(db *store.DB, now func() time.Time) *MemoryStore {
	if now == nil {
		now = db.Now
	}
	return &MemoryStore{db: db, now: now}
}

// RunActor is the history actor for changes made by run id.
func RunActor(runID int64) string { return "run:" + strconv.FormatInt(runID, 10) }

// AdminActor is the history actor for changes made by an admin.
func AdminActor(name string) string { return "admin:" + name }

// Load reads the memory of (agent, member), leaving out expired entries.
func (s *MemoryStore) Load(ctx context.Context, agentID, memberID string) (*Memory, error) {
	entries, err := loadEntries(ctx, s.db.Read, agentID, memberID, s.now())
	if err != nil {
		return nil, err
	}
	m := NewMemory(agentID, memberID, s.now)
	m.hydrate(entries)
	return m, nil
}

func loadEntries(ctx context.Context, q store.Queryer, agentID, memberID string, now time.Time) ([]MemoryEntry, error) {
	out, err := store.All(ctx, q, scanEntry, `SELECT key, value, expires_at, updated_at FROM agent_memory
		WHERE agent_id = ? AND member_id = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY key`,
		agentID, memberID, store.FormatTime(now))
	if err != nil {
		return nil, fmt.Errorf("agent: load memory %s/%s: %w", agentID, memberID, err)
	}
	return out, nil
}

func scanEntry(row store.Scanner) (MemoryEntry, error) {
	var e MemoryEntry
	var exp sql.NullString
	var upd string
	if err := row.Scan(&e.Key, &e.Value, &exp, &upd); err != nil {
		return e, err
	}
	var err error
	if e.ExpiresAt, err = store.ParseNullTime(exp); err != nil {
		return e, err
	}
	e.UpdatedAt, err = store.ParseTime(upd)
	return e, err
}

// Save writes what changed in m since it was loaded, inside tx, recording a
// history row per changed key with actor (RunActor or AdminActor) and runID
// (0 for none). Expired rows of (agent, member) are deleted without history.
// Keys the caller did not touch are left as they are in the database, so a
// concurrent admin edit of another key survives.
//
// MaxMemoryEntries holds in the database, not only in m: runs that loaded
// the same memory and each added keys commit one after another, and a key
// that would take the stored entries past the cap is not written; Save
// returns such keys (removals are written first, so they make room).
func (s *MemoryStore) Save(ctx context.Context, tx *store.Tx, m *Memory, actor string, runID int64) (skipped []string, err error) {
	now := s.now()
	if _, err := tx.ExecContext(ctx, `DELETE FROM agent_memory WHERE agent_id = ? AND member_id = ?
		AND expires_at IS NOT NULL AND expires_at <= ?`, m.agentID, m.memberID, store.FormatTime(now)); err != nil {
		return nil, fmt.Errorf("agent: prune memory: %w", err)
	}
	changes := m.changes(now)
	slices.SortStableFunc(changes, func(a, b memoryChange) int { // removals first
		return cmp.Compare(boolInt(a.new != nil), boolInt(b.new != nil))
	})
	for _, c := range changes {
		if c.new != nil {
			full, err := memoryFull(ctx, tx, m.agentID, m.memberID, c.key)
			if err != nil {
				return nil, err
			}
			if full {
				skipped = append(skipped, c.key)
				continue
			}
		}
		if _, err := writeMemory(ctx, tx, now, m.agentID, m.memberID, c.key, c.new, actor, runID, 0); err != nil {
			return nil, err
		}
	}
	return skipped, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// memoryFull reports whether key is not stored for (agent, member) and the
// stored entries are already at MaxMemoryEntries (expired rows are gone:
// Save prunes them first).
func memoryFull(ctx context.Context, q store.Queryer, agentID, memberID, key string) (bool, error) {
	var n, has int
	if err := q.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE key = ?) FROM agent_memory
		WHERE agent_id = ? AND member_id = ?`, key, agentID, memberID).Scan(&n, &has); err != nil {
		return false, fmt.Errorf("agent: count memory: %w", err)
	}
	return has == 0 && n >= MaxMemoryEntries, nil
}

// fits refuses key when m's save would leave no room for it in what is
// stored now (read in q, the run's commit transaction): the stored
// entries, less those m removes, plus those it adds. The remember tool's
// staged write checks it, so a key refused for room is reported as a
// refused effect rather than left out of the save unseen.
func (m *Memory) fits(ctx context.Context, q store.Queryer, key string) error {
	stored, err := loadEntries(ctx, q, m.agentID, m.memberID, m.now())
	if err != nil {
		return err
	}
	after := map[string]bool{}
	for _, e := range stored {
		after[e.Key] = true
	}
	for _, c := range m.changes(m.now()) {
		after[c.key] = c.new != nil
	}
	n := 0
	for _, in := range after {
		if in {
			n++
		}
	}
	if !after[key] && n >= MaxMemoryEntries {
		return apperr.New(apperr.Conflict, "memory is full (%d entries); remove something first", MaxMemoryEntries)
	}
	return nil
}

// writeMemory sets (e != nil) or deletes key, appending a history row when
// the stored value actually changes. It reports the history id (0 if none).
func writeMemory(ctx context.Context, tx *store.Tx, now time.Time, agentID, memberID, key string,
	e *MemoryEntry, actor string, runID, undoOf int64) (int64, error) {
	cur, err := currentEntry(ctx, tx, agentID, memberID, key)
	if err != nil {
		return 0, err
	}
	if (cur == nil && e == nil) || (cur != nil && e != nil && cur.sameAs(*e)) {
		return 0, nil
	}
	if e == nil {
		_, err = tx.ExecContext(ctx, `DELETE FROM agent_memory WHERE agent_id = ? AND member_id = ? AND key = ?`,
			agentID, memberID, key)
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO agent_memory (agent_id, member_id, key, value, expires_at, updated_at, updated_by)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (agent_id, member_id, key) DO UPDATE SET value = excluded.value,
				expires_at = excluded.expires_at, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
			agentID, memberID, key, e.Value, store.NullTime(e.ExpiresAt), store.FormatTime(now), actor)
	}
	if err != nil {
		return 0, fmt.Errorf("agent: write memory %q: %w", key, err)
	}
	var oldV, oldExp, newV, newExp sql.NullString
	if cur != nil {
		oldV, oldExp = sql.NullString{String: cur.Value, Valid: true}, store.NullTime(cur.ExpiresAt)
	}
	if e != nil {
		newV, newExp = sql.NullString{String: e.Value, Valid: true}, store.NullTime(e.ExpiresAt)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO agent_memory_history (agent_id, member_id, key, old_value, old_expires_at,
		new_value, new_expires_at, actor, run_id, undo_of, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		agentID, memberID, key, oldV, oldExp, newV, newExp, actor,
		sql.NullInt64{Int64: runID, Valid: runID != 0}, sql.NullInt64{Int64: undoOf, Valid: undoOf != 0},
		store.FormatTime(now))
	if err != nil {
		return 0, fmt.Errorf("agent: memory history: %w", err)
	}
	return res.LastInsertId()
}

// currentEntry reads the stored row for key regardless of expiry (nil if none).
func currentEntry(ctx context.Context, q store.Queryer, agentID, memberID, key string) (*MemoryEntry, error) {
	e, err := store.One(ctx, q, scanEntry, `SELECT key, value, expires_at, updated_at FROM agent_memory
		WHERE agent_id = ? AND member_id = ? AND key = ?`, agentID, memberID, key)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("agent: read memory %q: %w", key, err)
	}
	return &e, nil
}
