package coach

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/messages"
	"hearth/internal/program"
	"hearth/internal/store"
	"hearth/internal/text"
	"hearth/internal/workflow"
)

// Weekly review identifiers and its default schedule (Sundays, before
// lunch: the question waits on the kiosk for the member).
const (
	WeeklyReviewID       = "weekly-review"
	WeeklyReviewSchedule = "0 9 * * 0"
)

// The weekly review's answers.
const (
	ChoiceHarder = "harder"
	ChoiceSame   = "same"
	ChoiceEasier = "easier"
)

// Memory keys the weekly review writes.
const (
	// keyWeeklyReview is the last review's decision (14 days).
	keyWeeklyReview = "program:weekly-review"
	// keyEasierWeek asks the planner for the light options first for a
	// week, when the pattern cannot lose a day (7 days).
	keyEasierWeek = "program:easier-week"
)

// weeklyQuestion is what the review asks on the kiosk.
const weeklyQuestion = "How did this week feel? Harder, same, or easier next week?"

// weeklyAcks are what the kiosk says once an answer is tapped; what the
// answer changed follows as a message from the coach (adjustWeek).
var weeklyAcks = []string{"Noted: a harder week next. I'll tell you what changes.",
	"Noted: the same again next week.", "Noted: an easier week next. I'll tell you what changes."}

// weekSummary is the summarise step's output.
type weekSummary struct {
	Week    string `json:"week"` // "Mon 9 Feb – Sun 15 Feb"
	Summary string `json:"summary"`
	Source  string `json:"source"`
}

var (
	summarySchema = map[string]any{
		"type": "object", "required": []string{"week", "summary", "source"},
		"properties": map[string]any{
			"week": map[string]any{"type": "string"}, "summary": map[string]any{"type": "string", "minLength": 1, "maxLength": 800},
			"source": map[string]any{"type": "string"},
		},
	}
	choiceSchema = map[string]any{
		"type": "object", "required": []string{"choice"}, "additionalProperties": false,
		"properties": map[string]any{"choice": map[string]any{"enum": []string{ChoiceHarder, ChoiceSame, ChoiceEasier}}},
	}
	adjustedSchema = map[string]any{
		"type": "object", "required": []string{"choice", "decision"},
		"properties": map[string]any{
			"choice": map[string]any{"type": "string"}, "decision": map[string]any{"type": "string"},
			"pattern": map[string]any{"type": "string"},
		},
	}
	modelSummarySchema = map[string]any{
		"type": "object", "required": []string{"summary"}, "additionalProperties": false,
		"properties": map[string]any{"summary": map[string]any{"type": "string", "minLength": 1, "maxLength": 600}},
	}
)

// WeeklyReviewWorkflow is the coach's weekly review: summarise the week
// (the model through the engine's loop, or the heuristic coach from the
// tools' figures), ask the member on the kiosk "harder, same, or easier
// next week?" and wait for the tap, then adjust: harder adds a training
// day to the program's week, easier takes one away (or, when the week
// cannot lose a day, has the coach offer the light options first for a
// week), same keeps it; the decision is recorded in the coach's memory,
// in the same transaction as the program change.
func WeeklyReviewWorkflow(deps Deps) (*workflow.Workflow, error) {
	c := newCore(deps)
	summarise := &workflow.Step{ID: "summarise", Description: "Summarise the member's week from their figures",
		Input: noInput, Output: summarySchema,
		Run: func(ctx context.Context, sc *workflow.Context) (any, error) { return c.summariseWeek(ctx, sc) }}
	ask := &workflow.Step{ID: "ask", Description: "Ask the member on the kiosk: harder, same, or easier next week?",
		Input: summarySchema, Suspend: workflow.QuestionSchema, Resume: choiceSchema, Output: choiceSchema,
		Run: func(ctx context.Context, sc *workflow.Context) (any, error) {
			if ans, ok := sc.Resumed(); ok {
				return ans, nil
			}
			var s weekSummary
			if err := sc.Decode(&s); err != nil {
				return nil, err
			}
			return nil, sc.Suspend(workflow.Question{Question: weeklyQuestion, Options: []string{"Harder", "Same", "Easier"},
				Values: []string{ChoiceHarder, ChoiceSame, ChoiceEasier}, Field: "choice", Context: s.Summary,
				Acks: weeklyAcks})
		}}
	adjust := &workflow.Step{ID: "adjust", Description: "Adjust the program's pace or the coach's choices, and remember the decision",
		Input: choiceSchema, Output: adjustedSchema,
		Run: func(ctx context.Context, sc *workflow.Context) (any, error) { return c.adjustWeek(ctx, sc) }}
	return workflow.New(WeeklyReviewID, "The coach's weekly review: a summary of the week, one question on the kiosk, and next week adjusted to the answer.").
		Schemas(noInput, adjustedSchema, nil).
		Engine(AgentID, WeeklyReviewID).Single().
		Then(summarise).Then(ask).Then(adjust).Commit()
}

