package coach

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"hearth/internal/store"
)

// Note is one coaching note: an insight, milestone or decision about a member.
type Note struct {
	ID        int64     `json:"id"`
	MemberID  string    `json:"member"`
	Note      string    `json:"note"`
	RunID     int64     `json:"run_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// Notes lists a member's coaching notes, newest first (limit ≤ 0 means 50);
// tests read back what the note tool and hook wrote.
func Notes(ctx context.Context, db *store.DB, member string, limit int) ([]Note, error) {
	if limit <= 0 {
		limit = 50
	}
	out, err := store.All(ctx, db.Read, scanNote, `SELECT id, member_id, note, run_id, created_at FROM coaching_notes
		WHERE member_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, member, limit)
	if err != nil {
		return nil, fmt.Errorf("coach: notes: %w", err)
	}
	return out, nil
}

func scanNote(row store.Scanner) (Note, error) {
	var n Note
	var run sql.NullInt64
	var at string
	if err := row.Scan(&n.ID, &n.MemberID, &n.Note, &run, &at); err != nil {
		return n, err
	}
	n.RunID = run.Int64
	var err error
	n.CreatedAt, err = store.ParseTime(at)
	return n, err
}
