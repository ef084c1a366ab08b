package dashboard

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/internal/store"
)

// Today is a member's dashboard as the screens show it now (DESIGN §2): the
// newest document on or before today with the staleness rules applied
// against live data, or, before the coach's first run, onboarding nudges.
// Screens only map it to their view models.
type Today struct {
	// Day is today on the household calendar.
	Day string
	// Doc is the newest document on or before Day; nil before the coach's
	// first run.
	Doc *Stored
	// PreparedAt is when Doc was written (its generated_at, else its row's
	// creation time).
	PreparedAt time.Time
	// UpNext is the primary suggestion, nil when there is none or it was
	// finished since the document was prepared (then it is UpNextDone).
	UpNext, UpNextDone *ContentRef
	// Alternates are the alternates not finished since.
	Alternates []ContentRef
	// Suggestion is the suggested playlist.
	Suggestion []ContentRef
	// Briefing is the coach's briefing with every quoted figure that has
	// changed since replaced by its live value (BriefingUpdated then).
	Briefing        string
	BriefingUpdated bool
	// CTAs are the document's calls to action without those live data now
	// answers (a weigh-in for "step on the scale", a meal dated yesterday
	// for "no meals logged yesterday", Up Next done for "play it").
	CTAs     []CTA
	Prompts  []PromptState
	Feedback []string
	// Onboarding are data-habit nudges from live state, shown while there
	// is no document.
	Onboarding []CTA
}

// PromptState is a prompt with what became of it.
type PromptState struct {
	Prompt
	// Answer replaces the prompt once it was answered.
	Answer *Answer
	// Voice is "stored" or "failed" while a voice reply waits for its
	// transcript or could not be transcribed ("" otherwise).
	Voice string
}

// Today returns member's dashboard as of now. A member without any
// document is not an error: Doc is nil and Onboarding says what to do.
func (s *Store) Today(ctx context.Context, member string, now time.Time) (Today, error) {
	b, err := s.Board(ctx, member, now)
	if err != nil {
		return Today{Day: s.Day(now)}, err
	}
	return s.TodayOf(ctx, b)
}

// TodayOf is Today for a board already loaded (the kiosk renders its
// widgets from the same one): the re-checks and re-quotes read its
// figures, so they agree with the widgets.
func (s *Store) TodayOf(ctx context.Context, b board.Board) (Today, error) {
	member, now := b.Member.ID, b.Now
	t := Today{Day: s.Day(now)}
	st, err := s.Latest(ctx, member, t.Day)
	switch {
	case apperr.Is(err, apperr.NotFound):
		t.Onboarding = onboarding(b)
		return t, nil
	case err != nil:
		return t, err
	}
	t.Doc = &st
	t.PreparedAt = st.Document.GeneratedAt
	if t.PreparedAt.IsZero() {
		t.PreparedAt = st.CreatedAt
	}
	since := s.since(st, t.PreparedAt, now)
	done, err := s.finished(ctx, member, since)
	if err != nil {
		return t, err
	}
	s.curated(&t, done)
	answers, err := s.Answers(ctx, member, st.Day)
	if err != nil {
		return t, err
	}
	memos, err := s.VoiceMemos(ctx, member, since.Add(-24*time.Hour))
	if err != nil {
		return t, err
	}
	s.coach(&t, b, answers, memos)
	return t, nil
}

// since is when the document's day began or it was prepared, whichever is
// earlier: content finished after that is done for this document.
func (s *Store) since(st Stored, prepared, now time.Time) time.Time {
	start := s.DayStart(now)
	if d, err := time.ParseInLocation(time.DateOnly, st.Day, s.loc); err == nil {
		start = d
	}
	if !prepared.IsZero() && prepared.Before(start) {
		return prepared
	}
	return start
}

