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
	m.CreatedAt = s.db.Now().UTC().Truncate(time.Millisecond)
	if m.Day == "" {
		m.Day = s.Day(m.CreatedAt)
	}
	if m.Status == "" {
		m.Status = "stored"
	}
	res, err := s.db.Write.ExecContext(ctx, `INSERT INTO voice_memos (member_id, day, prompt_id, path, mime, size, transcript, status, created_at)
		VALUES (?,?,?,?,?,?,?,?,?)`, m.MemberID, m.Day, m.PromptID, m.Path, m.MIME, m.Size, m.Transcript, m.Status, store.FormatTime(m.CreatedAt))
	if err != nil {
		return m, fmt.Errorf("dashboard: add voice memo: %w", err)
	}
	m.ID, err = res.LastInsertId()
	return m, err
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
	var n int
	var size int64
	err := s.db.Read.QueryRowContext(ctx, `SELECT count(*), COALESCE(SUM(size), 0) FROM voice_memos WHERE member_id = ? AND day = ?`,
		member, s.Day(now)).Scan(&n, &size)
	if err != nil {
		return 0, 0, fmt.Errorf("dashboard: voice usage: %w", err)
	}
	return n, size, nil
}