// weekFacts are the figures the summary may quote.
type weekFacts struct {
	Week      string               `json:"week"`
	Weight    WeightView           `json:"weight"`
	Training  WorkoutsView         `json:"training"`
	Nutrition NutritionHistoryView `json:"nutrition_7d"`
	Program   ProgramView          `json:"program"`
}

func (c *core) weekFacts(ctx context.Context, member string, now time.Time) (weekFacts, error) {
	m, err := c.rec.Member(ctx, member)
	if err != nil {
		return weekFacts{}, err
	}
	var f weekFacts
	today := civilDate(now, c.loc)
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	f.Week = shortDate(monday.Format(time.DateOnly), today) + " – " + shortDate(monday.AddDate(0, 0, 6).Format(time.DateOnly), today)
	if f.Weight, err = c.weightView(ctx, m, now); err != nil {
		return f, err
	}
	if f.Training, err = c.workoutsView(ctx, m, 7, now); err != nil {
		return f, err
	}
	if f.Nutrition, err = c.nutritionHistory(ctx, m, 7, now); err != nil {
		return f, err
	}
	f.Program, err = c.programView(ctx, member, now)
	return f, err
}

// maxSummaryLines and maxSummaryLine bound the summary the question shows
// on the kiosk: read at a glance from a few steps away, not a block of
// figures (issue 32 saw "Meals: 7 days to Fri 27 Nov 2026: 6 logged
// (missing Fri 27 Nov), daily average 1,414 of 1,700 kcal (83%)…").
const (
	maxSummaryLines = 3
	maxSummaryLine  = 80
)

// heuristicSummary is the week at a glance, one short line each: training
// against the member's usual, the weight and its week's change, the days
// with meals logged (the program's place when there is no weight).
func (f weekFacts) heuristicSummary() string {
	st := f.Training.Stats
	train := upperFirst(plural(st.ThisWeek, "workout")) + " this week"
	if st.UsualPerWeek != nil {
		train += ", you usually do " + num(*st.UsualPerWeek)
	}
	lines := []string{train + "."}
	if f.Weight.Readings > 0 && f.Weight.CurrentText != "" {
		w := "Weight " + f.Weight.CurrentText
		if f.Weight.Change7dText != "" {
			w += ", " + f.Weight.Change7dText + " in 7 days"
		}
		lines = append(lines, w+".")
	}
	if n := f.Nutrition; n.DaysLogged+n.DaysMissing > 0 {
		lines = append(lines, fmt.Sprintf("Meals logged on %d of %d days.", n.DaysLogged, n.DaysLogged+n.DaysMissing))
	}
	if p := f.Program; p.HasProgram && len(lines) < maxSummaryLines && p.Week != "" {
		lines = append(lines, p.Title+": "+p.Week+".")
	}
	for i, l := range lines {
		l, _ = text.Clean(text.Line, l)
		lines[i] = clipText(l, maxSummaryLine)
	}
	return strings.Join(lines[:min(len(lines), maxSummaryLines)], "\n")
}

// checkSummary holds a model's summary to the kiosk's glance: three short
// lines at most.
func checkSummary(s string) []agent.ValidationError {
	lines := strings.Split(s, "\n")
	if len(lines) > maxSummaryLines {
		return []agent.ValidationError{{Path: "/summary", Message: fmt.Sprintf("has %d lines; write %d short lines at most", len(lines), maxSummaryLines)}}
	}
	for _, l := range lines {
		if n := len([]rune(strings.TrimSpace(l))); n > maxSummaryLine+20 || n == 0 {
			return []agent.ValidationError{{Path: "/summary", Message: fmt.Sprintf("each line must be 1 to %d characters (one is %d)", maxSummaryLine, n)}}
		}
	}
	return nil
}

