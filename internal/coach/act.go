package coach

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/dashboard"
	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/internal/program"
	"hearth/internal/store"
)

// Act implements agent.Assignment. In the run's transaction it applies the
// run's updates (program, goals, memory), marks the answers it consumed,
// records follow-ups and data-quality flags in memory, logs coaching notes
// and stores today's document; screens are told after commit.
func (a *DailyDashboard) Act(ctx context.Context, tx *store.Tx, act *agent.ActEnv) error {
	g, ok := act.Gathered.(*Gathered)
	if !ok {
		return errGathered
	}
	var doc dashboard.Document
	if err := json.Unmarshal(act.Output, &doc); err != nil {
		return fmt.Errorf("coach: decode output: %w", err)
	}
	now := a.c.clock(act.Scope)
	member := act.Scope.MemberID
	doc.GeneratedAt = now.UTC().Truncate(time.Second)
	doc.GoalPaceHeld = g.Safety.NoWeightLossPush && g.goalBelow()
	if err := a.c.catalogTitles(ctx, &doc); err != nil {
		return err
	}
	var notes []string
	stateID := g.stateID
	for _, u := range g.Updates {
		applied, err := applyUpdate(ctx, tx, now, member, &stateID, u, act.Memory)
		if err != nil {
			return err
		}
		if !applied {
			a.c.log.Warn("coach: update not applied; the program changed since the run looked", "member", member, "update", u.Kind)
			continue
		}
		if u.Note != "" {
			notes = append(notes, updateNote(u))
		}
	}
	ids := make([]int64, 0, len(g.Prompts.Unprocessed))
	for _, ans := range g.Prompts.Unprocessed {
		ids = append(ids, ans.ID)
	}
	if err := dashboard.MarkProcessedTx(ctx, tx, now, ids); err != nil {
		return err
	}
	shown := make([]promptShown, 0, len(doc.Coach.Prompts))
	for _, p := range doc.Coach.Prompts {
		if dailyKind(p.ID) != "" {
			continue // a new question every day: nothing to follow up
		}
		shown = append(shown, promptShown{id: p.ID, question: p.Question})
	}
	if err := recordFollowUps(act.Memory, g.FollowUps, shown, g.Date); err != nil {
		return fmt.Errorf("coach: follow-ups: %w", err)
	}
	flagged, err := rememberFacts(act.Memory, g, doc)
	if err != nil {
		return fmt.Errorf("coach: memory: %w", err)
	}
	notes = append(notes, flagged...)
	for _, n := range notes {
		if _, err := insertNote(ctx, tx, now, member, n, act.Scope.RunID); err != nil {
			return err
		}
	}
	if err := a.c.dash.PutTx(ctx, tx, now, member, g.Date, act.Scope.RunID, doc, g.sources(len(notes))); err != nil {
		return err
	}
	return a.c.dash.QuoteTx(ctx, tx, member, g.Date, g.quotes(append([]string{doc.Coach.Briefing}, doc.Coach.Feedback...)...))
}

// quotes are the facts the briefing and the feedback quote, written as the
// dashboard renders them live (so a changed fact is recognised and
// replaced).
func (g *Gathered) quotes(texts ...string) []dashboard.Quote {
	var out []dashboard.Quote
	add := func(fact, text string) {
		if text == "" {
			return
		}
		for _, t := range texts {
			if strings.Contains(t, text) {
				out = append(out, dashboard.Quote{Fact: fact, Text: text})
				return
			}
		}
	}
	add(dashboard.FactWeightCurrent, g.Weight.CurrentText)
	add(dashboard.FactWeightChange7d, g.Weight.Change7dText)
	if g.Weight.Goal.Status == health.ETAOnTrack {
		add(dashboard.FactWeightETA, g.etaText())
	}
	add(dashboard.FactWorkoutsThisWeek, board.WorkoutsText(g.Training.Stats.ThisWeek))
	if y := g.Yesterday; y.Meals > 0 {
		add(dashboard.FactYesterdayKcal, dashboard.KcalText(y.Totals.Calories))
		add(dashboard.FactYesterdayProteinG, dashboard.ProteinText(y.Totals.ProteinG))
	}
	return out
}

