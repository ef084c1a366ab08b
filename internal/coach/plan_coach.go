package coach

import (
	"fmt"
	"math"
	"strings"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/program"
)

// Prompt ids of the heuristic coach.
const (
	promptGoal       = "goal"
	promptOnboarding = "onboarding-notes"
	promptCheckIn    = "checkin-energy"
	promptBehind     = "program-behind"
	promptNext       = "program-next"
	// promptConfirmPrefix + YYYYMMDD asks about a set-aside weigh-in.
	promptConfirmPrefix = "confirm-weight-"
)

// Answers to the reading confirmation.
const (
	optReadingWrong = "No, it's a mistake"
	optReadingRight = "Yes, it's right"
	optReadingAgain = "I'll weigh again tomorrow"
)

// Limits of the document schema the heuristic stays within.
const (
	maxBriefing     = 800
	maxCTAs         = dashboard.MaxCTAs
	maxPrompts      = dashboard.MaxPrompts
	maxFeedback     = 4
	maxOptions      = 6
	maxOptionLen    = 80
	maxQuestion     = 200
	maxCTAText      = 200
	maxFeedbackText = 240
	behindAsk       = 3 // sessions behind before asking how to continue
	// overCaloriesPct: a day above 110 % of the calorie target is called
	// over; within 10 % is ordinary day-to-day variation (our own choice).
	overCaloriesPct = 110
)

// briefing is a few sentences with the exact figures of the tools.
func (p *planner) briefing(primary *content.MenuEntry) string {
	g := p.g
	var s []string
	switch {
	case g.Gaps.Onboarding && g.Gaps.HistoryOnly:
		s = append(s, fmt.Sprintf("Welcome to Hearth, %s!", g.Member.Name))
	case g.Gaps.Onboarding:
		s = append(s, fmt.Sprintf("Welcome to Hearth, %s! Let's start simple: a weigh-in and today's meals give me something to work with, and your goal below tells me where we're heading.", g.Member.Name))
	}
	if g.Gaps.HistoryOnly {
		s = append(s, p.historyLine())
	}
	if g.Gaps.HistoryWeighIn {
		s = append(s, p.longTrendLine())
	}
	if w := g.Weight; w.CurrentText != "" {
		line := "Weight " + w.CurrentText
		switch {
		case w.Change7d != nil && w.Change7dText != "" && math.Round(*w.Change7d*10) == 0:
			line += ", trend steady over 7 days"
		case w.Change7dText != "":
			line += ", trend " + w.Change7dText + " over 7 days"
		}
		if w.DaysSinceWeighIn != nil && *w.DaysSinceWeighIn >= 2 {
			line += fmt.Sprintf(" (last weigh-in %d days ago)", *w.DaysSinceWeighIn)
		}
		line += "."
		noPush := g.Safety.NoWeightLossPush && g.goalBelow()
		missedWeight := g.missedWeightGoal()
		switch {
		case w.Goal.Status == health.ETAReached && len(w.Questioned) == 0:
			line += " You're at your goal weight."
		case noPush:
		case w.Plateau && w.Goal.Goal != nil:
			line += fmt.Sprintf(" Your weigh-ins have held steady for two weeks: a plateau, with your goal at %s %s.", num(*w.Goal.Goal), w.Unit)
		case w.Plateau:
			line += " Your weigh-ins have held steady for two weeks."
		case w.MovingAway:
			line += fmt.Sprintf(" Your weight is moving away from your goal of %s %s.", num(*w.Goal.Goal), w.Unit)
		case missedWeight != nil && w.Goal.Status == health.ETAOnTrack && w.Goal.Goal != nil && w.Goal.ETA != "":
			// A date that passed is what a person reads first: the ETA
			// is a new date measured against it, not a fresh promise.
			line += fmt.Sprintf(" The date you set for %s %s, %s, has passed; at this pace you'd get there around %s.",
				num(*w.Goal.Goal), w.Unit, g.dateText(missedWeight.TargetDate), g.etaText())
			missedWeight.said = true
		case w.Goal.Status == health.ETAOnTrack && w.Goal.Goal != nil && w.Goal.ETA != "":
			line += fmt.Sprintf(" At this pace you reach %s %s around %s.", num(*w.Goal.Goal), w.Unit, g.etaText())
		}
		s = append(s, line)
		if missedWeight != nil && !missedWeight.said && w.Goal.Goal != nil {
			s = append(s, fmt.Sprintf("The date you set for %s %s, %s, has passed.", num(*w.Goal.Goal), w.Unit, g.dateText(missedWeight.TargetDate)))
		}
	}
	for _, m := range g.missedGoals() {
		if m.Kind != "weight" || g.Weight.CurrentText == "" {
			s = append(s, fmt.Sprintf("The date you set for %s, %s, has passed.", quoteGoal(m.Description), g.dateText(m.TargetDate)))
		}
	}
	switch q := g.Weight.Questioned; {
	case len(q) > 0 && q[0].Sudden:
		s = append(s, fmt.Sprintf("I set aside the reading of %s: %s from the weigh-in before is more than a day-to-day swing, so I'm not counting it yet.", p.g.dateText(q[0].Date), q[0].ChangeText))
	case len(q) > 0:
		s = append(s, fmt.Sprintf("I set aside the reading of %s: it's far from your trend, so I'm not counting it until you confirm it below.", p.g.dateText(q[0].Date)))
	}
	if c := p.cautionLine(); c != "" {
		s = append(s, c)
	}
	if c := p.conditionLine(); c != "" {
		s = append(s, c)
	}
	if w := p.walkLine(); w != "" {
		s = append(s, w)
	}
	// What the member told the coach comes before the day's figures: an
	// over-long briefing drops sentences from the end.
	s = append(s, p.acknowledgements()...)
	if y := g.Yesterday; y.Meals > 0 {
		line := fmt.Sprintf("Yesterday you logged %s kcal and %s g protein", kcal(y.Totals.Calories), num(y.Totals.ProteinG))
		if t := y.VsTargets.Calories.Target; t != nil {
			line += fmt.Sprintf(" against %s kcal", kcal(*t))
			if pt := y.VsTargets.Protein.Target; pt != nil {
				line += fmt.Sprintf(" and %s g", num(*pt))
			}
			if p.overCalories() {
				line += ": over your calorie target, and one day doesn't change a trend"
			}
		}
		s = append(s, line+".")
	}
	if l := p.loadLine(); l != "" {
		s = append(s, l)
	} else if d := g.Gaps.DaysSinceWorkout; g.Gaps.RestDays >= CheckInRestDays && !g.Gaps.NoWorkouts && d != nil {
		s = append(s, fmt.Sprintf("Your last workout was %d days ago.", *d))
	}
	s = append(s, p.todayLine(primary))
	// Last: the first sentence an over-long briefing drops.
	if l := g.servesLine(); l != "" {
		s = append(s, l)
	}
	return fitSentences(s, maxBriefing)
}