// finished lists the content the member finished since t: a "done" tap, or
// a logged workout that names the content (from whatever screen, script or
// import it came).
func (s *Store) finished(ctx context.Context, member string, t time.Time) (map[string]bool, error) {
	marks, err := s.ConsumedSince(ctx, member, t)
	if err != nil {
		return nil, err
	}
	done := make(map[string]bool, len(marks))
	for id := range marks {
		done[id] = true
	}
	ids, err := store.All(ctx, s.db.Read, store.Value[string], `SELECT DISTINCT content_id FROM workouts
		WHERE member_id = ? AND content_id IS NOT NULL AND content_id <> '' AND started_at >= ?`, member, store.FormatTime(t))
	if err != nil {
		return nil, fmt.Errorf("dashboard: finished workouts: %w", err)
	}
	for _, id := range ids {
		done[id] = true
	}
	return done, nil
}

// curated applies "finished content is done" to the curated area.
func (s *Store) curated(t *Today, done map[string]bool) {
	cur := t.Doc.Document.Curated
	if p := cur.UpNext.Primary; p != nil {
		ref := *p
		if done[p.ContentID] {
			t.UpNextDone = &ref
		} else {
			t.UpNext = &ref
		}
	}
	for _, a := range cur.UpNext.Alternates {
		if !done[a.ContentID] {
			t.Alternates = append(t.Alternates, a)
		}
	}
	t.Suggestion = cur.PlaylistSuggestion
}

// coach applies the coach column's rules: a CTA is hidden once live data
// holds what it asks for; quoted figures are brought up to date; answering
// a prompt replaces it with the answer; a voice reply shows its state until
// it has a transcript.
func (s *Store) coach(t *Today, b board.Board, answers map[string]Answer, memos []VoiceMemo) {
	doc := t.Doc.Document.Coach
	t.Briefing, t.BriefingUpdated = requote(b, t.Doc.Day, doc.Briefing, t.Doc.Quotes)
	for _, f := range doc.Feedback {
		f, _ = requote(b, t.Doc.Day, f, t.Doc.Quotes)
		t.Feedback = append(t.Feedback, f)
	}
	for _, c := range doc.CTA {
		if ctaDone(b, c, t, t.Doc.Day) {
			continue
		}
		t.CTAs = append(t.CTAs, c)
	}
	memoState := map[string]string{}
	for _, m := range memos { // newest first
		if m.Day >= t.Doc.Day && memoState[m.PromptID] == "" {
			memoState[m.PromptID] = m.Status
		}
	}
	for _, p := range doc.Prompts {
		ps := PromptState{Prompt: p}
		if a, ok := answers[p.ID]; ok {
			ps.Answer = &a
		} else if st := memoState[p.ID]; st == "stored" || st == "failed" {
			ps.Voice = st
		}
		t.Prompts = append(t.Prompts, ps)
	}
}

// onboarding are the nudges shown until the coach's first document: weigh
// in once (again, when the last weigh-in is history), log today's meals,
// log a workout when none in a week.
func onboarding(b board.Board) []CTA {
	now, loc := b.Now, b.Loc
	var out []CTA
	weigh := CTA{Type: CTADataGap, Action: ActionOpenWeight, Record: RecordWeight, Day: DayAny, Macro: MacroNone}
	switch last, stale := b.Weight.Last(now, loc); {
	case last == nil && b.Weight.LastAny.IsZero():
		weigh.Message = "Step on the scale: one weigh-in starts your trend."
		out = append(out, weigh)
	case stale:
		weigh.Message = "Your last weigh-in was " + health.DayText(last.MeasuredAt, now, loc) + ". Step on the scale to restart your trend."
		out = append(out, weigh)
	}
	if t := b.LastMeal; t.IsZero() || health.DaysAgo(t, now, loc) > 0 {
		out = append(out, CTA{Type: CTAHabit, Action: ActionOpenNutrition, Record: RecordMeal, Day: DayToday, Macro: MacroNone,
			Message: "Log today's meals to see them against your targets."})
	}
	if t := b.LastWorkout; t.IsZero() || health.DaysAgo(t, now, loc) > 7 {
		out = append(out, CTA{Type: CTAHabit, Action: ActionOpenWorkout, Record: RecordWorkout, Day: DayToday, Macro: MacroNone,
			Message: "Log your last workout, or pick something short from Up next."})
	}
	return out
}
