package history

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
)

// Source is where a series reads a member's records (*store.DB).
type Source interface {
	Member(ctx context.Context, id string) (health.Member, error)
	Weights(ctx context.Context, member string, rg store.Range) ([]health.WeightReading, error)
	Meals(ctx context.Context, member string, rg store.Range) ([]health.Meal, error)
	Workouts(ctx context.Context, member string, rg store.Range) ([]health.Workout, error)
	MealDays(ctx context.Context, member string, from, to time.Time, loc *time.Location) ([]store.MealDay, error)
	WorkoutDays(ctx context.Context, member string, from, to time.Time, loc *time.Location) ([]store.WorkoutDay, error)
}

// Span is how far back a series reaches.
type Span string

// The spans the history view offers.
const (
	Month    Span = "1m"
	Quarter  Span = "3m"
	Year     Span = "12m"
	All      Span = "all"
	Default       = Quarter
	warmDays      = 60 // readings before the span that let the trend settle
)

// Spans in the order the view lists them.
var Spans = []Span{Month, Quarter, Year, All}

// ParseSpan reads a span from a query value; anything else is Default.
func ParseSpan(s string) Span {
	for _, sp := range Spans {
		if string(sp) == s {
			return sp
		}
	}
	return Default
}

// Label is how a span is named on its tab.
func (s Span) Label() string {
	switch s {
	case Month:
		return "1 month"
	case Quarter:
		return "3 months"
	case Year:
		return "12 months"
	}
	return "All"
}

// Grain is the size of a bucket.
type Grain string

// Grains, finest first.
const (
	Daily   Grain = "day"
	Weekly  Grain = "week"
	Monthly Grain = "month"
)

// Bucket is one day, week (Monday to Sunday) or month of the span.
type Bucket struct {
	Start time.Time // local midnight of its first day
	// Days is how many of its days lie in the span (a week cut by the
	// span's start has fewer); DaysLogged how many have a meal.
	Days, DaysLogged int
	Meals            int
	// Kcal, ProteinG, CarbsG, FatG are sums over the bucket.
	Kcal, ProteinG, CarbsG, FatG float64
	Workouts                     int
	WorkoutMin                   float64
}

// PerLoggedDay is the bucket's daily average kcal and protein over the
// days with meals (0 when none).
func (b Bucket) PerLoggedDay() (kcal, protein float64) {
	if b.DaysLogged == 0 {
		return 0, 0
	}
	return b.Kcal / float64(b.DaysLogged), b.ProteinG / float64(b.DaysLogged)
}

// WorkoutsPerWeek is the bucket's workouts per 7 days of the span.
func (b Bucket) WorkoutsPerWeek() float64 {
	if b.Days == 0 {
		return 0
	}
	return float64(b.Workouts) * 7 / float64(b.Days)
}

// TypeCount is how many workouts of one type the span holds.
type TypeCount struct {
	Type string
	N    int
}

// Series is a member's records over a span.
type Series struct {
	Member   health.Member
	Span     Span
	From, To time.Time // local midnights: the span's first day and today
	Now      time.Time
	Loc      *time.Location
	// Weight is the trend line over the span: one point per day with a
	// weigh-in, or per Grain bucket on long spans (mean of the days' values,
	// the trend as of the bucket's last weigh-in). WeighIns counts the
	// plausible readings in the span; First and Last are the first and last
	// of them (nil: none).
	Weight      []health.TrendPoint
	WeightGrain Grain
	WeighIns    int
	First, Last *health.WeightReading
	// Buckets cover the span at Grain, oldest first.
	Grain   Grain
	Buckets []Bucket
	// Meals and Workouts count the span's records; Types is the workout
	// mix, most first.
	Meals, Workouts int
	Types           []TypeCount
	// Since is the first record of any kind (zero: none at all).
	Since time.Time
}

