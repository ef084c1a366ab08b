package dashboard

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// VoiceMemo is a recorded reply; Transcript is empty until transcribed.
type VoiceMemo struct {
	ID         int64     `json:"id"`
	MemberID   string    `json:"member"`
	Day        string    `json:"day"`
	PromptID   string    `json:"prompt_id"`
	Path       string    `json:"-"` // under the data directory; never rendered
	MIME       string    `json:"mime"`
	Size       int64     `json:"size"`
	Transcript string    `json:"transcript"`
	Status     string    `json:"status"` // stored | transcribed | failed
	CreatedAt  time.Time `json:"created_at"`
}

// AddVoiceMemo records a stored audio file.
func (s *Store) AddVoiceMemo(ctx context.Context, m VoiceMemo) (VoiceMemo, error) {
	m, _, err := s.AddVoiceMemoWithin(ctx, m, VoiceQuota{})
	return m, err
}

// VoiceQuota caps a member's memos on one household day; zero fields are
// unlimited.
type VoiceQuota struct {
	Memos int
	Bytes int64
}

// AddVoiceMemoWithin records a stored audio file unless it would take the
// member past q on the memo's day (ok false, nothing written). The count
// and the insert are one write transaction: uploads arriving together are
// counted one after another, so none passes a check made before the
// others were stored.
func (s *Store) AddVoiceMemoWithin(ctx context.Context, m VoiceMemo, q VoiceQuota) (VoiceMemo, bool, error) {
	m.CreatedAt = s.db.Now().UTC().Truncate(time.Millisecond)
	if m.Day == "" {
		m.Day = s.Day(m.CreatedAt)
	}
	if m.Status == "" {
		m.Status = "stored"
	}
	ok := true
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		if q.Memos > 0 || q.Bytes > 0 {
			n, used, err := voiceUsage(ctx, tx, m.MemberID, m.Day)
			if err != nil {
				return err
			}
			if (q.Memos > 0 && n >= q.Memos) || (q.Bytes > 0 && used+m.Size > q.Bytes) {
				ok = false
				return nil
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO voice_memos (member_id, day, prompt_id, path, mime, size, transcript, status, created_at)
			VALUES (?,?,?,?,?,?,?,?,?)`, m.MemberID, m.Day, m.PromptID, m.Path, m.MIME, m.Size, m.Transcript, m.Status, store.FormatTime(m.CreatedAt))
		if err != nil {
			return fmt.Errorf("dashboard: add voice memo: %w", err)
		}
		m.ID, err = res.LastInsertId()
		return err
	})
	return m, ok && err == nil, err
}

// SetTranscript stores a memo's transcript (status transcribed) or a failure.
func (s *Store) SetTranscript(ctx context.Context, id int64, transcript string, failed bool) error {
	status := "transcribed"
	if failed {
		status = "failed"
	}
	_, err := s.db.Write.ExecContext(ctx, `UPDATE voice_memos SET transcript = ?, status = ? WHERE id = ?`, transcript, status, id)
	if err != nil {
		return fmt.Errorf("dashboard: set transcript: %w", err)
	}
	return nil
}

// VoiceMemos lists a member's memos since t, newest first.
func (s *Store) VoiceMemos(ctx context.Context, member string, since time.Time) ([]VoiceMemo, error) {
	out, err := store.All(ctx, s.db.Read, func(row store.Scanner) (VoiceMemo, error) {
		var m VoiceMemo
		var at string
		if err := row.Scan(&m.ID, &m.MemberID, &m.Day, &m.PromptID, &m.Path, &m.MIME, &m.Size, &m.Transcript, &m.Status, &at); err != nil {
			return m, err
		}
		var err error
		m.CreatedAt, err = store.ParseTime(at)
		return m, err
	}, `SELECT id, member_id, day, prompt_id, path, mime, size, transcript, status, created_at
		FROM voice_memos WHERE member_id = ? AND created_at >= ? ORDER BY created_at DESC`, member, store.FormatTime(since))
	if err != nil {
		return nil, fmt.Errorf("dashboard: voice memos: %w", err)
	}
	return out, nil
}

// HasPrompt reports whether promptID is a prompt of the member's document
// for today: a voice memo answers a question the member was asked.
func (s *Store) HasPrompt(ctx context.Context, member, promptID string) (bool, error) {
	st, err := s.Latest(ctx, member, s.Day(s.db.Now()))
	if err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return false, nil
		}
		return false, err
	}
	_, ok := st.Document.Prompt(promptID)
	return ok, nil
}

// VoiceUsage counts a member's memos and their bytes on the household day
// of now, for the daily quota.
func (s *Store) VoiceUsage(ctx context.Context, member string, now time.Time) (int, int64, error) {
	return voiceUsage(ctx, s.db.Read, member, s.Day(now))
}

func voiceUsage(ctx context.Context, q store.Queryer, member, day string) (int, int64, error) {
	var n int
	var size int64
	err := q.QueryRowContext(ctx, `SELECT count(*), COALESCE(SUM(size), 0) FROM voice_memos WHERE member_id = ? AND day = ?`,
		member, day).Scan(&n, &size)
	if err != nil {
		return 0, 0, fmt.Errorf("dashboard: voice usage: %w", err)
	}
	return n, size, nil
}
