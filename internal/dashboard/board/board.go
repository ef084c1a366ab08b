// Package board is the dashboard's read model: one member's records, read
// once, with the plausibility rule applied once, and every figure the
// kiosk's member page, the briefing's re-quote and re-checks
// (dashboard.Today), the coach's facts and its chat replies show. A figure
// that appears in two places is one field (or one method) here, so the two
// cannot disagree.
//
// It sits under internal/dashboard because it is the dashboard's view of
// the health records; it imports health and store only, so dashboard,
// coach, household and web can all import it.
package board

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
)

// Source is where a board reads a member's records (*store.DB).
type Source interface {
	Member(ctx context.Context, id string) (health.Member, error)
	Weights(ctx context.Context, member string, rg store.Range) ([]health.WeightReading, error)
	Meals(ctx context.Context, member string, rg store.Range) ([]health.Meal, error)
	Workouts(ctx context.Context, member string, rg store.Range) ([]health.Workout, error)
	BodyScans(ctx context.Context, member string, rg store.Range) ([]health.BodyScan, error)
}

// How far back a board reads. One window per record kind for every
// reader: the weight trend is a moving average, so two windows would give
// two trends (the coach's tools and the household's "Are you sure?" check
// read WeightDays too). WeightDays covers the chart (30 days), the
// goal-pace fit (28) and the plausibility window (14) with room for the
// average to settle; MealDays the logging streak; WorkoutLimit the recent
// rows however old and the usual week (4 full weeks).
const (
	WeightDays   = 180
	MealDays     = 120
	WorkoutLimit = 80
	ScanLimit    = 4
)

// Board is one member's dashboard figures as of Now.
type Board struct {
	Member health.Member
	Unit   health.Unit
	Now    time.Time
	Loc    *time.Location
	Weight Weight
	// Meals, Workouts and Scans are newest first.
	Meals    []health.Meal
	Workouts []health.Workout
	Scans    []health.BodyScan
	// Nutrition is today's meals against the targets; Streak the logging
	// streak.
	Nutrition health.DayNutrition
	Streak    int
	// Training is the week's rhythm (weeks start on Monday, local): the
	// widget's "this week" and the re-quoted coach's. The coach's tool
	// counts with the same function over a window that holds the whole
	// week, so it writes the same count.
	Training health.TrainingStats
	// LastMeal and LastWorkout are the newest entries (zero: none).
	LastMeal, LastWorkout time.Time
}

// Weight is the weight figures with the plausibility rule applied.
type Weight struct {
	// Readings are all readings given, newest first, questioned ones
	// included (the list shows them, marked); the loader reads none after
	// now.
	Readings []health.WeightReading
	// Plausible are the readings the rule keeps (health.PlausibleWeights);
	// every weight figure comes from them.
	Plausible []health.WeightReading
	// Questioned are the ids the rule set aside.
	Questioned map[int64]bool
	// Trend is health.WeightTrend of Plausible.
	Trend health.Trend
	// Current is the newest plausible reading (nil: none).
	Current *health.WeightReading
	// LastAny is the newest weigh-in of any kind, questioned included:
	// a weigh-in answers "step on the scale" even if it needs confirming.
	LastAny time.Time
	// Earlier is set when no weigh-in falls inside WeightDays but older
	// ones exist (years of imported history): the weight figures as of the
	// newest reading, over the WeightDays before it. It is history, not
	// the current weight: Current stays nil, and the kiosk shows it as
	// "last weighed 14 Mar 2024".
	Earlier *Weight
}

// StaleDays: a newest weigh-in older than this many days is shown as
// "last weighed …", not as the current weight (the chart's window: with
// no weigh-in in it there is no current trend to draw).
const StaleDays = health.ChartDays

// Last is the newest plausible reading, inside the window or Earlier
// (nil: none at all), and whether it is stale as of now.
func (w Weight) Last(now time.Time, loc *time.Location) (r *health.WeightReading, stale bool) {
	switch {
	case w.Current != nil:
		r = w.Current
	case w.Earlier != nil && w.Earlier.Current != nil:
		r = w.Earlier.Current
	default:
		return nil, false
	}
	return r, health.DaysAgo(r.MeasuredAt, now, loc) > StaleDays
}

// Loader loads boards.
type Loader struct {
	src Source
	loc *time.Location
}

// NewLoader reads from src on the household calendar of loc.
func NewLoader(src Source, loc *time.Location) *Loader {
	if loc == nil {
		loc = time.UTC
	}
	return &Loader{src: src, loc: loc}
}

