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

// NoteLog records coaching notes for declarative definitions' log_note hook
// (definition.NoteLogger).
type NoteLog struct{ DB *store.DB }

// LogNote stores note about member in tx.
func (n NoteLog) LogNote(ctx context.Context, tx *store.Tx, member, _ string, note string, runID int64) error {
	_, err := insertNote(ctx, tx, n.DB.Now(), member, note, runID)
	return err
}
