package coach

import (
	"context"
	"sort"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/internal/store"
)

// workoutsArgs are get_recent_workouts's arguments.
type workoutsArgs struct {
	Limit *int `json:"limit" desc:"How many workouts (1-20); null = 5." schema:"minimum=1,maximum=20"`
}

func (t *Tools) recentWorkouts() agent.Tool {
	return memberTool(t.c, "get_recent_workouts",
		"The member's last workouts (newest first), the training rhythm (this week vs the usual week, "+
			"days since the last workout, rest days in a row) and the catalog content finished in the last 7 days.",
		func(ctx context.Context, m health.Member, now time.Time, a workoutsArgs) (WorkoutsView, error) {
			return t.c.workoutsView(ctx, m, orInt(a.Limit, 5), now)
		})
}

func (c *core) workoutsView(ctx context.Context, m health.Member, limit int, now time.Time) (WorkoutsView, error) {
	ws, err := c.rec.Workouts(ctx, m.ID, store.Range{From: now.AddDate(0, 0, -workoutWindowDays), To: now.Add(time.Nanosecond)})
	if err != nil {
		return WorkoutsView{}, err
	}
	v := WorkoutsView{Recent: []WorkoutLine{}, Completed: []Completion{}}
	for _, w := range health.RecentWorkouts(ws, limit) {
		// The text reaches prompts: the member's type and title go in as data.
		quoted := w
		quoted.Type, quoted.Title = agent.Quote(w.Type), agent.Quote(w.Title)
		if w.Title == "" {
			quoted.Title = ""
		}
		v.Recent = append(v.Recent, WorkoutLine{Date: dateOf(w.StartedAt, c.loc), Type: w.Type, Title: w.Title,
			DurationMin: round1(w.DurationMin), AvgHR: w.AvgHR, ContentID: w.ContentID, Text: quoted.Text(c.loc)})
	}
	st := health.WorkoutStats(ws, now, c.loc)
	v.Stats = StatsView{ThisWeek: st.ThisWeekCount, ThisWeekMinutes: st.ThisWeekMinutes, UsualPerWeek: st.UsualPerWeek,
		AveragedWeeks: st.AveragedWeeks, DaysSinceLast: st.DaysSinceLast, RestDays: st.RestDays, Text: st.Text(),
		HardDaysInARow: hardDaysInARow(ws, now, c.loc)}
	if st.LastWorkout != nil {
		v.Stats.LastWorkout = dateOf(*st.LastWorkout, c.loc)
	}
	since := health.LocalDay(now, c.loc).AddDate(0, 0, -completionDays)
	done, err := c.dash.ConsumedSince(ctx, m.ID, since)
	if err != nil {
		return v, err
	}
	for id, at := range done {
		if !at.After(now) {
			v.Completed = append(v.Completed, Completion{ContentID: id, At: at.UTC(), Source: "done_tap"})
		}
	}
	for _, w := range ws {
		if w.ContentID != "" && !w.StartedAt.Before(since) {
			v.Completed = append(v.Completed, Completion{ContentID: w.ContentID, At: w.StartedAt.UTC(), Source: "workout"})
		}
	}
	ids := make([]string, 0, len(v.Completed))
	for _, done := range v.Completed {
		ids = append(ids, done.ContentID)
	}
	titles, err := c.cat.Lookup(ctx, ids)
	if err != nil {
		return v, err
	}
	for i := range v.Completed {
		v.Completed[i].Title = titles[v.Completed[i].ContentID].Title
	}
	sort.Slice(v.Completed, func(i, j int) bool {
		a, b := v.Completed[i], v.Completed[j]
		if !a.At.Equal(b.At) {
			return a.At.Before(b.At)
		}
		if a.ContentID != b.ContentID {
			return a.ContentID < b.ContentID
		}
		return a.Source < b.Source
	})
	return v, nil
}