// applyUpdate applies one update in tx; stateID follows a declaration.
// Program changes go through program's Tx functions, which write in the
// run's transaction (the single writer connection it holds, so
// program.Service cannot be called here) and are guarded by the state the
// run saw: a state changed since (an admin edit in between) is left alone
// and reported as not applied.
func applyUpdate(ctx context.Context, tx *store.Tx, now time.Time, member string, stateID *int64, u Update, mem *agent.Memory) (bool, error) {
	switch u.Kind {
	case UpdateDeclare:
		id, _, err := program.DeclareTx(ctx, tx, now, member, program.Declaration{ProgramID: u.ProgramID, Title: u.Title,
			StartDate: u.StartDate, Pattern: u.Pattern, FirstDay: u.Day, AnchorDay: u.AnchorDay})
		*stateID = id
		return err == nil, err
	case UpdateAdvance:
		return program.AdvanceTx(ctx, tx, now, *stateID, u.FromDay, u.Day)
	case UpdateComplete:
		return program.FinishTx(ctx, tx, now, *stateID, u.FromDay, u.Day)
	case UpdatePause:
		return program.PauseTx(ctx, tx, now, *stateID, "paused at the member's request")
	case UpdateResume:
		return program.ResumeTx(ctx, tx, now, *stateID, u.Anchor, u.Day)
	case UpdateSetDay:
		return program.SetDayTx(ctx, tx, now, *stateID, u.FromDay, u.Day, u.Anchor)
	case UpdatePace:
		return program.PaceTx(ctx, tx, now, *stateID, program.Pace(u.Pace), u.Day, u.Anchor)
	case UpdateGoal:
		g := health.Goal{MemberID: member, Kind: u.Goal.Kind, Description: u.Goal.Description}
		if u.Goal.TargetDate != "" {
			d, err := time.Parse(time.DateOnly, u.Goal.TargetDate)
			if err != nil {
				return false, fmt.Errorf("coach: goal date %q: %w", u.Goal.TargetDate, err)
			}
			g.TargetDate = &d
		}
		return true, store.InsertGoal(ctx, tx, now, &g)
	case UpdateGoalDate:
		var d *time.Time
		if u.TargetDate != "" {
			t, err := time.Parse(time.DateOnly, u.TargetDate)
			if err != nil {
				return false, fmt.Errorf("coach: goal date %q: %w", u.TargetDate, err)
			}
			d = &t
		}
		if err := store.SetGoalTargetDate(ctx, tx, member, u.GoalID, d); err != nil {
			if apperr.CodeOf(err) == apperr.NotFound {
				return false, nil // the goal was dropped meanwhile
			}
			return false, err
		}
		return true, nil
	case UpdateMemory:
		return true, mem.Set(u.Key, u.Value, time.Duration(u.TTLHours)*time.Hour)
	case UpdateForget:
		mem.Remove(u.Key)
		return true, nil
	}
	return false, fmt.Errorf("coach: unknown update %q", u.Kind)
}

// updateNote is the coaching note recording an update.
func updateNote(u Update) string {
	var effect string
	switch u.Kind {
	case UpdateDeclare:
		effect = fmt.Sprintf("declared %s from %s (%s)", u.Title, u.StartDate, u.Pattern)
	case UpdatePause:
		effect = "paused " + u.Title
	case UpdateResume:
		effect = "resumed " + u.Title
	case UpdateSetDay:
		effect = fmt.Sprintf("moved %s to day %d", u.Title, u.Day)
	case UpdatePace:
		effect = fmt.Sprintf("set %s to the member's own pace", u.Title)
	case UpdateGoal:
		effect = "added the goal " + u.Goal.Description
	case UpdateGoalDate:
		effect = fmt.Sprintf("set goal %d's target date to %q", u.GoalID, u.TargetDate)
	case UpdateMemory:
		effect = "remembered " + u.Key
	case UpdateForget:
		effect = "forgot " + u.Key
	default:
		return u.Note
	}
	return u.Note + " → " + effect
}

// catalogTitles sets every content reference's title to the catalog's
// (validation already matched ids and durations).
func (c *core) catalogTitles(ctx context.Context, doc *dashboard.Document) error {
	found, err := c.cat.Lookup(ctx, doc.ContentIDs())
	if err != nil {
		return fmt.Errorf("coach: catalog lookup: %w", err)
	}
	fix := func(r *dashboard.ContentRef) {
		if it, ok := found[r.ContentID]; ok {
			r.Title, r.Duration = it.Title, it.DurationMin
		}
	}
	if p := doc.Curated.UpNext.Primary; p != nil {
		fix(p)
	}
	for i := range doc.Curated.UpNext.Alternates {
		fix(&doc.Curated.UpNext.Alternates[i])
	}
	for i := range doc.Curated.PlaylistSuggestion {
		fix(&doc.Curated.PlaylistSuggestion[i])
	}
	return nil
}

// sources is the document's provenance, e.g. "weight, meals, program, 2 notes".
func (g *Gathered) sources(notes int) string {
	var parts []string
	add := func(ok bool, s string) {
		if ok {
			parts = append(parts, s)
		}
	}
	recentMeals := g.Week.DaysLogged > 0 || g.Today.Meals > 0
	h := g.History
	add(g.Weight.Readings > 0, "weight")
	add(g.Weight.Readings == 0 && h.WeighIns.Count > 0, "weight history")
	add(recentMeals, "meals")
	add(!recentMeals && h.Meals.Count > 0, "meal history")
	add(len(g.Training.Recent) > 0, "workouts")
	add(len(g.Training.Recent) == 0 && h.Workouts.Count > 0, "workout history")
	add(g.Body.HasScan, "body scan")
	add(g.Program.HasProgram, "program")
	add(len(g.Goals.Goals) > 0, "goals")
	add(len(g.Prompts.Unprocessed) > 0, plural(len(g.Prompts.Unprocessed), "answer"))
	add(len(g.NewMemos) > 0, plural(len(g.NewMemos), "voice memo"))
	add(notes > 0, plural(notes, "note"))
	if len(parts) == 0 {
		return "no data yet"
	}
	return strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