// servesLine names the life-plan goal the member's first linked active
// goal serves: the why behind the day's work ("" when none is linked).
func (g *Gathered) servesLine() string {
	for _, x := range g.Goals.Goals {
		if x.Status == "active" && x.Serves != "" {
			return fmt.Sprintf("Your goal %s serves your life goal %s.", quoteGoal(x.Description), quoteGoal(x.Serves))
		}
	}
	return ""
}

// overCalories reports a day more than overCaloriesPct of the calorie target
// for a member who is not trying to gain, and whom the coach may encourage
// toward a lower weight: said plainly once, without scolding.
func (p *planner) overCalories() bool {
	g := p.g
	c := g.Yesterday.VsTargets.Calories
	return c.Percent != nil && *c.Percent > overCaloriesPct && !g.Safety.NoWeightLossPush && !g.goalAbove() &&
		g.mutant != MutantIgnoreCalorieTarget
}

// todayLine says what today holds.
func (p *planner) todayLine(primary *content.MenuEntry) string {
	prog := p.g.Program
	pick := ""
	if primary != nil {
		pick = fmt.Sprintf("%s (%d min)", primary.Title, primary.DurationMin)
	}
	easy := p.takeItEasy()
	switch {
	case prog.HasProgram && prog.Today == string(program.DayTraining) && prog.Item != nil && p.g.Safety.unsafe(*prog.Item) == notAWalk && pick != "":
		return fmt.Sprintf("Today's %s session, %s, isn't a walk, so today's pick is a walk: %s.", prog.Title, prog.Item.Title, pick)
	case prog.HasProgram && prog.Today == string(program.DayTraining) && prog.Item != nil && !p.safe(*prog.Item) && pick != "":
		return fmt.Sprintf("Today's %s session, %s, %s, so today's pick spares it: %s.", prog.Title, prog.Item.Title,
			strings.TrimPrefix(p.g.Safety.unsafe(*prog.Item), "it "), pick)
	case prog.HasProgram && prog.Today == string(program.DayTraining) && prog.Item != nil && !easy && p.sessionDoneToday():
		return fmt.Sprintf("Today's session is done. Next in %s: %s, %s (%d min).", prog.Title, prog.Week, prog.Item.Title, prog.Item.DurationMin)
	case prog.HasProgram && prog.Today == string(program.DayTraining) && prog.Item != nil && !easy:
		return fmt.Sprintf("Today is %s of %s: %s (%d min).", prog.Week, prog.Title, prog.Item.Title, prog.Item.DurationMin)
	case prog.HasProgram && prog.Today == string(program.DayTraining) && p.recoveryDay() && pick != "":
		return fmt.Sprintf("Today's pick is easy: %s. %s is there tomorrow.", pick, prog.Item.Title)
	case prog.HasProgram && prog.Today == string(program.DayTraining) && easy:
		return fmt.Sprintf("You said you're not at your best, so today's pick is easy: %s. %s is there if you feel up to it.", pick, prog.Item.Title)
	case prog.HasProgram && prog.Today == string(program.DayRest):
		return fmt.Sprintf("Rest day in %s; if you want to move, %s is a gentle option.", prog.Title, pick)
	case prog.HasProgram && prog.Today == string(program.DayNotStarted):
		return fmt.Sprintf("%s starts %s.", prog.Title, p.g.dateText(prog.StartDate))
	case prog.HasProgram && prog.Today == string(program.DayPaused):
		return fmt.Sprintf("%s is paused; today's pick is %s.", prog.Title, pick)
	case prog.HasProgram && prog.Today == string(program.DayCompleted):
		return fmt.Sprintf("You finished %s! Choose what's next below; for today, %s.", prog.Title, pick)
	case pick != "" && p.backFromAbsence():
		return "A gentle start: " + pick + "."
	case pick != "" && easy:
		return "Keep it easy today: " + pick + "."
	case pick != "":
		return "Today's pick: " + pick + "."
	}
	return "Add some content to the catalog and I'll line up your sessions."
}

