package coach

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/health"
)

// MemberInfo is who the dashboard is for.
type MemberInfo struct {
	ID   string      `json:"id"`
	Name string      `json:"name"`
	Unit health.Unit `json:"unit"`
	Sex  string      `json:"sex,omitempty"`
	// Age is from the birth date on the profile (0: unknown); LifeStage
	// names a minor or an older adult (conditions.go).
	Age       int    `json:"age,omitempty"`
	LifeStage string `json:"life_stage,omitempty"`
}

// Gaps are the data-quality facts behind CTAs and onboarding.
type Gaps struct {
	// Onboarding: no goals, no program and no recent data (HistoryOnly:
	// but older records, imported or not).
	Onboarding  bool `json:"onboarding"`
	HistoryOnly bool `json:"history_only"`
	// NeverWeighed: no weigh-in, however old. WeighInStale: 5+ days since
	// the last one; LastWeighIn is its day when it is older than the weight
	// window (no current trend: HistoryWeighIn).
	NeverWeighed     bool   `json:"never_weighed"`
	WeighInStale     bool   `json:"weigh_in_stale"`
	DaysSinceWeighIn *int   `json:"days_since_weigh_in,omitempty"`
	HistoryWeighIn   bool   `json:"weigh_in_only_in_history"`
	LastWeighIn      string `json:"last_weigh_in,omitempty"`
	NoRecentMeals    bool   `json:"no_recent_meals"`    // nothing logged in the last 7 days
	NoMealsYesterday bool   `json:"no_meals_yesterday"` // logged lately, but not yesterday
	// DaysWithoutMeals: the complete days since the last one with a meal
	// (0 when yesterday had one, or when nothing was ever logged).
	DaysWithoutMeals int      `json:"days_without_meals,omitempty"`
	LastMealDay      string   `json:"last_meal_day,omitempty"`
	ProteinLow       bool     `json:"protein_low"` // 7-day average under 90% of target
	ProteinAvg       *float64 `json:"protein_avg,omitempty"`
	ProteinTarget    *float64 `json:"protein_target,omitempty"`
	// NoWorkouts: none ever; DaysSinceWorkout counts from the last one,
	// however old (LastWorkout, its day).
	NoWorkouts       bool   `json:"no_workouts"`
	DaysSinceWorkout *int   `json:"days_since_workout,omitempty"`
	LastWorkout      string `json:"last_workout,omitempty"`
	RestDays         int    `json:"rest_days"`
	// HardDays: days in a row with a hard session (HardRunDays earn a
	// recovery day); LongAbsence: LongAbsenceDays or more without a workout.
	HardDays    int  `json:"hard_days_in_a_row"`
	LongAbsence bool `json:"long_absence"`
}

// Gap thresholds.
const (
	StaleWeighInDays  = 5
	CheckInRestDays   = 2
	proteinLowShare   = 0.9
	minLoggedForAvg   = 2
	memoLookbackDays  = 7
	answerLookbackDay = 14
)

// Gathered is everything a daily-dashboard run knows: the tools' compact
// results, follow-up bookkeeping, and the updates act will apply. Program
// is the program as it will be after those updates.
type Gathered struct {
	Member    MemberInfo           `json:"member"`
	Date      string               `json:"date"`
	Weekday   string               `json:"weekday"`
	Weight    WeightView           `json:"weight"`
	Today     NutritionDayView     `json:"nutrition_today"`
	Yesterday NutritionDayView     `json:"nutrition_yesterday"`
	Week      NutritionHistoryView `json:"nutrition_7d"`
	Training  WorkoutsView         `json:"training"`
	Body      BodyView             `json:"body"`
	// History is every record, however old, imports included: what the
	// recent windows above do not see.
	History   HistoryView         `json:"history"`
	Goals     GoalsView           `json:"goals"`
	Program   ProgramView         `json:"program"`
	Menu      []content.MenuEntry `json:"menu"`
	Programs  []ProgramBrief      `json:"programs"`
	Prompts   PromptsView         `json:"prompts"`
	Memos     []MemoLine          `json:"voice_memos"`
	NewMemos  []MemoLine          `json:"new_voice_memos"`
	FollowUps FollowUps           `json:"follow_ups"`
	Updates   []Update            `json:"updates"`
	// GoalProposal is a goal the member named in passing (a chat, a
	// memo), waiting for their tap to confirm it: ask about it.
	GoalProposal *GoalSpec `json:"goal_proposal,omitempty"`
	Gaps         Gaps      `json:"gaps"`
	Safety       Safety    `json:"safety"`
	// Walking is the walking progression of a member who only walks.
	Walking *WalkPlan `json:"walking_plan,omitempty"`
	// Beliefs are the member's life-plan beliefs still open to evidence
	// (hypothesized, testing): logged data may bear on them, and the model
	// may propose a note (lifeplan_propose_evidence) the member accepts.
	Beliefs []BeliefLine `json:"open_beliefs,omitempty"`

	now     time.Time
	civil   time.Time // today as a civil date
	loc     *time.Location
	seed    int // day-and-member rotation seed
	facts   *numberSet
	byID    map[string]content.MenuEntry
	stateID int64 // the program state the updates apply to (0 = none)
	base    ProgramView
	mutant  Mutant // the eval's broken coach (Deps.Mutant)
}