// Empty reports whether the span holds no records.
func (s Series) Empty() bool { return s.WeighIns == 0 && s.Meals == 0 && s.Workouts == 0 }

// Loader loads series.
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

// Load reads member's records over span as of now: weigh-ins over the
// span (from warmDays earlier, for the trend), meals and workouts summed
// per local day by the store, and the first record of each kind for "All"
// and "since".
func (l *Loader) Load(ctx context.Context, member string, span Span, now time.Time) (Series, error) {
	m, err := l.src.Member(ctx, member)
	if err != nil {
		return Series{}, err
	}
	loc := l.loc
	today := health.LocalDay(now, loc)
	s := Series{Member: m, Span: span, To: today, Now: now, Loc: loc}
	if s.Since, err = l.since(ctx, member, now); err != nil {
		return Series{}, err
	}
	switch span {
	case Month:
		s.From = today.AddDate(0, -1, 1)
	case Quarter:
		s.From = today.AddDate(0, -3, 1)
	case Year:
		s.From = today.AddDate(-1, 0, 1)
	default:
		s.From = today
		if !s.Since.IsZero() {
			s.From = health.LocalDay(s.Since, loc)
		}
	}
	to := now.Add(time.Millisecond) // up to and including now
	ws, err := l.src.Weights(ctx, member, store.Range{From: s.From.AddDate(0, 0, -warmDays), To: to})
	if err != nil {
		return Series{}, fmt.Errorf("history: weights: %w", err)
	}
	meals, err := l.src.MealDays(ctx, member, s.From, to, loc)
	if err != nil {
		return Series{}, fmt.Errorf("history: meals: %w", err)
	}
	wos, err := l.src.WorkoutDays(ctx, member, s.From, to, loc)
	if err != nil {
		return Series{}, fmt.Errorf("history: workouts: %w", err)
	}
	s.weight(ws)
	s.bucket(meals, wos)
	return s, nil
}

// since is the first record of any kind.
func (l *Loader) since(ctx context.Context, member string, now time.Time) (time.Time, error) {
	first := time.Time{}
	keep := func(t time.Time) {
		if first.IsZero() || t.Before(first) {
			first = t
		}
	}
	rg := store.Range{To: now.Add(time.Millisecond), Limit: 1}
	ws, err := l.src.Weights(ctx, member, rg)
	if err != nil {
		return first, fmt.Errorf("history: first weight: %w", err)
	}
	for _, w := range ws {
		keep(w.MeasuredAt)
	}
	ms, err := l.src.Meals(ctx, member, rg)
	if err != nil {
		return first, fmt.Errorf("history: first meal: %w", err)
	}
	for _, m := range ms {
		keep(m.EatenAt)
	}
	wos, err := l.src.Workouts(ctx, member, rg)
	if err != nil {
		return first, fmt.Errorf("history: first workout: %w", err)
	}
	for _, w := range wos {
		keep(w.StartedAt)
	}
	return first, nil
}

// days is the span's length in calendar days.
func (s Series) days() int { return health.DaysAgo(s.From, s.To, s.Loc) + 1 }

// grainFor is the bucket size that keeps a span to a readable number of
// bars: days up to 3 months, weeks up to 2 years, months beyond.
func grainFor(days int) Grain {
	switch {
	case days <= 100:
		return Daily
	case days <= 740:
		return Weekly
	}
	return Monthly
}

// startOf is the local midnight that starts t's bucket.
func startOf(g Grain, t time.Time, loc *time.Location) time.Time {
	switch g {
	case Weekly:
		return health.WeekStart(t, loc)
	case Monthly:
		y, m, _ := t.In(loc).Date()
		return time.Date(y, m, 1, 0, 0, 0, 0, loc)
	}
	return health.LocalDay(t, loc)
}

func next(g Grain, t time.Time) time.Time {
	switch g {
	case Weekly:
		return t.AddDate(0, 0, 7)
	case Monthly:
		return t.AddDate(0, 1, 0)
	}
	return t.AddDate(0, 0, 1)
}