// fitSentences joins sentences, dropping from the end to stay within n.
func fitSentences(s []string, n int) string {
	for len(s) > 1 && len(strings.Join(s, " ")) > n {
		s = s[:len(s)-1]
	}
	return clipText(strings.Join(s, " "), n)
}

// ctas are calls to action from data gaps, most important first.
func (p *planner) ctas() []dashboard.CTA {
	g, gp := p.g, p.g.Gaps
	out := []dashboard.CTA{}
	switch {
	case gp.NeverWeighed:
		out = append(out, dashboard.CTA{Type: dashboard.CTAHabit, Message: "Step on the scale to start your weight trend.", Action: dashboard.ActionOpenWeight,
			Record: dashboard.RecordWeight, Day: dashboard.DayAny, Macro: dashboard.MacroNone})
	case gp.WeighInStale && gp.HistoryWeighIn:
		// Too old for a current trend: the day, with its year when it
		// has one, and a weigh-in starts the trend again.
		out = append(out, dashboard.CTA{Type: dashboard.CTADataGap, Action: dashboard.ActionOpenWeight,
			Record: dashboard.RecordWeight, Day: dashboard.DayToday, Macro: dashboard.MacroNone,
			Message: fmt.Sprintf("Your last weigh-in was %s. Step on the scale to restart your trend.", g.dateText(gp.LastWeighIn))})
	case gp.WeighInStale:
		out = append(out, dashboard.CTA{Type: dashboard.CTADataGap, Action: dashboard.ActionOpenWeight,
			Record: dashboard.RecordWeight, Day: dashboard.DayToday, Macro: dashboard.MacroNone,
			Message: fmt.Sprintf("No weigh-in for %d days. Step on the scale today.", *gp.DaysSinceWeighIn)})
	}
	// How long a gap has lasted, as a person reads it from the same record:
	// two days without a meal are not "yesterday", five weeks not "today".
	switch {
	case gp.NoRecentMeals && gp.DaysWithoutMeals > longAgoDays:
		out = append(out, dashboard.CTA{Type: dashboard.CTADataGap, Action: dashboard.ActionOpenNutrition,
			Record: dashboard.RecordMeal, Day: dashboard.DayToday, Macro: dashboard.MacroNone,
			Message: fmt.Sprintf("No meals logged since %s. Log today's meals to pick it up again.", g.dateText(gp.LastMealDay))})
	case gp.NoRecentMeals && gp.DaysWithoutMeals > 0:
		out = append(out, dashboard.CTA{Type: dashboard.CTADataGap, Action: dashboard.ActionOpenNutrition,
			Record: dashboard.RecordMeal, Day: dashboard.DayToday, Macro: dashboard.MacroNone,
			Message: fmt.Sprintf("No meals logged for %d days, since %s. Log today's meals to pick it up again.", gp.DaysWithoutMeals, g.dateText(gp.LastMealDay))})
	case gp.NoRecentMeals:
		out = append(out, dashboard.CTA{Type: dashboard.CTAHabit, Message: "Log today's meals to see calories and protein against your targets.", Action: dashboard.ActionOpenNutrition,
			Record: dashboard.RecordMeal, Day: dashboard.DayToday, Macro: dashboard.MacroNone})
	case gp.NoMealsYesterday && gp.DaysWithoutMeals >= 2:
		out = append(out, dashboard.CTA{Type: dashboard.CTADataGap, Message: fmt.Sprintf("No meals logged for %d days.", gp.DaysWithoutMeals),
			Action: dashboard.ActionOpenNutrition, Record: dashboard.RecordMeal, Day: dashboard.DayYesterday, Macro: dashboard.MacroNone})
	case gp.NoMealsYesterday:
		out = append(out, dashboard.CTA{Type: dashboard.CTADataGap, Message: "No meals logged yesterday.", Action: dashboard.ActionOpenNutrition,
			Record: dashboard.RecordMeal, Day: dashboard.DayYesterday, Macro: dashboard.MacroNone})
	}
	if gp.ProteinLow {
		out = append(out, dashboard.CTA{Type: dashboard.CTAHabit, Action: dashboard.ActionOpenNutrition,
			Record: dashboard.RecordMeal, Day: dashboard.DayToday, Macro: dashboard.MacroProtein,
			Message: fmt.Sprintf("Protein averaged %s g over the last 7 days; your target is %s g.", num(*gp.ProteinAvg), num(*gp.ProteinTarget))})
	}
	if gp.NoWorkouts && !g.Program.HasProgram {
		out = append(out, dashboard.CTA{Type: dashboard.CTAHabit, Message: "Log a workout after you move, so I can see your rhythm.", Action: dashboard.ActionOpenWorkout,
			Record: dashboard.RecordWorkout, Day: dashboard.DayToday, Macro: dashboard.MacroNone})
	}
	if prog := g.Program; prog.HasProgram && prog.Today == string(program.DayTraining) && prog.Item != nil && !p.takeItEasy() && p.safe(*prog.Item) {
		out = append(out, dashboard.CTA{Type: dashboard.CTAProgram, Action: dashboard.ActionPlayUpNext,
			Record: dashboard.RecordUpNext, Day: dashboard.DayToday, Macro: dashboard.MacroNone,
			Message: fmt.Sprintf("%s of %s is ready: %s.", prog.Week, prog.Title, prog.Item.Title)})
	}
	if len(out) > maxCTAs {
		out = out[:maxCTAs]
	}
	for i := range out {
		out[i].Message = clipText(out[i].Message, maxCTAText)
	}
	return out
}

