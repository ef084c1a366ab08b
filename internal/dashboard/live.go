package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
)

// The coach writes once a day; the screens are read all day. Two rules keep
// its words true against live data:
//
//   - every call to action is re-checked: it names what it asks for by its
//     action (open_weight, open_nutrition, open_workout, play_up_next) and,
//     for meals, whether it is about yesterday; once live data holds that,
//     the CTA is hidden (ctaDone);
//   - the figures the briefing quotes are stored with the fact they came
//     from (Quote); when the fact's live value differs, the briefing shows
//     the live figure and says it was updated.

// Facts a briefing can quote (Quote.Fact).
const (
	FactWeightCurrent     = "weight.current"      // "70.5 kg"
	FactWeightChange7d    = "weight.change_7d"    // "−0.6 kg"
	FactYesterdayKcal     = "nutrition.prev.kcal" // "1,640 kcal", the day before the document's day
	FactYesterdayProteinG = "nutrition.prev.protein"
)

// Quote is one figure of the briefing, as written, and the fact it states.
type Quote struct {
	Fact string `json:"fact"`
	Text string `json:"text"`
}

// QuoteTx records the figures the member's document for day quotes, in the
// transaction that stored the document (PutTx clears them).
func (s *Store) QuoteTx(ctx context.Context, tx *store.Tx, member, day string, quotes []Quote) error {
	if quotes == nil {
		quotes = []Quote{}
	}
	raw, err := json.Marshal(quotes)
	if err != nil {
		return fmt.Errorf("dashboard: quotes: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE dashboards SET quotes = ? WHERE member_id = ? AND day = ?`, string(raw), member, day); err != nil {
		return fmt.Errorf("dashboard: quotes: %w", err)
	}
	return nil
}

// WeightText, ChangeText, KcalText and ProteinText render facts the way the
// coach quotes them, so that a live value compares with what was written.
func WeightText(u health.Unit, kg float64) string      { return u.Format(kg) }
func ChangeText(u health.Unit, deltaKg float64) string { return u.FormatDelta(deltaKg) }
func KcalText(kcal float64) string                     { return health.Thousands(kcal) + " kcal" }
func ProteinText(g float64) string                     { return health.Figure(g) + " g protein" }

// liveData is what the re-checks read: the member's records as of now.
type liveData struct {
	unit        health.Unit
	weighedIn   bool      // any weigh-in at all
	lastWeighIn time.Time // newest weigh-in (zero: none)
	lastWorkout time.Time
	mealDays    map[string]bool // household days with a meal, the last few days
	today       sums            // meals logged today
	prev        sums            // the day before the document's day
	proteinGoal *float64
	trend       health.Trend
}

// sums are one day's meals.
type sums struct {
	meals         int
	kcal, protein float64
}

func (s *sums) add(m health.Meal) { s.meals++; s.kcal += m.Calories; s.protein += m.ProteinG }

// liveWindow is how far back the weight trend of live figures reads.
const liveWindow = 60 * 24 * time.Hour

func (s *Store) liveData(ctx context.Context, member, docDay string, now time.Time) (liveData, error) {
	l := liveData{mealDays: map[string]bool{}}
	m, err := s.db.Member(ctx, member)
	if err != nil {
		return l, err
	}
	l.unit, l.proteinGoal = m.Unit.Normalize(), m.Targets.ProteinG
	ws, err := s.db.Weights(ctx, member, store.Range{From: now.Add(-liveWindow), To: now.Add(time.Second)})
	if err != nil {
		return l, err
	}
	l.trend = health.WeightTrend(health.PlausibleWeights(ws, s.loc), m, now, s.loc)
	var n int
	var last, workout *string
	if err := s.db.Read.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM weight_readings WHERE member_id = ?1),
		(SELECT max(measured_at) FROM weight_readings WHERE member_id = ?1),
		(SELECT max(started_at) FROM workouts WHERE member_id = ?1)`, member).Scan(&n, &last, &workout); err != nil {
		return l, fmt.Errorf("dashboard: live entries: %w", err)
	}
	l.weighedIn = n > 0
	for _, p := range []struct {
		s  *string
		to *time.Time
	}{{last, &l.lastWeighIn}, {workout, &l.lastWorkout}} {
		if p.s != nil {
			if *p.to, err = store.ParseTime(*p.s); err != nil {
				return l, err
			}
		}
	}
	start, err := time.ParseInLocation(time.DateOnly, docDay, s.loc)
	if err != nil {
		start = s.DayStart(now)
	}
	prevStart := start.AddDate(0, 0, -1)
	from := s.DayStart(now).AddDate(0, 0, -1)
	if prevStart.Before(from) {
		from = prevStart
	}
	meals, err := s.db.Meals(ctx, member, store.Range{From: from, To: now.Add(time.Second)})
	if err != nil {
		return l, err
	}
	today := s.Day(now)
	for _, x := range meals {
		d := s.Day(x.EatenAt)
		l.mealDays[d] = true
		if d == today {
			l.today.add(x)
		}
		if !x.EatenAt.Before(prevStart) && x.EatenAt.Before(start) {
			l.prev.add(x)
		}
	}
	return l, nil
}

// ctaDone reports whether live data now holds what the CTA asks for.
func (l liveData) ctaDone(c CTA, t *Today, docDay string, now time.Time, loc *time.Location) bool {
	today := now.In(loc).Format(time.DateOnly)
	yesterday := now.In(loc).AddDate(0, 0, -1).Format(time.DateOnly)
	if d, err := time.ParseInLocation(time.DateOnly, docDay, loc); err == nil {
		yesterday = d.AddDate(0, 0, -1).Format(time.DateOnly)
	}
	msg := strings.ToLower(c.Message)
	switch c.Action {
	case ActionOpenWeight:
		if c.Type != CTADataGap { // "step on the scale to start your trend"
			return l.weighedIn
		}
		return !l.lastWeighIn.IsZero() && (l.lastWeighIn.After(t.PreparedAt) || health.DaysAgo(l.lastWeighIn, now, loc) == 0)
	case ActionOpenNutrition:
		switch {
		case strings.Contains(msg, "yesterday"): // a meal logged today does not fill yesterday
			return l.mealDays[yesterday]
		case strings.Contains(msg, "protein") && l.proteinGoal != nil:
			return l.today.protein >= *l.proteinGoal
		}
		return l.mealDays[today]
	case ActionOpenWorkout:
		return !l.lastWorkout.IsZero() && (l.lastWorkout.After(t.PreparedAt) || health.DaysAgo(l.lastWorkout, now, loc) == 0)
	case ActionPlayUpNext:
		return t.UpNext == nil
	}
	return false
}

// fact is the live text of a quoted fact ("" when it cannot be said now).
func (l liveData) fact(name string) string {
	switch name {
	case FactWeightCurrent:
		if l.trend.CurrentKg != nil {
			return WeightText(l.unit, *l.trend.CurrentKg)
		}
	case FactWeightChange7d:
		if l.trend.Change7dKg != nil {
			return ChangeText(l.unit, *l.trend.Change7dKg)
		}
	case FactYesterdayKcal:
		if l.prev.meals > 0 {
			return KcalText(l.prev.kcal)
		}
	case FactYesterdayProteinG:
		if l.prev.meals > 0 {
			return ProteinText(l.prev.protein)
		}
	}
	return ""
}

// requote replaces each quoted figure that changed since the briefing was
// written by its live value; updated says whether any did.
func (l liveData) requote(briefing string, quotes []Quote) (string, bool) {
	updated := false
	for _, q := range quotes {
		now := l.fact(q.Fact)
		if q.Text == "" || now == "" || now == q.Text || !strings.Contains(briefing, q.Text) {
			continue
		}
		briefing = strings.Replace(briefing, q.Text, now, 1)
		updated = true
	}
	return briefing, updated
}
