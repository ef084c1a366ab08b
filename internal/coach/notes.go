package coach

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/internal/store"
	"hearth/internal/text"
)

// MaxNoteLen caps a coaching note (characters).
const MaxNoteLen = 1000

// Note is one coaching note: an insight, milestone or decision about a member.
type Note struct {
	ID        int64     `json:"id"`
	MemberID  string    `json:"member"`
	Note      string    `json:"note"`
	RunID     int64     `json:"run_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// clipText drops what text cannot use (it is model or member text, see
// package text), trims s and cuts it to n characters.
func clipText(s string, n int) string {
	s, _ = text.Clean(text.Multi, s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n-1])) + "…"
}

// insertNote stores a note through q (the run's transaction or the writer).
func insertNote(ctx context.Context, q store.Queryer, now time.Time, member, note string, runID int64) (int64, error) {
	note = clipText(note, MaxNoteLen)
	if note == "" {
		return 0, fmt.Errorf("coach: empty note")
	}
	res, err := q.ExecContext(ctx, `INSERT INTO coaching_notes (member_id, note, run_id, created_at) VALUES (?,?,?,?)`,
		member, note, sql.NullInt64{Int64: runID, Valid: runID != 0}, store.FormatTime(now))
	if err != nil {
		return 0, fmt.Errorf("coach: insert note: %w", err)
	}
	return res.LastInsertId()
}

// Notes lists a member's coaching notes, newest first (limit ≤ 0 means 50).
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

// NoteLog records coaching notes for declarative definitions' log_note hook
// (definition.NoteLogger).
type NoteLog struct{ DB *store.DB }

// LogNote stores note about member in tx.
func (n NoteLog) LogNote(ctx context.Context, tx *store.Tx, member, _ string, note string, runID int64) error {
	_, err := insertNote(ctx, tx, n.DB.Now(), member, note, runID)
	return err
}
