package importer

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"hearth/internal/store"
)

// Import run statuses.
const (
	StatusRunning     = "running"
	StatusComplete    = "complete"
	StatusFailed      = "failed"
	StatusInterrupted = "interrupted"
)

// Run is one row of the imports table: a file imported for a member.
type Run struct {
	ID               int64      `json:"id"`
	MemberID         string     `json:"member"`
	FileName         string     `json:"file"`
	Kind             Kind       `json:"kind"`
	Status           string     `json:"status"`
	StartedAt        time.Time  `json:"started_at"`
	FinishedAt       *time.Time `json:"finished_at,omitempty"`
	Bytes            int64      `json:"bytes"`
	Added            int        `json:"added"`
	SkippedDuplicate int        `json:"skipped_duplicate"`
	SkippedUnknown   int        `json:"skipped_unknown"`
	Rejected         int        `json:"rejected"`
	Summary          *Summary   `json:"summary,omitempty"`
	Error            string     `json:"error,omitempty"`
}

// beginRun commits a 'running' row before the file's data transaction.
func beginRun(ctx context.Context, db *store.DB, member, file string, kind Kind) (int64, error) {
	res, err := db.Write.ExecContext(ctx, `INSERT INTO imports (member_id, file_name, kind, status, started_at)
		VALUES (?,?,?,?,?)`, member, file, string(kind), StatusRunning, store.FormatTime(db.Now()))
	if err != nil {
		return 0, fmt.Errorf("importer: record import: %w", err)
	}
	return res.LastInsertId()
}

// finishRun writes the outcome; for a complete import q is the data
// transaction, so the row and the records commit together.
func finishRun(ctx context.Context, q store.Queryer, now time.Time, status string, s *Summary, errMsg string) error {
	details, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("importer: encode summary: %w", err)
	}
	_, err = q.ExecContext(ctx, `UPDATE imports SET status = ?, kind = ?, finished_at = ?, bytes = ?, added = ?,
		skipped_duplicate = ?, skipped_unknown = ?, rejected = ?, summary = ?, error = ? WHERE id = ?`,
		status, string(s.Kind), store.FormatTime(now), s.Bytes, s.Added, s.SkippedDuplicate, s.SkippedUnknown,
		s.Rejected, string(details), store.NullString(errMsg), s.ImportID)
	if err != nil {
		return fmt.Errorf("importer: finish import %d: %w", s.ImportID, err)
	}
	return nil
}

// MarkInterrupted marks imports left 'running' by a crash or kill as
// 'interrupted' (their records were never committed) and reports how many.
// Call it once at application start, before any import runs.
func MarkInterrupted(ctx context.Context, db *store.DB) (int64, error) {
	res, err := db.Write.ExecContext(ctx, `UPDATE imports SET status = ?, finished_at = ?,
		error = 'the import was interrupted before it finished; nothing was imported' WHERE status = ?`,
		StatusInterrupted, store.FormatTime(db.Now()), StatusRunning)
	if err != nil {
		return 0, fmt.Errorf("importer: mark interrupted: %w", err)
	}
	return res.RowsAffected()
}

const runCols = `id, member_id, file_name, kind, status, started_at, finished_at, bytes, added,
	skipped_duplicate, skipped_unknown, rejected, summary, error`

func scanRun(row store.Scanner) (Run, error) {
	var (
		r                Run
		kind, started    string
		finished, errMsg sql.NullString
		details          sql.NullString
	)
	if err := row.Scan(&r.ID, &r.MemberID, &r.FileName, &kind, &r.Status, &started, &finished, &r.Bytes, &r.Added,
		&r.SkippedDuplicate, &r.SkippedUnknown, &r.Rejected, &details, &errMsg); err != nil {
		return r, err
	}
	r.Kind, r.Error = Kind(kind), errMsg.String
	var err error
	if r.StartedAt, err = store.ParseTime(started); err != nil {
		return r, err
	}
	if r.FinishedAt, err = store.ParseNullTime(finished); err != nil {
		return r, err
	}
	if details.Valid && details.String != "" {
		var s Summary
		if err := json.Unmarshal([]byte(details.String), &s); err == nil {
			r.Summary = &s
		}
	}
	return r, nil
}

// ListRuns returns recent imports, newest first; member "" means everyone.
// limit <= 0 means 50.
func ListRuns(ctx context.Context, db *store.DB, member string, limit int) ([]Run, error) {
	if limit <= 0 {
		limit = 50
	}
	out, err := store.All(ctx, db.Read, scanRun, `SELECT `+runCols+` FROM imports WHERE ? = '' OR member_id = ?
		ORDER BY started_at DESC, id DESC LIMIT ?`, member, member, limit)
	if err != nil {
		return nil, fmt.Errorf("importer: list imports: %w", err)
	}
	return out, nil
}
