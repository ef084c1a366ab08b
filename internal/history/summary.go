package history

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
)

// SummaryReader is what Summarize reads: aggregate queries over one
// member's records (*store.DB).
type SummaryReader interface {
	RecordSpans(ctx context.Context, member string) ([]store.RecordSpan, error)
	WorkoutTypeCounts(ctx context.Context, member string, limit int) ([]store.TypeCount, error)
	WeightMonths(ctx context.Context, member string) ([]store.WeightMonth, error)
}

var _ SummaryReader = (*store.DB)(nil)

// Summary is a member's whole record, however old and wherever it came
// from: what the coach says about years of imported history when the
// recent windows it reads day to day hold nothing.
type Summary struct {
	Weights, Meals, Workouts, Scans Kind
	// WorkoutTypes are the workout types, most first (at most
	// maxWorkoutTypes).
	WorkoutTypes []TypeShare
	// Trend is the long-term weight trend (nil with fewer than two months
	// of weigh-ins).
	Trend *LongTrend
}

// Kind is one kind of record: how many, the first and last instants, and
// where they came from.
type Kind struct {
	Count       int
	First, Last time.Time
	// Sources are the origins by name (SourceName), most records first.
	Sources []SourceCount
}

// SourceCount is the records of a span from one origin.
type SourceCount struct {
	Name        string
	Imported    bool // from an import (not logged in Hearth)
	Count       int
	First, Last time.Time
}

// TypeShare is one workout type's count and share of all workouts.
type TypeShare struct {
	Type  string
	Count int
	Share float64 // 0-1
}

// LongTrend is the weight from the first month of weigh-ins to the last,
// each the month's average (a day's reading says little over years).
// Months far from their neighbours (a typo's month) are left out.
type LongTrend struct {
	FromMonth, ToMonth time.Time // first day of the month, UTC
	FromKg, ToKg       float64
	Months             int // months with weigh-ins, those left out excluded
}

// ChangeKg is the change from the first month to the last.
func (t LongTrend) ChangeKg() float64 { return t.ToKg - t.FromKg }

const (
	maxWorkoutTypes = 5
	// MostlyShare: a type with this share of the workouts is what they
	// mostly were ("mostly strength").
	MostlyShare = 0.5
	// monthNeighbours: the months nearest to a month that judge whether
	// its average is plausible (plausibleMonth).
	monthNeighbours = 4
)

// Summarize reads the member's summary in three aggregate queries.
func Summarize(ctx context.Context, r SummaryReader, member string) (Summary, error) {
	var s Summary
	spans, err := r.RecordSpans(ctx, member)
	if err != nil {
		return s, fmt.Errorf("history: summary: %w", err)
	}
	for _, sp := range spans {
		switch sp.Kind {
		case store.SpanWeight:
			s.Weights.add(sp)
		case store.SpanMeal:
			s.Meals.add(sp)
		case store.SpanWorkout:
			s.Workouts.add(sp)
		case store.SpanBodyScan:
			s.Scans.add(sp)
		}
	}
	for _, sp := range []*Kind{&s.Weights, &s.Meals, &s.Workouts, &s.Scans} {
		sort.SliceStable(sp.Sources, func(i, j int) bool {
			a, b := sp.Sources[i], sp.Sources[j]
			if a.Count != b.Count {
				return a.Count > b.Count
			}
			return a.Name < b.Name
		})
	}
	if s.Workouts.Count > 0 {
		types, err := r.WorkoutTypeCounts(ctx, member, maxWorkoutTypes)
		if err != nil {
			return s, fmt.Errorf("history: summary: %w", err)
		}
		for _, t := range types {
			s.WorkoutTypes = append(s.WorkoutTypes, TypeShare{Type: t.Type, Count: t.Count,
				Share: float64(t.Count) / float64(s.Workouts.Count)})
		}
	}
	if s.Weights.Count > 0 {
		months, err := r.WeightMonths(ctx, member)
		if err != nil {
			return s, fmt.Errorf("history: summary: %w", err)
		}
		s.Trend = longTrend(months)
	}
	return s, nil
}