// Load reads member's row once and each kind of record once.
func (l *Loader) Load(ctx context.Context, member string, now time.Time) (Board, error) {
	m, err := l.src.Member(ctx, member)
	if err != nil {
		return Board{}, err
	}
	// Up to and including now: stored times have millisecond precision, so
	// an entry written this millisecond reads back as now.
	to := now.Add(time.Millisecond)
	ws, err := l.src.Weights(ctx, member, store.Range{From: now.AddDate(0, 0, -WeightDays), To: to, Desc: true})
	if err != nil {
		return Board{}, fmt.Errorf("board: weights: %w", err)
	}
	meals, err := l.src.Meals(ctx, member, store.Range{From: now.AddDate(0, 0, -MealDays), To: to, Desc: true})
	if err != nil {
		return Board{}, fmt.Errorf("board: meals: %w", err)
	}
	wos, err := l.src.Workouts(ctx, member, store.Range{Limit: WorkoutLimit, To: to, Desc: true})
	if err != nil {
		return Board{}, fmt.Errorf("board: workouts: %w", err)
	}
	scans, err := l.src.BodyScans(ctx, member, store.Range{Limit: ScanLimit, To: to, Desc: true})
	if err != nil {
		return Board{}, fmt.Errorf("board: body scans: %w", err)
	}
	b := Of(m, ws, meals, wos, scans, now, l.loc)
	if len(ws) == 0 {
		if b.Weight.Earlier, err = l.earlier(ctx, m, to); err != nil {
			return Board{}, err
		}
	}
	return b, nil
}

// earlier reads the WeightDays up to the newest reading before to (nil:
// none ever).
func (l *Loader) earlier(ctx context.Context, m health.Member, to time.Time) (*Weight, error) {
	newest, err := l.src.Weights(ctx, m.ID, store.Range{To: to, Desc: true, Limit: 1})
	if err != nil || len(newest) == 0 {
		return nil, wrapErr("earlier weights", err)
	}
	at := newest[0].MeasuredAt
	ws, err := l.src.Weights(ctx, m.ID, store.Range{From: at.AddDate(0, 0, -WeightDays), To: at.Add(time.Millisecond), Desc: true})
	if err != nil {
		return nil, wrapErr("earlier weights", err)
	}
	w := WeightOf(m, ws, at, l.loc)
	return &w, nil
}

func wrapErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("board: %s: %w", what, err)
}

// Of computes a board from records already read (any order; those after
// now are left out).
func Of(m health.Member, weights []health.WeightReading, meals []health.Meal, workouts []health.Workout,
	scans []health.BodyScan, now time.Time, loc *time.Location) Board {
	if loc == nil {
		loc = time.UTC
	}
	b := Board{Member: m, Unit: m.Unit.Normalize(), Now: now, Loc: loc,
		Weight: WeightOf(m, weights, now, loc), Meals: newestFirst(meals, func(x health.Meal) time.Time { return x.EatenAt }, now),
		Workouts: newestFirst(workouts, func(x health.Workout) time.Time { return x.StartedAt }, now),
		Scans:    newestFirst(scans, func(x health.BodyScan) time.Time { return x.ScannedAt }, now)}
	b.Nutrition = health.NutritionDay(b.Meals, m.Targets, now, loc)
	b.Streak = health.LoggingStreak(b.Meals, now, loc)
	b.Training = health.WorkoutStats(b.Workouts, now, loc)
	if len(b.Meals) > 0 {
		b.LastMeal = b.Meals[0].EatenAt
	}
	if len(b.Workouts) > 0 {
		b.LastWorkout = b.Workouts[0].StartedAt
	}
	return b
}

// WeightOf applies the plausibility rule to readings (any order) and
// summarises the plausible ones as of now: the one computation behind every
// weight figure (the kiosk, the coach's get_weight_trend, the re-quote).
func WeightOf(m health.Member, readings []health.WeightReading, now time.Time, loc *time.Location) Weight {
	// Readings after now stay in the plausibility pass (as the coach has
	// always judged them) but never become current.
	rs := newestFirst(readings, func(x health.WeightReading) time.Time { return x.MeasuredAt }, time.Time{})
	w := Weight{Readings: rs, Plausible: health.PlausibleWeights(rs, loc), Questioned: map[int64]bool{}}
	if len(w.Plausible) != len(rs) {
		kept := make(map[int]bool, len(w.Plausible))
		j := 0
		for i := range rs { // PlausibleWeights keeps the order: walk both
			if j < len(w.Plausible) && rs[i].ID == w.Plausible[j].ID && rs[i].MeasuredAt.Equal(w.Plausible[j].MeasuredAt) {
				kept[i] = true
				j++
			}
		}
		for i, r := range rs {
			if !kept[i] {
				w.Questioned[r.ID] = true
			}
		}
	}
	w.Trend = health.WeightTrend(w.Plausible, m, now, loc)
	for i, r := range w.Plausible {
		if !r.MeasuredAt.After(now) {
			w.Current = &w.Plausible[i]
			// The reading as stored, not rounded to 0.01 first: the trend's
			// text (the coach's facts, chat) then rounds it once, as the
			// list and the headline do (83.949 is 83.9 everywhere, not 84).
			w.Trend.CurrentKg = &w.Plausible[i].WeightKg
			break
		}
	}
	for _, r := range rs {
		if !r.MeasuredAt.After(now) {
			w.LastAny = r.MeasuredAt
			break
		}
	}
	return w
}