func (c *core) summariseWeek(ctx context.Context, sc *workflow.Context) (weekSummary, error) {
	x := sc.Exec()
	f, err := c.weekFacts(ctx, sc.Member, x.Now())
	if err != nil {
		return weekSummary{}, err
	}
	out := weekSummary{Week: f.Week, Summary: f.heuristicSummary(), Source: agent.SourceHeuristic}
	why, err := x.NoModelReason(ctx)
	if err != nil || why != "" {
		return out, err
	}
	mem, err := x.Memory(ctx, AgentID)
	if err != nil {
		return out, err
	}
	facts, err := json.Marshal(f)
	if err != nil {
		return out, err
	}
	numbers, err := collectNumbers(f)
	if err != nil {
		return out, err
	}
	sch, err := agent.CompileSchema("weekly-summary", modelSummarySchema)
	if err != nil {
		return out, err
	}
	system := Persona + "\n\n## This run\nWrite the member's weekly review, shown above a question on the kiosk: at most three " +
		"short lines (one sentence each, under 80 characters, separated by new lines) on their week, warm and concrete, " +
		"quoting only figures from the facts.\n\n## Working memory\n" + mem.Serialize()
	end := x.Phase(ctx, agent.PhasePrompt)
	x.SetPrompt(agent.Prompt{System: system, User: string(facts)})
	end()
	res, err := x.Reason(ctx, agent.Reasoning{
		ModelRequest: agent.ModelRequest{System: system, Messages: []agent.Message{{Role: agent.RoleUser, Content: string(facts)}},
			Output: &agent.OutputSchema{Name: "weekly_summary", Schema: modelSummarySchema}},
		Retries: 1,
		Check: func(_ context.Context, raw string) (any, []agent.ValidationError, error) {
			doc := agent.ExtractJSON(raw)
			if errs := sch.Validate([]byte(doc)); len(errs) > 0 {
				return nil, errs, nil
			}
			var s struct{ Summary string }
			_ = json.Unmarshal([]byte(doc), &s)
			clean, _ := text.Clean(text.Multi, strings.TrimSpace(s.Summary))
			if clean == "" {
				return nil, []agent.ValidationError{{Path: "/summary", Message: "is empty"}}, nil
			}
			if errs := checkNumbers("/summary", clean, numbers); len(errs) > 0 {
				return nil, errs, nil
			}
			if errs := checkSummary(clean); len(errs) > 0 {
				return nil, errs, nil
			}
			return clean, nil, nil
		}})
	if err != nil {
		if ctx.Err() != nil {
			return out, err
		}
		x.MarkFellBack(agent.ModelFallbackReason(err))
		return out, nil
	}
	out.Summary, out.Source = res.(string), agent.SourceModel
	return out, nil
}

// adjustment is what the answer changes.
type adjustment struct {
	Choice   string `json:"choice"`
	Decision string `json:"decision"`
	Pattern  string `json:"pattern,omitempty"`
}