// add merges a store span into the kind's; spans of one origin (several
// imports from the same app) become one source.
func (sp *Kind) add(r store.RecordSpan) {
	if sp.Count == 0 || r.First.Before(sp.First) {
		sp.First = r.First
	}
	if sp.Count == 0 || r.Last.After(sp.Last) {
		sp.Last = r.Last
	}
	sp.Count += r.Count
	name := SourceName(r.Source, r.Profile)
	imported := r.Source != "manual" && r.Source != "demo"
	for i := range sp.Sources {
		if c := &sp.Sources[i]; c.Name == name && c.Imported == imported {
			c.Count += r.Count
			if r.First.Before(c.First) {
				c.First = r.First
			}
			if r.Last.After(c.Last) {
				c.Last = r.Last
			}
			return
		}
	}
	sp.Sources = append(sp.Sources, SourceCount{Name: name, Imported: imported, Count: r.Count, First: r.First, Last: r.Last})
}

// SourceName names where records came from as a person knows it: the app
// whose export was imported ("Strong"; a profile such as "MyFitnessPal
// Nutrition-Summary" by its app's name), Apple Health, Home Assistant (a
// mapped sensor), a CSV file without a known app, Hearth itself.
func SourceName(source, profile string) string {
	if app, _, _ := strings.Cut(strings.TrimSpace(profile), " "); app != "" {
		return app
	}
	switch source {
	case "apple_health":
		return "Apple Health"
	case "csv":
		return "CSV files"
	case "homeassistant":
		return "Home Assistant"
	case "manual", "":
		return "Hearth"
	case "demo":
		return "the demo"
	}
	return source
}

// longTrend is the first and last plausible month of weigh-ins.
func longTrend(months []store.WeightMonth) *LongTrend {
	var kept []store.WeightMonth
	for i, m := range months {
		if plausibleMonth(months, i) {
			kept = append(kept, m)
		}
	}
	if len(kept) < 2 {
		return nil
	}
	first, last := kept[0], kept[len(kept)-1]
	from, err1 := time.Parse("2006-01", first.Month)
	to, err2 := time.Parse("2006-01", last.Month)
	if err1 != nil || err2 != nil {
		return nil
	}
	return &LongTrend{FromMonth: from, ToMonth: to, FromKg: first.AvgKg, ToKg: last.AvgKg, Months: len(kept)}
}

// plausibleMonth reports whether month i's average lies within
// health.MaxTrendDeviation (the rule a single weigh-in meets against the
// trend) of at least half of its nearest months (up to monthNeighbours, the
// nearest first): a month whose only weigh-in was a typo is not where a
// years-long trend starts or ends. A month alone is kept.
func plausibleMonth(months []store.WeightMonth, i int) bool {
	near, close := 0, 0
	for d := 1; near < monthNeighbours && (i-d >= 0 || i+d < len(months)); d++ {
		for _, j := range []int{i - d, i + d} {
			if j < 0 || j >= len(months) || near == monthNeighbours {
				continue
			}
			near++
			if n := months[j].AvgKg; math.Abs(months[i].AvgKg-n) <= n*health.MaxTrendDeviation {
				close++
			}
		}
	}
	return near == 0 || 2*close >= near
}

// Any reports whether the member has any record at all.
func (s Summary) Any() bool {
	return s.Weights.Count+s.Meals.Count+s.Workouts.Count+s.Scans.Count > 0
}

// Mostly is the workout type that makes up at least MostlyShare of the
// workouts ("" when none does).
func (s Summary) Mostly() string {
	if len(s.WorkoutTypes) > 0 && s.WorkoutTypes[0].Share >= MostlyShare {
		return s.WorkoutTypes[0].Type
	}
	return ""
}
