package coach

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/program"
)

// Questions by day: "what did I eat yesterday?", "…on Tuesday?", "…last
// week?" are answered from that day's (or week's) records through the
// same tools, and so with the same figures, as the briefing.

// asked is the day or days a question is about (civil dates, inclusive).
type asked struct {
	from, to time.Time
	label    string // "Yesterday (Fri 27 Nov)", "On Tue 24 Nov", "In the 7 days to Fri 27 Nov"
}

// maxAskBack is how far back a day may be asked about without a model
// (get_recent_meals looks back 14 days, the day itself included).
const maxAskBack = 13

var (
	reYesterday = regexp.MustCompile(`(?i)\byesterday\b`)
	reDaysAgo   = regexp.MustCompile(`(?i)\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+days\s+ago\b`)
	reLastWeek  = regexp.MustCompile(`(?i)\b(last|past|previous)\s+(week|7\s+days|seven\s+days)\b`)
	reWeekday   = regexp.MustCompile(`(?i)\b(last\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)
)

var dayNumbers = map[string]int{"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

// dayAsked finds the past day or week msg asks about; ok is false for
// today (or no day at all).
func (r *replier) dayAsked(scope agent.Scope, msg string) (asked, bool) {
	today := civilDate(r.c.clock(scope), r.c.loc)
	day := func(back int) (asked, bool) {
		if back <= 0 || back > maxAskBack {
			return asked{}, false
		}
		d := today.AddDate(0, 0, -back)
		label := "On " + health.CivilDayText(d, today)
		if back == 1 {
			label = "Yesterday (" + health.CivilDayText(d, today) + ")"
		}
		return asked{from: d, to: d, label: label}, true
	}
	switch {
	case reYesterday.MatchString(msg):
		return day(1)
	case reDaysAgo.MatchString(msg):
		w := strings.ToLower(reDaysAgo.FindStringSubmatch(msg)[1])
		n, err := strconv.Atoi(w)
		if err != nil {
			n = dayNumbers[w]
		}
		return day(n)
	case reLastWeek.MatchString(msg):
		to := today.AddDate(0, 0, -1)
		return asked{from: today.AddDate(0, 0, -7), to: to, label: "In the 7 days to " + health.CivilDayText(to, today)}, true
	case reWeekday.MatchString(msg):
		m := reWeekday.FindStringSubmatch(msg)
		wd, _ := weekdayNamed(strings.ToLower(m[2]))
		back := (int(today.Weekday()) - int(wd) + 7) % 7
		if back == 0 && m[1] != "" { // "last Tuesday" on a Tuesday
			back = 7
		}
		return day(back)
	}
	return asked{}, false
}

// mealsOn answers what the member ate on the asked day or week.
func (r *replier) mealsOn(ctx context.Context, scope agent.Scope, turn agent.ChatTurn, when asked) ([]string, error) {
	if !when.from.Equal(when.to) {
		h, err := chatTool[NutritionHistoryView](ctx, turn, "get_nutrition_history", map[string]any{"days": 7})
		if err != nil {
			return nil, err
		}
		out := []string{when.label + ": " + h.Text + "."}
		var days []string
		for _, d := range h.Days {
			if d.Meals > 0 {
				days = append(days, shortDate(d.Date, civilDate(r.c.clock(scope), r.c.loc))+" "+dashboard.KcalText(d.Calories))
			}
		}
		if len(days) > 0 {
			out = append(out, "By day: "+strings.Join(days, ", ")+".")
		}
		return out, nil
	}
	date := when.from.Format(time.DateOnly)
	d, err := chatTool[NutritionDayView](ctx, turn, "get_today_nutrition", map[string]any{"date": date})
	if err != nil {
		return nil, err
	}
	if d.Meals == 0 {
		return []string{when.label + " you logged nothing."}, nil
	}
	back := daysApart(when.from, civilDate(r.c.clock(scope), r.c.loc))
	recent, err := chatTool[map[string]any](ctx, turn, "get_recent_meals", map[string]any{"days": min(back+1, maxAskBack), "limit": 50})
	if err != nil {
		return nil, err
	}
	lines, _ := recent["meals"].([]MealLine)
	var meals []string
	for _, ml := range slices.Backward(lines) { // newest first: the day in order
		if ml.Date == date {
			meals = append(meals, fmt.Sprintf("%s (%s)", ml.Name, dashboard.KcalText(ml.Calories)))
		}
	}
	out := fmt.Sprintf("%s you logged %s in %s", when.label, dashboard.KcalText(d.Totals.Calories), plural(d.Meals, "meal"))
	if len(meals) > 0 {
		out += ": " + joinAnd(meals)
	}
	return []string{out + ".", "Against your targets: " + d.Text + "."}, nil
}

// workoutsOn answers what the member did on the asked day or days.
func (r *replier) workoutsOn(ctx context.Context, turn agent.ChatTurn, when asked) ([]string, error) {
	w, err := chatTool[WorkoutsView](ctx, turn, "get_recent_workouts", map[string]any{"limit": 20})
	if err != nil {
		return nil, err
	}
	from, to := when.from.Format(time.DateOnly), when.to.Format(time.DateOnly)
	var done []string
	for _, x := range slices.Backward(w.Recent) {
		if x.Date >= from && x.Date <= to {
			text := x.Text
			if from == to { // the label names the day already
				text = strings.TrimPrefix(text, health.FullDayText(when.from)+": ")
			}
			done = append(done, text)
		}
	}
	if len(done) == 0 {
		return []string{when.label + ": no workouts logged."}, nil
	}
	return []string{when.label + ": " + strings.Join(done, "; ") + "."}, nil
}

// weekSession is one program day on a date: a session, or the
// program's rest day (id "").
type weekSession struct {
	date  time.Time
	day   int
	id    string
	title string
	min   int
}

// weekPlan answers "make me a plan for this week" with the program's
// sessions for the next seven days (dates, days, titles), and says
// plainly that a fuller plan needs the model.
func (r *replier) weekPlan(ctx context.Context, scope agent.Scope, turn agent.ChatTurn) ([]string, error) {
	const needsModel = "A plan for the whole week beyond your program (meals, extra sessions, changes) needs the language model; without it I plan one day at a time."
	p, err := chatTool[ProgramView](ctx, turn, "get_program_state", nil)
	if err != nil {
		return nil, err
	}
	switch {
	case !p.HasProgram:
		return []string{"You're not following a program, so I have no week of sessions to list: today's plan is on your dashboard.", needsModel}, nil
	case p.Today == string(program.DayPaused):
		return []string{fmt.Sprintf("%s is paused at Day %d: resume it under Up Next and its sessions come back.", p.Title, p.Day), needsModel}, nil
	case p.Today == string(program.DayCompleted):
		return []string{fmt.Sprintf("You finished %s: pick what's next on your dashboard.", p.Title), needsModel}, nil
	}
	today := civilDate(r.c.clock(scope), r.c.loc)
	sessions, err := r.c.weekSessions(ctx, p, today, 7)
	if err != nil {
		return nil, err
	}
	if len(sessions) == 0 {
		return []string{fmt.Sprintf("%s has nothing for you in the next seven days.", p.Title), needsModel}, nil
	}
	out := []string{"Your program's next sessions:"}
	for _, s := range sessions {
		what := fmt.Sprintf("%s (%d min)", s.title, s.min)
		if s.id == "" {
			what = "a rest day"
		}
		out = append(out, fmt.Sprintf("- %s: Day %d of %s, %s", health.CivilDayText(s.date, today), s.day, p.Title, what))
	}
	return append(out, "Days not listed are rest days.", needsModel), nil
}

// weekSessions lays the program's next days onto the member's training
// weekdays from today (or its start) for n days: one program day per
// training weekday, a program rest day taking its weekday (and listed).
func (c *core) weekSessions(ctx context.Context, p ProgramView, today time.Time, n int) ([]weekSession, error) {
	pat, err := program.ParsePattern(p.Pattern)
	if err != nil {
		return nil, fmt.Errorf("coach: program pattern: %w", err)
	}
	start := today
	if p.Today == string(program.DayNotStarted) {
		if d, err := time.Parse(time.DateOnly, p.StartDate); err == nil {
			start = d
		}
	}
	var out []weekSession
	var ids []string
	day := p.Day
	for d := start; d.Before(today.AddDate(0, 0, n)) && day >= 1 && day <= len(p.days); d = d.AddDate(0, 0, 1) {
		if !pat.Has(d.Weekday()) {
			continue
		}
		pd := p.days[day-1]
		ws := weekSession{date: d, day: day}
		if !pd.Rest && pd.ContentID != "" {
			ws.id = pd.ContentID
			ids = append(ids, pd.ContentID)
		}
		out = append(out, ws)
		day++
	}
	found, err := c.cat.Lookup(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("coach: catalog lookup: %w", err)
	}
	for i := range out {
		if out[i].id == "" {
			continue
		}
		it := found[out[i].id]
		out[i].title, out[i].min = it.Title, it.DurationMin
		if out[i].title == "" {
			out[i].title = out[i].id
		}
	}
	return out, nil
}