// prompts asks what the coach needs to know, skipping closed prompts.
func (p *planner) prompts() []dashboard.Prompt {
	g := p.g
	var cands []dashboard.Prompt
	mc := func(id, q string, opts ...string) {
		var keep []string
		for _, o := range opts {
			if len([]rune(o)) <= maxOptionLen && len(keep) < maxOptions {
				keep = append(keep, o)
			}
		}
		if len(keep) >= 2 {
			cands = append(cands, dashboard.Prompt{ID: id, Type: dashboard.PromptMultipleChoice, Question: clipText(q, maxQuestion), Options: keep})
		}
	}
	switch q := g.Weight.Questioned; {
	case len(q) > 0 && q[0].Sudden:
		mc(promptConfirmPrefix+strings.ReplaceAll(q[0].Date, "-", ""),
			fmt.Sprintf("Your scale recorded %s on %s, %s on the weigh-in before. Weigh again tomorrow to check?", q[0].Text, p.g.dateText(q[0].Date), q[0].ChangeText),
			optReadingAgain, optReadingWrong, optReadingRight)
	case len(q) > 0:
		mc(promptConfirmPrefix+strings.ReplaceAll(q[0].Date, "-", ""),
			fmt.Sprintf("Your scale recorded %s on %s, far from your trend. Is that right?", q[0].Text, p.g.dateText(q[0].Date)),
			optReadingWrong, optReadingRight)
	}
	for _, f := range g.Safety.FollowUps {
		id, q := g.injuryPrompt(f)
		mc(id, q, optInjuryBetter, optInjuryStill)
	}
	for _, f := range g.Safety.ConditionFollowUps {
		id, q := g.conditionPrompt(f)
		mc(id, q, optConditionStill, optConditionOver)
	}
	for _, m := range g.missedGoals() {
		id, q := g.goalDatePrompt(m)
		mc(id, q, optGoalDate8Weeks, optGoalDate12Weeks, optGoalDateNone)
	}
	proposed := g.GoalProposal != nil
	if proposed {
		gp := goalProposal{Goal: *g.GoalProposal}
		mc(gp.id(), gp.question(), optAddGoal, optNotNow)
	}
	if !proposed && len(g.Goals.Goals) == 0 && !g.hasGoalWeight() && !hasKind(g.Updates, UpdateGoal) && !hasKind(g.Updates, UpdateDeclare) && !g.Program.HasProgram {
		opts := []string{optLoseWeight, optStronger, optMoveMore}
		if g.Safety.NoWeightLossPush {
			opts = opts[1:]
		}
		for _, pr := range g.Programs {
			opts = append(opts, optStartPrefix+pr.Title)
		}
		mc(promptGoal, "What's your main goal right now?", opts...)
	}
	prog := g.Program
	if prog.HasProgram && prog.Today == string(program.DayCompleted) {
		var opts []string
		for _, pr := range g.Programs {
			if pr.ID != prog.ProgramID && len(opts) < 3 {
				opts = append(opts, optStartPrefix+pr.Title)
			}
		}
		mc(promptNext, fmt.Sprintf("You finished %s. What's next?", prog.Title), append(opts, optRepeatPrefix+prog.Title, optBreak)...)
	}
	if prog.HasProgram && prog.Status == string(program.Active) && prog.Behind >= behindAsk {
		if skip := nextTraining(prog.days, prog.ExpectedDay); skip > prog.Day {
			mc(promptBehind, fmt.Sprintf("You're %d sessions behind in %s. How do you want to continue?", prog.Behind, prog.Title),
				optKeepPace, fmt.Sprintf("%s%d", optSkipPrefix, skip), optPause)
		}
	}
	switch {
	case g.Gaps.LongAbsence && g.Gaps.Onboarding:
		mc(promptCheckIn, "Ready to pick up training again? How are you feeling?", optEnergised, optTired, optSore, optUnwell)
	case g.Gaps.LongAbsence:
		mc(promptCheckIn, "Good to see you back. How are you feeling?", optEnergised, optTired, optSore, optUnwell)
	case g.Gaps.RestDays >= CheckInRestDays && !g.Gaps.NoWorkouts:
		mc(promptCheckIn, fmt.Sprintf("That's %d rest days in a row. How's your energy?", g.Gaps.RestDays),
			optEnergised, optTired, optSore, optUnwell)
	}
	// The daily check-in, when nothing else asks for a tap today.
	if !hasMultipleChoice(cands, g.FollowUps) {
		cands = append(cands, dailyCheckIn(g))
	}
	// Until the member has told the coach about themselves (new members
	// first of all): injuries, schedule, likes. Said once, kept for good.
	if _, told := p.remembered(keyMemberNote); !told {
		cands = append(cands, dashboard.Prompt{ID: promptOnboarding, Type: dashboard.PromptVoiceMemo, Options: []string{},
			Question: "Anything I should know: injuries, your schedule, what you enjoy?"})
	}
	byPriority(cands)
	out := []dashboard.Prompt{}
	for _, c := range cands {
		if _, _, closed := g.FollowUps.closed(c.ID, c.Question); closed || len(out) == maxPrompts {
			continue
		}
		out = append(out, c)
	}
	return out
}

