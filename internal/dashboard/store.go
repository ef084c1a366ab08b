package dashboard

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Store keeps documents, answers, voice memos, consumed marks and playlists.
type Store struct {
	db  *store.DB
	pub live.Publisher
	loc *time.Location
}

// NewStore returns a Store; loc is the household time zone that defines "day".
func NewStore(db *store.DB, pub live.Publisher, loc *time.Location) *Store {
	if loc == nil {
		loc = time.Local
	}
	return &Store{db: db, pub: pub, loc: loc}
}

// Day returns the household-local date of t as YYYY-MM-DD.
func (s *Store) Day(t time.Time) string { return t.In(s.loc).Format(time.DateOnly) }

// Location is the household time zone.
func (s *Store) Location() *time.Location { return s.loc }

// Stored is a document with its bookkeeping.
type Stored struct {
	MemberID  string    `json:"member"`
	Day       string    `json:"day"`
	RunID     int64     `json:"run_id"`
	Document  Document  `json:"document"`
	Sources   string    `json:"sources"`
	CreatedAt time.Time `json:"created_at"`
	// Quotes are the figures the briefing quotes (QuoteTx).
	Quotes []Quote `json:"-"`
}

// PutTx stores (or replaces) a member's document for a day inside the
// caller's transaction, so it commits together with the run's memory save,
// and tells the member's screens once the transaction has committed.
func (s *Store) PutTx(ctx context.Context, tx *store.Tx, now time.Time, member, day string, runID int64, doc Document, sources string) error {
	doc = doc.clone()
	doc.CleanText()
	raw, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("dashboard: encode: %w", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO dashboards (member_id, day, run_id, document, sources, created_at, goal_pace_held)
		VALUES (?,?,?,?,?,?,?) ON CONFLICT (member_id, day) DO UPDATE SET run_id=excluded.run_id,
		document=excluded.document, sources=excluded.sources, created_at=excluded.created_at, quotes='[]',
		goal_pace_held=excluded.goal_pace_held`,
		member, day, runID, string(raw), sources, store.FormatTime(now), doc.GoalPaceHeld)
	if err != nil {
		return fmt.Errorf("dashboard: put: %w", err)
	}
	if s.pub != nil {
		tx.AfterCommit(func() { s.pub.Publish(live.MemberTopic(member), live.KindDashboard, nil) })
	}
	return nil
}

// Get returns the document for a member and day, or apperr.NotFound.
func (s *Store) Get(ctx context.Context, member, day string) (Stored, error) {
	return s.one(ctx, s.db.Read, `WHERE member_id = ? AND day = ?`, member, day)
}

// Latest returns the newest document on or before day (yesterday's when
// today's run has not happened), or apperr.NotFound.
func (s *Store) Latest(ctx context.Context, member, day string) (Stored, error) {
	return s.latest(ctx, s.db.Read, member, day)
}

func (s *Store) latest(ctx context.Context, q store.Queryer, member, day string) (Stored, error) {
	return s.one(ctx, q, `WHERE member_id = ? AND day <= ? ORDER BY day DESC LIMIT 1`, member, day)
}

func (s *Store) one(ctx context.Context, q store.Queryer, where string, args ...any) (Stored, error) {
	st, err := store.One(ctx, q, scanStored, `SELECT member_id, day, run_id, document, sources, created_at, quotes, goal_pace_held FROM dashboards `+where, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return st, apperr.NotFoundf("no dashboard for this day")
	}
	return st, err
}

func scanStored(row store.Scanner) (Stored, error) {
	var st Stored
	var raw, created, quotes string
	var run sql.NullInt64
	var held bool
	if err := row.Scan(&st.MemberID, &st.Day, &run, &raw, &st.Sources, &created, &quotes, &held); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return st, err
		}
		return st, fmt.Errorf("dashboard: get: %w", err)
	}
	st.RunID = run.Int64
	if err := json.Unmarshal([]byte(raw), &st.Document); err != nil {
		return st, fmt.Errorf("dashboard: decode: %w", err)
	}
	st.Document.GoalPaceHeld = held
	if err := json.Unmarshal([]byte(quotes), &st.Quotes); err != nil {
		return st, fmt.Errorf("dashboard: decode quotes: %w", err)
	}
	var err error
	st.CreatedAt, err = store.ParseTime(created)
	return st, err
}

// History lists a member's stored days, newest first.
func (s *Store) History(ctx context.Context, member string, limit int) ([]string, error) {
	days, err := store.All(ctx, s.db.Read, store.Value[string], `SELECT day FROM dashboards WHERE member_id = ? ORDER BY day DESC LIMIT ?`, member, limit)
	if err != nil {
		return nil, fmt.Errorf("dashboard: history: %w", err)
	}
	return days, nil
}
