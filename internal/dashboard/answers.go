package dashboard

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/text"
)

// Answer is a member's reply to a prompt.
type Answer struct {
	ID          int64      `json:"id"`
	MemberID    string     `json:"member"`
	Day         string     `json:"day"`
	PromptID    string     `json:"prompt_id"`
	Question    string     `json:"question"`
	Answer      string     `json:"answer"`
	Kind        string     `json:"kind"` // tap | text | voice
	VoiceMemoID int64      `json:"voice_memo_id,omitempty"`
	AnsweredAt  time.Time  `json:"answered_at"`
	ProcessedAt *time.Time `json:"processed_at,omitempty"`
}

// MaxAnswerLen caps a typed answer.
const MaxAnswerLen = 1000

// RecordAnswer stores the answer to a prompt of the member's current
// document. A tap must be one of the prompt's options; text is the fallback
// for any prompt. Answering twice is a Conflict: the first answer stands.
func (s *Store) RecordAnswer(ctx context.Context, member, promptID, answer, kind string, voiceMemoID int64) (Answer, error) {
	now := s.db.Now()
	day := s.Day(now)
	st, err := s.Latest(ctx, member, day)
	if err != nil {
		return Answer{}, apperr.NotFoundf("no prompt %q for %s today", promptID, member)
	}
	p, ok := st.Document.Prompt(promptID)
	if !ok {
		return Answer{}, apperr.NotFoundf("no prompt %q for %s today", promptID, member)
	}
	errs := map[string]string{}
	if answer = text.Required(errs, "answer", text.Multi, answer, MaxAnswerLen); answer == "" {
		return Answer{}, apperr.FieldErrors(errs)
	}
	switch {
	case kind == "tap" && !contains(p.Options, answer):
		return Answer{}, apperr.FieldErrors(map[string]string{"answer": "must be one of the prompt's options"})
	case kind != "tap" && kind != "text" && kind != "voice":
		return Answer{}, apperr.Invalidf("unknown answer kind %q", kind)
	}
	a := Answer{MemberID: member, Day: st.Day, PromptID: promptID, Question: p.Question, Answer: answer, Kind: kind,
		VoiceMemoID: voiceMemoID, AnsweredAt: now.UTC().Truncate(time.Millisecond)}
	res, err := s.db.Write.ExecContext(ctx, `INSERT INTO prompt_answers (member_id, day, prompt_id, question, answer, kind,
		voice_memo_id, answered_at) VALUES (?,?,?,?,?,?,?,?)`, member, a.Day, promptID, p.Question, answer, kind,
		sql.NullInt64{Int64: voiceMemoID, Valid: voiceMemoID != 0}, store.FormatTime(a.AnsweredAt))
	if err != nil {
		if store.IsUnique(err) {
			return Answer{}, apperr.New(apperr.Conflict, "this prompt was already answered")
		}
		return Answer{}, fmt.Errorf("dashboard: record answer: %w", err)
	}
	a.ID, _ = res.LastInsertId()
	if s.pub != nil {
		s.pub.Publish(live.MemberTopic(member), live.KindAnswer, promptID)
	}
	return a, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// Answers lists a member's answers for a day (all prompts of that document).
func (s *Store) Answers(ctx context.Context, member, day string) (map[string]Answer, error) {
	list, err := s.answers(ctx, `WHERE member_id = ? AND day = ?`, member, day)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Answer, len(list))
	for _, a := range list {
		out[a.PromptID] = a
	}
	return out, nil
}

// RecentAnswers lists answers given since a time, newest first.
func (s *Store) RecentAnswers(ctx context.Context, member string, since time.Time) ([]Answer, error) {
	return s.answers(ctx, `WHERE member_id = ? AND answered_at >= ? ORDER BY answered_at DESC`, member, store.FormatTime(since))
}

// UnprocessedAnswers lists answers no coach run has consumed yet, oldest first.
func (s *Store) UnprocessedAnswers(ctx context.Context, member string) ([]Answer, error) {
	return s.answers(ctx, `WHERE member_id = ? AND processed_at IS NULL ORDER BY answered_at`, member)
}

func (s *Store) answers(ctx context.Context, where string, args ...any) ([]Answer, error) {
	out, err := store.All(ctx, s.db.Read, scanAnswer, `SELECT id, member_id, day, prompt_id, question, answer, kind,
		voice_memo_id, answered_at, processed_at FROM prompt_answers `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("dashboard: answers: %w", err)
	}
	return out, nil
}

func scanAnswer(row store.Scanner) (Answer, error) {
	var a Answer
	var memo sql.NullInt64
	var at string
	var processed sql.NullString
	if err := row.Scan(&a.ID, &a.MemberID, &a.Day, &a.PromptID, &a.Question, &a.Answer, &a.Kind, &memo, &at, &processed); err != nil {
		return a, err
	}
	a.VoiceMemoID = memo.Int64
	var err error
	if a.AnsweredAt, err = store.ParseTime(at); err != nil {
		return a, err
	}
	a.ProcessedAt, err = store.ParseNullTime(processed)
	return a, err
}

// MarkProcessedTx marks answers consumed by a run, inside the run's act transaction.
func MarkProcessedTx(ctx context.Context, tx *store.Tx, now time.Time, ids []int64) error {
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `UPDATE prompt_answers SET processed_at = ? WHERE id = ?`, store.FormatTime(now), id); err != nil {
			return fmt.Errorf("dashboard: mark processed: %w", err)
		}
	}
	return nil
}