// weight applies the plausibility rule to the readings and keeps the
// trend's days inside the span, thinned to weeks or months on long spans.
func (s *Series) weight(ws []health.WeightReading) {
	plausible := health.PlausibleWeights(ws, s.Loc)
	var in []health.WeightReading
	for i, r := range plausible {
		if !r.MeasuredAt.Before(s.From) && !r.MeasuredAt.After(s.Now) {
			in = append(in, plausible[i])
		}
	}
	s.WeighIns = len(in)
	if len(in) > 0 {
		sort.SliceStable(in, func(i, j int) bool { return in[i].MeasuredAt.Before(in[j].MeasuredAt) })
		s.First, s.Last = &in[0], &in[len(in)-1]
	}
	var pts []health.TrendPoint
	for _, p := range health.WeightSeries(plausible, s.Now, s.Loc) {
		if !p.Day.Before(s.From) {
			pts = append(pts, p)
		}
	}
	s.WeightGrain = Daily
	if s.days() > 400 {
		s.WeightGrain = grainFor(s.days())
	}
	if s.WeightGrain == Daily {
		s.Weight = pts
		return
	}
	var sum float64
	var n int
	for i, p := range pts {
		if p.RawKg != nil {
			sum += *p.RawKg
			n++
		}
		b := startOf(s.WeightGrain, p.Day, s.Loc)
		if i+1 < len(pts) && startOf(s.WeightGrain, pts[i+1].Day, s.Loc).Equal(b) {
			continue
		}
		out := health.TrendPoint{Day: p.Day, TrendKg: p.TrendKg}
		if n > 0 {
			v := math.Round(sum/float64(n)*100) / 100
			out.RawKg = &v
		}
		s.Weight = append(s.Weight, out)
		sum, n = 0, 0
	}
}

// bucket sums the days' meals and workouts into the span's buckets.
func (s *Series) bucket(meals []store.MealDay, wos []store.WorkoutDay) {
	s.Grain = grainFor(s.days())
	index := map[time.Time]int{}
	for t := startOf(s.Grain, s.From, s.Loc); !t.After(s.To); t = next(s.Grain, t) {
		b := Bucket{Start: t}
		from, end := t, next(s.Grain, t)
		if from.Before(s.From) {
			from = s.From
		}
		if last := s.To.AddDate(0, 0, 1); end.After(last) {
			end = last
		}
		b.Days = health.DaysAgo(from, end, s.Loc)
		index[t] = len(s.Buckets)
		s.Buckets = append(s.Buckets, b)
	}
	at := func(day string) (*Bucket, bool) {
		d, err := time.ParseInLocation(time.DateOnly, day, s.Loc)
		if err != nil {
			return nil, false
		}
		i, ok := index[startOf(s.Grain, d, s.Loc)]
		if !ok {
			return nil, false
		}
		return &s.Buckets[i], true
	}
	for _, m := range meals {
		b, ok := at(m.Day)
		if !ok {
			continue
		}
		b.Meals += m.Meals
		b.Kcal += m.Kcal
		b.ProteinG += m.ProteinG
		b.CarbsG += m.CarbsG
		b.FatG += m.FatG
		b.DaysLogged++
		s.Meals += m.Meals
	}
	types := map[string]int{}
	for _, w := range wos {
		b, ok := at(w.Day)
		if !ok {
			continue
		}
		b.Workouts += w.N
		b.WorkoutMin += w.Minutes
		types[w.Type] += w.N
		s.Workouts += w.N
	}
	for t, n := range types {
		s.Types = append(s.Types, TypeCount{Type: t, N: n})
	}
	sort.Slice(s.Types, func(i, j int) bool {
		if s.Types[i].N != s.Types[j].N {
			return s.Types[i].N > s.Types[j].N
		}
		return s.Types[i].Type < s.Types[j].Type
	})
}