// hasMultipleChoice reports whether a candidate asks for a tap and is not
// closed.
func hasMultipleChoice(cands []dashboard.Prompt, f FollowUps) bool {
	for _, c := range cands {
		if _, _, closed := f.closed(c.ID, c.Question); c.Type == dashboard.PromptMultipleChoice && !closed {
			return true
		}
	}
	return false
}

// feedback reacts to patterns in the facts.
func (p *planner) feedback() []string {
	g := p.g
	var out []string
	for _, u := range g.Updates {
		switch u.Kind {
		case UpdateComplete:
			out = append(out, fmt.Sprintf("You finished %s. That's a big one.", u.Title))
		case UpdateAdvance:
			out = append(out, fmt.Sprintf("Session done; %s moves on to day %d.", u.Title, u.Day))
		case UpdateDeclare:
			if u.AnchorDay > 1 {
				out = append(out, fmt.Sprintf("%s is on your calendar from %s, at Day %d: the sessions you already did count.", u.Title, p.g.dateText(u.StartDate), u.AnchorDay))
			} else {
				out = append(out, fmt.Sprintf("%s is on your calendar from %s.", u.Title, p.g.dateText(u.StartDate)))
			}
		}
	}
	st := g.Training.Stats
	late := g.civil.Weekday() >= time.Thursday || g.civil.Weekday() == time.Sunday
	switch {
	case st.UsualPerWeek != nil && float64(st.ThisWeek) > *st.UsualPerWeek && st.ThisWeek > 0:
		out = append(out, fmt.Sprintf("%s this week, above your usual %s a week. Nice consistency.", plural(st.ThisWeek, "workout"), num(*st.UsualPerWeek)))
	case st.UsualPerWeek != nil && st.ThisWeek > 0 && float64(st.ThisWeek) == *st.UsualPerWeek:
		out = append(out, fmt.Sprintf("%s this week, right on your usual pace.", plural(st.ThisWeek, "workout")))
	case st.UsualPerWeek != nil && late && *st.UsualPerWeek >= 1:
		out = append(out, fmt.Sprintf("%s so far this week; you usually do %s.", plural(st.ThisWeek, "workout"), num(*st.UsualPerWeek)))
	case st.UsualPerWeek == nil && st.ThisWeek >= 2:
		out = append(out, fmt.Sprintf("%s this week. Keep it rolling.", plural(st.ThisWeek, "workout")))
	}
	if g.Weight.Goal.Status == health.ETAOnTrack && !(g.Safety.NoWeightLossPush && g.goalBelow()) && !g.Weight.Plateau && !g.Weight.MovingAway {
		out = append(out, "Your weight trend is moving toward your goal.")
	}
	if n := g.Today.LoggingStreak; n >= 3 {
		out = append(out, fmt.Sprintf("Meals logged %d days in a row.", n))
	}
	if y := g.Yesterday; y.Meals > 0 && y.VsTargets.Protein.Target != nil && y.VsTargets.Protein.Consumed >= *y.VsTargets.Protein.Target {
		out = append(out, "Yesterday's protein hit your target.")
	}
	if b := g.Body; b.HasScan && b.LeanChange != nil && *b.LeanChange > 0 {
		out = append(out, fmt.Sprintf("Lean mass up %s %s since the previous scan.", num(*b.LeanChange), g.Member.Unit))
	}
	if len(out) > maxFeedback {
		out = out[:maxFeedback]
	}
	for i := range out {
		out[i] = clipText(out[i], maxFeedbackText)
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// etaText is the goal ETA as the kiosk's weight widget writes it (the
// board's text; from the date when the facts came without it).
func (g *Gathered) etaText() string {
	if t := g.Weight.Goal.ETAText; t != "" {
		return t
	}
	return g.dateText(g.Weight.Goal.ETA)
}
