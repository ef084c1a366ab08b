package coach

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
)

// promptVars renders the template variables (see Tuning) from the gathered data.
func (g *Gathered) promptVars(mem *agent.Memory) map[string]string {
	memory := "(none)"
	if mem != nil {
		memory = mem.Serialize()
	}
	gathered, _ := json.Marshal(g)
	return map[string]string{
		"gathered":  string(gathered),
		"member":    fmt.Sprintf("%s (member id %s)", g.Member.Name, g.Member.ID),
		"date":      g.civil.Format("Monday 2 Jan 2006") + " (" + g.Date + ")",
		"unit":      string(g.Member.Unit),
		"data":      g.factsText(),
		"program":   g.programText(),
		"answers":   g.answersText(),
		"followups": g.followUpsText(),
		"menu":      content.FormatMenu(g.promptMenu()),
		"programs":  g.programsText(),
		"memory":    memory,
		"user.id":   g.Member.ID,
		"user.name": g.Member.Name,
		"user.unit": string(g.Member.Unit),
	}
}

func (g *Gathered) factsText() string {
	lines := []string{
		"Weight: " + g.Weight.Text,
		fmt.Sprintf("Nutrition today (%s): %s; meal-logging streak %d days", g.Today.Date, g.Today.Text, g.Today.LoggingStreak),
		fmt.Sprintf("Nutrition yesterday (%s): %s", g.Yesterday.Date, g.Yesterday.Text),
		"Nutrition, last 7 days: " + g.Week.Text,
		"Training: " + g.Training.Stats.Text,
	}
	if len(g.Training.Recent) > 0 {
		var ws []string
		for _, w := range g.Training.Recent {
			ws = append(ws, w.Text)
		}
		lines = append(lines, "Recent workouts: "+strings.Join(ws, "; "))
	}
	if len(g.Training.Completed) > 0 {
		var cs []string
		for _, c := range g.Training.Completed {
			title := c.ContentID
			if c.Title != "" {
				title = c.Title + " (" + c.ContentID + ")"
			}
			cs = append(cs, title+" on "+c.At.Format(time.DateOnly))
		}
		lines = append(lines, "Finished catalog content (7 days): "+strings.Join(cs, "; "))
	}
	lines = append(lines, "Body composition: "+g.Body.Text)
	if g.historyUnseen() {
		// Only when it says what the lines above cannot: the prompt stays
		// short for a member whose records are all recent.
		lines = append(lines, "History (every record, imported included; the lines above cover recent weeks only): "+g.History.Text)
	}
	lines = append(lines, "Goals: "+g.goalsText(), "Data gaps: "+g.gapsText())
	if b := g.Weight.BMI; b != nil {
		lines = append(lines, "BMI: "+num(*b))
	}
	if a := g.Member.Age; a > 0 {
		line := fmt.Sprintf("Age: %d", a)
		if g.Member.LifeStage != "" {
			line += " (" + g.Member.LifeStage + ")"
		}
		lines = append(lines, line)
	}
	if c := g.Safety.Conditions; len(c) > 0 {
		lines = append(lines, "Health conditions the member stated: "+strings.Join(c, ", "))
	}
	for _, x := range g.Goals.Goals {
		if x.Status == "active" && x.TargetDate != "" {
			lines = append(lines, fmt.Sprintf("Goal target date: %s by %s", agent.Quote(x.Description), x.TargetDate))
		}
		if x.Status == "active" && x.Serves != "" {
			lines = append(lines, fmt.Sprintf("Life plan: %s serves their life goal %s (you may say so)", agent.Quote(x.Description), agent.Quote(x.Serves)))
		}
	}
	for _, b := range g.Beliefs {
		lines = append(lines, fmt.Sprintf("Belief %d (%s): if %s then %s. Only when the facts above bear on it, propose one note with lifeplan_propose_evidence",
			b.ID, b.State, agent.Quote(b.If), agent.Quote(b.Then)))
	}
	for _, m := range g.missedGoals() {
		lines = append(lines, fmt.Sprintf("Missed goal date: %s was due %s (%d days ago): say so in the briefing (an ETA is then a new date, measured against it) and offer to set a new date", agent.Quote(m.Description), m.TargetDate, m.DaysAgo))
	}
	if g.Weight.Plateau {
		lines = append(lines, fmt.Sprintf("Plateau: the raw weigh-ins of the last %d days are flat; the smoothed trend may still be catching up, so do not give a goal ETA", PlateauDays))
	}
	if g.Weight.MovingAway {
		lines = append(lines, "The weight is moving away from the goal weight (the 30-day trend, or the weigh-ins of the last 3 weeks): say so plainly, with the goal")
	}
	for _, q := range g.Weight.Questioned {
		why := "far from the trend"
		if q.Sudden {
			why = q.ChangeText + " on the weigh-in before, within a day and a half: ask them to weigh again tomorrow"
		}
		lines = append(lines, fmt.Sprintf("Questioned weigh-in (%s; left out of the figures above): %s on %s", why, q.Text, q.Date))
	}
	lines = append(lines, priorityText())
	for _, r := range g.Safety.Rules {
		lines = append(lines, "Safety rule (validation enforces it): "+r)
	}
	return strings.Join(lines, "\n")
}