// newestFirst copies xs without entries after now (zero: keep all),
// newest first (stable for equal times: the store's order, id descending,
// is kept).
func newestFirst[T any](xs []T, at func(T) time.Time, now time.Time) []T {
	out := make([]T, 0, len(xs))
	for _, x := range xs {
		if now.IsZero() || !at(x).After(now) {
			out = append(out, x)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return at(out[i]).After(at(out[j])) })
	return out
}

// Figures, each rendered by one function wherever it is shown.

// WeightNumber is a weight in the member's unit with one decimal ("84.0"):
// the headline. It rounds once, from the reading as stored, as WeightText
// does, so the headline and the list agree.
func (b Board) WeightNumber(kg float64) string { return WeightNumber(b.Unit, kg) }

// WeightNumber renders kg in the unit with one decimal ("84.0").
func WeightNumber(u health.Unit, kg float64) string {
	return health.Fixed1(u.Normalize().FromKg(kg))
}

// WeightText is a weight as the list, the coach and the briefing write it
// ("84 kg", "83.9 kg").
func (b Board) WeightText(kg float64) string { return WeightText(b.Unit, kg) }

// WeightText renders kg in the unit ("84 kg").
func WeightText(u health.Unit, kg float64) string { return u.Format(kg) }

// ChangeText renders a weight change ("−0.6 kg").
func ChangeText(u health.Unit, deltaKg float64) string { return u.FormatDelta(deltaKg) }

// CurrentText is the current weight ("" before the first plausible
// reading).
func (b Board) CurrentText() string {
	if c := b.Weight.Current; c != nil {
		return b.WeightText(c.WeightKg)
	}
	return ""
}

// Change7dText is the 7-day change of the trend ("" when unknown).
func (b Board) Change7dText() string {
	if c := b.Weight.Trend.Change7dKg; c != nil {
		return ChangeText(b.Unit, *c)
	}
	return ""
}

// TrendText is the trend ("71.3 kg"); the household's "Are you sure?"
// check quotes the same figure (TrendBefore).
func (b Board) TrendText() string {
	if t := b.Weight.Trend.TrendKg; t != nil {
		return b.WeightText(*t)
	}
	return ""
}

// ETA is the local day the trend reaches the goal at the current pace
// (nil: not on track).
func (b Board) ETA() *time.Time {
	if g := b.Weight.Trend.Goal; g.Status == health.ETAOnTrack && g.ETA != nil {
		t := g.ETA.In(b.Loc)
		return &t
	}
	return nil
}

// ETAText is the goal ETA as the widget and the briefing write it ("Sun 24
// Jan"; "" when not on track).
func (b Board) ETAText() string {
	if e := b.ETA(); e != nil {
		return health.CivilDayText(*e, b.Now.In(b.Loc))
	}
	return ""
}

// WorkoutsText is this week's workouts ("4 workouts").
func (b Board) WorkoutsText() string { return WorkoutsText(b.Training.ThisWeekCount) }

// WorkoutsText renders a count of workouts ("1 workout", "4 workouts").
func WorkoutsText(n int) string {
	if n == 1 {
		return "1 workout"
	}
	return strconv.Itoa(n) + " workouts"
}

// Day is the household calendar day of t ("2026-01-24").
func (b Board) Day(t time.Time) string { return t.In(b.Loc).Format(time.DateOnly) }

// DayMeals sums the meals of one household day.
func (b Board) DayMeals(day string) (n int, kcal, protein float64) {
	for _, m := range b.Meals {
		if b.Day(m.EatenAt) == day {
			n++
			kcal += m.Calories
			protein += m.ProteinG
		}
	}
	return n, kcal, protein
}