// BeliefLine is a life-plan belief as the daily run sees it.
type BeliefLine struct {
	ID    int64  `json:"id"`
	If    string `json:"if"`
	Then  string `json:"then"`
	State string `json:"state"`
}

// call runs a read tool through the toolbox and checks its result type.
func call[T any](ctx context.Context, env *agent.Env, name string, args map[string]any) (T, error) {
	var zero T
	var a any
	if args != nil {
		a = args
	}
	v, err := env.Call(ctx, name, a)
	if err != nil {
		return zero, fmt.Errorf("coach: gather %s: %w", name, err)
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("coach: gather %s: unexpected result %T", name, v)
	}
	return t, nil
}

// gather collects the run's facts through the tools.
func (c *core) gather(ctx context.Context, env *agent.Env) (*Gathered, error) {
	m, err := c.member(ctx, env.Scope)
	if err != nil {
		return nil, err
	}
	now := c.clock(env.Scope)
	g := &Gathered{Member: MemberInfo{ID: m.ID, Name: m.Name, Unit: c.memberUnit(m.Unit), Sex: m.Sex}, Date: dateOf(now, c.loc),
		Weekday: now.In(c.loc).Weekday().String(), now: now, civil: civilDate(now, c.loc), loc: c.loc}
	g.seed = int(g.civil.Unix()/86400) + salt(m.ID)
	g.Member.Age = m.AgeOn(g.civil)
	g.Member.LifeStage = lifeStage(g.Member.Age)
	if g.Weight, err = call[WeightView](ctx, env, "get_weight_trend", nil); err != nil {
		return nil, err
	}
	if g.Today, err = call[NutritionDayView](ctx, env, "get_today_nutrition", map[string]any{"date": nil}); err != nil {
		return nil, err
	}
	if g.Yesterday, err = call[NutritionDayView](ctx, env, "get_today_nutrition", map[string]any{"date": "yesterday"}); err != nil {
		return nil, err
	}
	if g.Week, err = call[NutritionHistoryView](ctx, env, "get_nutrition_history", map[string]any{"days": 7}); err != nil {
		return nil, err
	}
	if g.Training, err = call[WorkoutsView](ctx, env, "get_recent_workouts", map[string]any{"limit": 5}); err != nil {
		return nil, err
	}
	if g.Body, err = call[BodyView](ctx, env, "get_body_composition", nil); err != nil {
		return nil, err
	}
	if g.History, err = call[HistoryView](ctx, env, "get_history_summary", nil); err != nil {
		return nil, err
	}
	menu, err := call[ContentView](ctx, env, "get_fitness_content",
		map[string]any{"kind": nil, "program": nil, "query": nil, "max_duration": nil, "limit": nil})
	if err != nil {
		return nil, err
	}
	g.Programs = menu.Programs
	if g.base, err = call[ProgramView](ctx, env, "get_program_state", nil); err != nil {
		return nil, err
	}
	if g.Goals, err = call[GoalsView](ctx, env, "get_user_goals", map[string]any{"include_inactive": nil}); err != nil {
		return nil, err
	}
	if g.Prompts, err = call[PromptsView](ctx, env, "get_prompt_responses", map[string]any{"days": answerLookbackDay}); err != nil {
		return nil, err
	}
	if g.Memos, err = call[[]MemoLine](ctx, env, "get_voice_memos", map[string]any{"days": memoLookbackDays}); err != nil {
		return nil, err
	}
	life, err := c.lifePlan(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	for _, b := range life.OpenBeliefs {
		g.Beliefs = append(g.Beliefs, BeliefLine{ID: b.ID, If: b.If, Then: b.Then, State: string(b.State)})
	}
	c.mutateFacts(g)
	if err := c.interpret(ctx, g, env.Memory); err != nil {
		return nil, err
	}
	if gp, ok := pendingProposal(env.Memory, g.Updates); ok {
		g.GoalProposal = &gp.Goal
	}
	g.Safety = safetyOf(g, memberSaid(env.Memory, g.Updates))
	g.mutateSafety()
	g.careForGoals()
	g.Walking = g.walkPlan()
	g.buildMenu(menu.Items)
	g.Gaps = gapsOf(g)
	g.mutateGaps()
	if g.facts, err = collectNumbers(g); err != nil {
		return nil, err
	}
	return g, nil
}

// interpret derives the follow-ups and the updates of this run, and the
// program as those updates leave it.
func (c *core) interpret(ctx context.Context, g *Gathered, mem *agent.Memory) error {
	var entries []agent.MemoryEntry
	if mem != nil {
		entries = mem.All()
	}
	g.FollowUps = computeFollowUps(entries, g.Prompts.Answers, g.Prompts.Unprocessed, g.Date)
	in := newInterpreter(g.Programs, g.base, g.Goals, g.civil, c.loc, entries)
	var us []Update
	for _, a := range g.Prompts.Unprocessed {
		for _, u := range in.answer(a) {
			u.AnswerID = a.ID
			us = append(us, u)
		}
	}
	g.NewMemos = []MemoLine{}
	for _, m := range g.Memos {
		if m.PromptID == "" && m.Status == "transcribed" && m.At.After(g.Prompts.latestAt) {
			g.NewMemos = append(g.NewMemos, m)
			for _, u := range in.memo(m) {
				u.MemoID = m.ID
				us = append(us, u)
			}
		}
	}
	us = keepLastDeclare(us)
	since := completedSince(g.base, g.civil, c.loc)
	if !hasKind(us, UpdateDeclare) {
		if u, ok := completionUpdate(g.base, g.Training.Completed, since); ok {
			us = append(us, u)
		}
	}
	g.stateID = g.base.stateID
	prog, us, err := c.applyProgram(ctx, g.base, us, g.civil, g.Training.Completed)
	if err != nil {
		return err
	}
	// A day set by this run ("Skip ahead to Day 5", a resumption) may be
	// one the member already did: sessions done since the state last
	// changed count for it as they count for any day.
	if moved(us) && !hasKind(us, UpdateAdvance) && !hasKind(us, UpdateComplete) {
		if u, ok := completionUpdate(prog, g.Training.Completed, since); ok {
			var more []Update
			if prog, more, err = c.applyProgram(ctx, prog, []Update{u}, g.civil, g.Training.Completed); err != nil {
				return err
			}
			us = append(us, more...)
		}
	}
	g.Program, g.Updates = prog, us
	if g.Updates == nil {
		g.Updates = []Update{}
	}
	return nil
}

// moved reports an update that sets the program's day without a session
// done: a set day, a resumption, a pace change.
func moved(us []Update) bool {
	return hasKind(us, UpdateSetDay) || hasKind(us, UpdateResume) || hasKind(us, UpdatePace)
}

// completedSince is when finished sessions start to count for the
// program's day: after the member reached it, or, when that was today,
// from the start of today. A session done this morning before a "skip to
// day 5" tap is today's session done, as a person reads it.
func completedSince(v ProgramView, today time.Time, loc *time.Location) time.Time {
	if loc == nil || v.daySince.IsZero() {
		return v.daySince
	}
	if day := health.LocalDay(v.daySince, loc); dateOf(day, loc) == today.Format(time.DateOnly) {
		return day.Add(-time.Nanosecond)
	}
	return v.daySince
}

func hasKind(us []Update, kind string) bool {
	for _, u := range us {
		if u.Kind == kind {
			return true
		}
	}
	return false
}

// buildMenu merges the balanced menu with the program's sessions (first)
// and each program's first session, without repeats.
func (g *Gathered) buildMenu(items []content.MenuEntry) {
	g.byID = map[string]content.MenuEntry{}
	g.Menu = []content.MenuEntry{}
	add := func(e content.MenuEntry) {
		if _, dup := g.byID[e.ID]; !dup {
			g.byID[e.ID] = e
			g.Menu = append(g.Menu, e)
		}
	}
	if g.Program.Item != nil {
		add(*g.Program.Item)
	}
	for _, e := range g.Program.Upcoming {
		add(e)
	}
	for _, p := range g.Programs {
		if p.First != nil {
			add(*p.First)
		}
	}
	for _, e := range items {
		add(e)
	}
}

// gapsOf derives the data gaps from the gathered views. The recent views
// say what the member did lately; the history, what they did before:
// years of imported weigh-ins are not "never weighed", nor a Strong log
// "no workouts".
func gapsOf(g *Gathered) Gaps {
	h := g.History
	gp := Gaps{NeverWeighed: g.Weight.Readings == 0 && h.WeighIns.Count == 0, DaysSinceWeighIn: g.Weight.DaysSinceWeighIn,
		NoWorkouts: g.Training.Stats.LastWorkout == "" && h.Workouts.Count == 0}
	if g.Weight.Readings == 0 && h.WeighIns.Count > 0 {
		gp.HistoryWeighIn, gp.LastWeighIn = true, h.WeighIns.Last
		gp.DaysSinceWeighIn = g.daysSince(h.WeighIns.Last)
	}
	gp.WeighInStale = gp.DaysSinceWeighIn != nil && *gp.DaysSinceWeighIn >= StaleWeighInDays
	gp.NoRecentMeals = g.Week.DaysLogged == 0
	gp.NoMealsYesterday = g.Week.DaysLogged > 0 && g.Yesterday.Meals == 0
	lastMeal := g.Week.LastLogged
	if lastMeal == "" && gp.NoRecentMeals && g.Today.Meals == 0 {
		lastMeal = h.Meals.Last // meals older than the week's window: the history's last
	}
	if last, err := time.Parse(time.DateOnly, lastMeal); err == nil && g.Yesterday.Meals == 0 {
		gp.LastMealDay = lastMeal
		gp.DaysWithoutMeals = max(0, int(g.civil.Sub(last).Hours()/24)-1)
	}
	if t := g.Week.Average.Protein.Target; t != nil && g.Week.DaysLogged >= minLoggedForAvg {
		avg := g.Week.Average.Protein.Consumed
		gp.ProteinAvg, gp.ProteinTarget = &avg, t
		gp.ProteinLow = avg < *t*proteinLowShare
	}
	st := g.Training.Stats
	switch {
	case st.LastWorkout != "":
		gp.LastWorkout, gp.DaysSinceWorkout = st.LastWorkout, st.DaysSinceLast
	case h.Workouts.Count > 0:
		gp.LastWorkout, gp.DaysSinceWorkout = h.Workouts.Last, g.daysSince(h.Workouts.Last)
	}
	switch {
	case st.RestDays != nil:
		gp.RestDays = *st.RestDays
	case gp.DaysSinceWorkout != nil:
		gp.RestDays = max(0, *gp.DaysSinceWorkout-1) // as health.WorkoutStats counts them
	}
	gp.HardDays = st.HardDaysInARow
	gp.LongAbsence = !gp.NoWorkouts && gp.RestDays >= LongAbsenceDays
	nothingRecent := g.Weight.Readings == 0 && gp.NoRecentMeals && g.Today.Meals == 0 && st.LastWorkout == ""
	gp.Onboarding = len(g.Goals.Goals) == 0 && !g.Program.HasProgram && !hasKind(g.Updates, UpdateGoal) && nothingRecent
	gp.HistoryOnly = nothingRecent && h.Any()
	return gp
}

// daysSince is the number of days from a YYYY-MM-DD day to today (nil for
// a day that does not parse).
func (g *Gathered) daysSince(day string) *int {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return nil
	}
	n := max(0, daysApart(t, g.civil))
	return &n
}