// goalsText is the goals line with each goal's description (the member's
// words) quoted as data. The tool's text starts with the descriptions
// joined by "; " (goalsView); should it ever not, the whole line is quoted.
func (g *Gathered) goalsText() string {
	text := g.Goals.Text
	if len(g.Goals.Goals) == 0 {
		return text
	}
	raw := make([]string, 0, len(g.Goals.Goals))
	quoted := make([]string, 0, len(g.Goals.Goals))
	for _, x := range g.Goals.Goals {
		raw = append(raw, x.Description)
		quoted = append(quoted, agent.Quote(x.Description))
	}
	if prefix := strings.Join(raw, "; "); strings.HasPrefix(text, prefix) {
		return strings.Join(quoted, "; ") + text[len(prefix):]
	}
	return agent.Quote(text)
}

func (g *Gathered) gapsText() string {
	var gs []string
	gp := g.Gaps
	switch {
	case gp.NeverWeighed:
		gs = append(gs, "never weighed in")
	case gp.WeighInStale && gp.HistoryWeighIn:
		gs = append(gs, fmt.Sprintf("no weigh-in for %d days, the last on %s, too old for a current trend: give the long-term "+
			"trend from History, the last weigh-in's date with its year, and ask for a weigh-in to restart the trend",
			*gp.DaysSinceWeighIn, gp.LastWeighIn))
	case gp.WeighInStale:
		gs = append(gs, fmt.Sprintf("no weigh-in for %d days", *gp.DaysSinceWeighIn))
	}
	switch {
	case gp.DaysWithoutMeals >= 2:
		gs = append(gs, fmt.Sprintf("no meals logged for %d days (the last on %s): say how long", gp.DaysWithoutMeals, gp.LastMealDay))
	case gp.NoRecentMeals:
		gs = append(gs, "no meals logged in the last 7 days")
	case gp.NoMealsYesterday:
		gs = append(gs, "no meals logged yesterday")
	}
	if gp.ProteinLow {
		gs = append(gs, fmt.Sprintf("protein 7-day average %s g under the %s g target", num(*gp.ProteinAvg), num(*gp.ProteinTarget)))
	}
	if gp.NoWorkouts {
		gs = append(gs, "no workouts logged")
	}
	if gp.HardDays >= HardRunDays {
		gs = append(gs, fmt.Sprintf("%d hard days in a row: make today a recovery day and say so", gp.HardDays))
	}
	if d := gp.DaysSinceWorkout; gp.LongAbsence && gp.Onboarding && d != nil {
		gs = append(gs, fmt.Sprintf("%d days since the last workout (%s): start gently; do not call it rest days", *d, gp.LastWorkout))
	} else if gp.LongAbsence {
		gs = append(gs, fmt.Sprintf("back after a long absence (%d days without a workout): welcome them back and restart gently; do not call it rest days", gp.RestDays))
	} else if gp.RestDays >= CheckInRestDays {
		gs = append(gs, fmt.Sprintf("%d rest days in a row", gp.RestDays))
	}
	switch {
	case gp.Onboarding && gp.HistoryOnly:
		gs = append(gs, "new to Hearth: no goals, program or recent data, but the history they brought (see History): "+
			"welcome them and acknowledge it (how many of what, since when, from where)")
	case gp.Onboarding:
		gs = append(gs, "new member: no goals, program or data yet (onboarding)")
	case gp.HistoryOnly:
		gs = append(gs, "nothing recent, only the history (see History): acknowledge it")
	}
	if len(gs) == 0 {
		return "none"
	}
	return strings.Join(gs, "; ")
}