func (c *core) adjustWeek(ctx context.Context, sc *workflow.Context) (adjustment, error) {
	var in struct {
		Choice string `json:"choice"`
	}
	if err := sc.Decode(&in); err != nil {
		return adjustment{}, err
	}
	x := sc.Exec()
	now := x.Now()
	mem, err := x.Memory(ctx, AgentID)
	if err != nil {
		return adjustment{}, err
	}
	st, err := c.prog.Current(ctx, sc.Member)
	hasProgram := err == nil && (st.Status == program.Active || st.Status == program.Paused)
	if err != nil && !apperr.Is(err, apperr.NotFound) {
		return adjustment{}, err
	}
	out := adjustment{Choice: in.Choice}
	var op *program.Op
	var pat program.Pattern
	if hasProgram {
		if pat, err = program.ParsePattern(st.Pattern); err != nil {
			return adjustment{}, err
		}
	}
	// tell is what the member reads about the change, in their words.
	var tell string
	switch in.Choice {
	case ChoiceHarder:
		next, ok := morePattern(pat)
		switch {
		case !hasProgram:
			out.Decision = "asked for a harder week; no program to speed up, so the coach will suggest one"
			tell = "You asked for a harder week. You're not on a program yet: I'll suggest one."
		case !ok:
			out.Decision = st.ProgramTitle + " already trains every day; kept as it is"
			tell = "You asked for a harder week. " + st.ProgramTitle + " already trains every day, so it stays as it is."
		default:
			tell = fmt.Sprintf("A harder week next: %s now trains on %s (was %s).", st.ProgramTitle, weekdayList(next), weekdayList(pat))
			out.Pattern = next.String()
			out.Decision = fmt.Sprintf("%s now trains %s (was %s)", st.ProgramTitle, out.Pattern, pat.String())
		}
	case ChoiceEasier:
		next, ok := lessPattern(pat)
		if hasProgram && ok {
			tell = fmt.Sprintf("An easier week next: %s now trains on %s (was %s).", st.ProgramTitle, weekdayList(next), weekdayList(pat))
			out.Pattern = next.String()
			out.Decision = fmt.Sprintf("%s now trains %s (was %s)", st.ProgramTitle, out.Pattern, pat.String())
		} else {
			out.Decision = "the coach offers the light options first for a week"
			tell = "An easier week next: I'll offer the lighter options first for a week."
			if err := mem.Set(keyEasierWeek, "Asked for an easier week ("+dateOf(now, c.loc)+"): offer light options first", 7*24*time.Hour); err != nil {
				return adjustment{}, err
			}
		}
	default:
		out.Decision = "keeps the same pace"
		tell = "Same pace next week: your plan stays as it is."
	}
	if out.Pattern != "" {
		o, err := c.prog.SetPatternOp(sc.Member, out.Pattern)
		if err != nil {
			return adjustment{}, err
		}
		op = &o
	}
	note := fmt.Sprintf("Weekly review %s: asked for %s next week; %s", dateOf(now, c.loc), in.Choice, out.Decision)
	if err := mem.Set(keyWeeklyReview, clipText(note, agent.MaxMemoryValueLen), 14*24*time.Hour); err != nil {
		return adjustment{}, err
	}
	err = x.Commit(ctx, func(tx *store.Tx) error {
		if op != nil {
			if err := c.prog.DoTx(ctx, tx, *op); err != nil {
				return err
			}
		}
		// The member hears what their answer changed, with the change.
		if c.msgs != nil {
			if _, err := c.msgs.SendTx(ctx, tx, sc.Member, AgentID, tell, messages.Via{Source: "weekly review", RunID: x.RunID()}); err != nil {
				return err
			}
		}
		return sc.Complete(ctx, tx, out)
	})
	return out, err
}

// weekdayList names a pattern's training days as a person says them:
// "Mon, Wed and Fri", "every day".
func weekdayList(p program.Pattern) string {
	if p.Count() == 7 {
		return "every day"
	}
	var days []string
	for _, d := range week {
		if p.Has(d) {
			days = append(days, d.String()[:3])
		}
	}
	return joinAnd(days)
}

// morePattern adds a training day: the rest day with the fewest training
// days next to it (so sessions land back to back only when they must),
// the first such day Monday first.
func morePattern(p program.Pattern) (program.Pattern, bool) {
	best, fewest := time.Weekday(-1), 3
	for _, d := range week {
		if p.Has(d) {
			continue
		}
		n := 0
		if p.Has((d + 6) % 7) {
			n++
		}
		if p.Has((d + 1) % 7) {
			n++
		}
		if n < fewest {
			best, fewest = d, n
		}
	}
	if best < 0 {
		return p, false
	}
	p[best] = true
	return p, true
}

// lessPattern takes away the last training day of the week (Monday
// first), keeping at least two.
func lessPattern(p program.Pattern) (program.Pattern, bool) {
	if p.Count() <= 2 {
		return p, false
	}
	for i := len(week) - 1; i >= 0; i-- {
		if d := week[i]; p.Has(d) {
			p[d] = false
			return p, true
		}
	}
	return p, false
}

// week is Monday to Sunday.
var week = []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday}