func (g *Gathered) programText() string {
	s := g.Program.Text
	if len(g.Program.Upcoming) > 0 {
		var ups []string
		for _, e := range g.Program.Upcoming {
			ups = append(ups, fmt.Sprintf("%s #%d %s", e.ID, e.Day, e.Title))
		}
		s += "\nNext sessions: " + strings.Join(ups, "; ")
	}
	for _, u := range g.Updates {
		switch u.Kind {
		case UpdateDeclare, UpdatePause, UpdateResume, UpdateSetDay, UpdateAdvance, UpdateComplete:
			s += "\nChanged this run (" + u.Kind + "): " + agent.Quote(u.Note)
		}
	}
	return s
}

func (g *Gathered) answersText() string {
	var lines []string
	for _, a := range g.Prompts.Unprocessed {
		lines = append(lines, fmt.Sprintf("- New answer (%s) to %s: %s", a.Day, agent.Quote(a.Question), agent.Quote(a.Answer)))
	}
	for _, m := range g.NewMemos {
		lines = append(lines, fmt.Sprintf("- New voice memo (%s): %s", m.Day, agent.Quote(m.Transcript)))
	}
	for _, u := range g.Updates {
		switch u.Kind {
		case UpdateGoal:
			lines = append(lines, "- Goal added this run: "+agent.Quote(u.Goal.Description))
		case UpdateMemory:
			if u.Note != "" {
				lines = append(lines, "- Remembered this run: "+agent.Quote(u.Key)+" = "+agent.Quote(u.Value))
			}
		}
	}
	if len(lines) == 0 {
		return "No new answers or voice memos."
	}
	return strings.Join(lines, "\n")
}

func (g *Gathered) followUpsText() string {
	f := g.FollowUps
	var lines []string
	for _, c := range f.Answered {
		lines = append(lines, fmt.Sprintf("- %s: answered %s; do not ask again", c.ID, agent.Quote(c.Answer)))
	}
	for _, c := range f.Dropped {
		lines = append(lines, fmt.Sprintf("- %s: ignored twice, dropped; do not ask again", c.ID))
	}
	for _, r := range f.Reask {
		lines = append(lines, fmt.Sprintf("- %s: %s ignored once (asked %s); you may ask it once more", r.ID, agent.Quote(r.Question), r.AskedOn))
	}
	for _, r := range f.Open {
		lines = append(lines, fmt.Sprintf("- %s: %s already shown today, unanswered", r.ID, agent.Quote(r.Question)))
	}
	if len(lines) == 0 {
		return "Follow-ups: none."
	}
	return "Follow-ups:\n" + strings.Join(lines, "\n")
}

func (g *Gathered) programsText() string {
	if len(g.Programs) == 0 {
		return "(none)"
	}
	var lines []string
	for _, p := range g.Programs {
		l := fmt.Sprintf("- %s | %s | %d days (%d training)", p.ID, p.Title, p.TotalDays, p.TrainingDays)
		if p.First != nil {
			l += " | first session " + p.First.ID
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// historyUnseen reports records that the recent views leave out: weigh-ins
// too old for the weight window, meals or workouts before their windows.
func (g *Gathered) historyUnseen() bool {
	h := g.History
	return (h.WeighIns.Count > 0 && g.Weight.Readings == 0) ||
		(h.Meals.Count > 0 && g.Week.DaysLogged == 0 && g.Today.Meals == 0) ||
		(h.Workouts.Count > 0 && g.Training.Stats.LastWorkout == "")
}

// promptMenu is the menu as the model's prompt lists it: the entries every
// member's menu holds (each program's first session) first, then the
// member's own. Two members' requests then share the prefix up to their
// own entries, which a local server reuses (issue 36); the heuristic
// keeps g.Menu's order.
func (g *Gathered) promptMenu() []content.MenuEntry {
	first := map[string]bool{}
	for _, p := range g.Programs {
		if p.First != nil {
			first[p.First.ID] = true
		}
	}
	out := make([]content.MenuEntry, 0, len(g.Menu))
	for _, e := range g.Menu {
		if first[e.ID] {
			out = append(out, e)
		}
	}
	for _, e := range g.Menu {
		if !first[e.ID] {
			out = append(out, e)
		}
	}
	return out
}
