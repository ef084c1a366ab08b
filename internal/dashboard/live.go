package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/internal/history"
	"hearth/internal/store"
)

// The coach writes once a day; the screens are read all day. Two rules keep
// its words true against live data, both read from the member's board (the
// read model the screen's widgets read too):
//
//   - every call to action is re-checked: it names what it asks for as data
//     (CTA.Record, Day, Macro; Subject derives them for documents written
//     before those fields); once live data holds that, the CTA is hidden
//     (ctaDone). The message is never searched;
//   - the figures the briefing and the feedback quote are stored with the
//     fact they came from (Quote); when the fact's live value differs, the
//     text shows the live figure and the briefing says it was updated.

// Facts a briefing can quote (Quote.Fact).
const (
	FactWeightCurrent     = "weight.current"      // "70.5 kg"
	FactWeightChange7d    = "weight.change_7d"    // "−0.6 kg"
	FactWeightETA         = "weight.eta"          // "Sun 24 Jan", the day the trend reaches the goal
	FactWorkoutsThisWeek  = "workouts.this_week"  // "4 workouts"
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
func WeightText(u health.Unit, kg float64) string      { return board.WeightText(u, kg) }
func ChangeText(u health.Unit, deltaKg float64) string { return board.ChangeText(u, deltaKg) }
func KcalText(kcal float64) string                     { return health.Thousands(kcal) + " kcal" }
func ProteinText(g float64) string                     { return health.Figure(g) + " g protein" }

// Board loads member's board as of now (the dashboard's read model): the
// kiosk renders its widgets from it and hands it back to TodayOf.
func (s *Store) Board(ctx context.Context, member string, now time.Time) (board.Board, error) {
	return board.NewLoader(s.db, s.loc).Load(ctx, member, now)
}

// Records reads a member's records over span as of now (the history view).
func (s *Store) Records(ctx context.Context, member string, span history.Span, now time.Time) (history.Series, error) {
	return history.NewLoader(s.db, s.loc).Load(ctx, member, span, now)
}

// Subject is what a call to action asks for, as data.
type Subject struct {
	Record string // RecordWeight, RecordMeal, RecordWorkout, RecordUpNext
	Day    string // DayToday, DayYesterday, DayAny
	Macro  string // MacroNone, MacroCalories, MacroProtein, MacroCarbs, MacroFat
}

// Subject returns the CTA's subject fields. A document stored before they
// existed has none: they are derived from the action (open_weight → a
// weigh-in, open_nutrition → a meal, open_workout → a workout, play_up_next
// → Up Next) and the type (a data_gap about meals is about yesterday, the
// day before the document's, the one the heuristic coach wrote; a habit
// about the scale is answered by any weigh-in; otherwise today), with no
// macro. The message is never read.
func (c CTA) Subject() Subject {
	s := Subject{Record: c.Record, Day: c.Day, Macro: c.Macro}
	if s.Record == "" {
		s.Record = recordOf[c.Action]
	}
	if s.Day == "" {
		s.Day = DayToday
		switch {
		case s.Record == RecordMeal && c.Type == CTADataGap:
			s.Day = DayYesterday
		case s.Record == RecordWeight && c.Type != CTADataGap:
			s.Day = DayAny
		}
	}
	if s.Macro == "" {
		s.Macro = MacroNone
	}
	return s
}

// MissingDay is the day a call to action about a past day asks to be
// filled (YYYY-MM-DD: the day before docDay, the document's day, for
// DayYesterday), "" for one about today or any day. The kiosk opens the
// CTA's sheet dated on it, so following the CTA answers it (ctaDone).
func (c CTA) MissingDay(docDay string) string {
	if c.Subject().Day != DayYesterday {
		return ""
	}
	d, err := time.Parse(time.DateOnly, docDay)
	if err != nil {
		return ""
	}
	return d.AddDate(0, 0, -1).Format(time.DateOnly)
}

// recordOf is the record kind each action opens.
var recordOf = map[string]string{ActionOpenWeight: RecordWeight, ActionOpenNutrition: RecordMeal,
	ActionOpenWorkout: RecordWorkout, ActionPlayUpNext: RecordUpNext}

// ctaDone reports whether live data now holds what the CTA asks for.
func ctaDone(b board.Board, c CTA, t *Today, docDay string) bool {
	s := c.Subject()
	now, loc := b.Now, b.Loc
	day := b.Day(now)
	if s.Day == DayYesterday {
		day = b.Day(now.AddDate(0, 0, -1))
		if d := c.MissingDay(docDay); d != "" {
			day = d
		}
	}
	// since: an entry after the document was prepared, or on today, answers
	// a call about today.
	since := func(last time.Time) bool {
		return !last.IsZero() && (last.After(t.PreparedAt) || health.DaysAgo(last, now, loc) == 0)
	}
	switch s.Record {
	case RecordWeight:
		switch s.Day {
		case DayAny:
			return !b.Weight.LastAny.IsZero()
		case DayYesterday:
			for _, r := range b.Weight.Readings {
				if b.Day(r.MeasuredAt) == day {
					return true
				}
			}
			return false
		}
		return since(b.Weight.LastAny)
	case RecordMeal:
		if s.Day == DayAny {
			return !b.LastMeal.IsZero()
		}
		n, _, _ := b.DayMeals(day)
		if target := macroTarget(b.Member.Targets, s.Macro); target != nil && s.Day == DayToday {
			return macroOn(b, day, s.Macro) >= *target
		}
		return n > 0
	case RecordWorkout:
		switch s.Day {
		case DayAny:
			return !b.LastWorkout.IsZero()
		case DayYesterday:
			for _, w := range b.Workouts {
				if b.Day(w.StartedAt) == day {
					return true
				}
			}
			return false
		}
		return since(b.LastWorkout)
	case RecordUpNext:
		return t.UpNext == nil
	}
	return false
}

// macroTarget is the member's daily target for the macro (nil: none set).
func macroTarget(t health.Targets, macro string) *float64 {
	switch macro {
	case MacroCalories:
		return t.Calories
	case MacroProtein:
		return t.ProteinG
	case MacroCarbs:
		return t.CarbsG
	case MacroFat:
		return t.FatG
	}
	return nil
}

// macroOn sums one macro over the meals of a household day.
func macroOn(b board.Board, day, macro string) float64 {
	sum := 0.0
	for _, m := range b.Meals {
		if b.Day(m.EatenAt) != day {
			continue
		}
		switch macro {
		case MacroCalories:
			sum += m.Calories
		case MacroProtein:
			sum += m.ProteinG
		case MacroCarbs:
			sum += m.CarbsG
		case MacroFat:
			sum += m.FatG
		}
	}
	return sum
}

// Fact is the live text of a quoted fact for a document of docDay ("" when
// it cannot be said now): the board's figure, rendered as the coach
// renders it.
func Fact(b board.Board, name, docDay string) string {
	switch name {
	case FactWeightCurrent:
		return b.CurrentText()
	case FactWeightChange7d:
		return b.Change7dText()
	case FactWeightETA:
		return b.ETAText()
	case FactWorkoutsThisWeek:
		return b.WorkoutsText()
	case FactYesterdayKcal, FactYesterdayProteinG:
		d, err := time.ParseInLocation(time.DateOnly, docDay, b.Loc)
		if err != nil {
			return ""
		}
		n, kcal, protein := b.DayMeals(d.AddDate(0, 0, -1).Format(time.DateOnly))
		switch {
		case n == 0:
			return ""
		case name == FactYesterdayKcal:
			return KcalText(kcal)
		}
		return ProteinText(protein)
	}
	return ""
}

// requote replaces each quoted figure that changed since text was written
// by its live value; updated says whether any did.
func requote(b board.Board, docDay, text string, quotes []Quote) (string, bool) {
	updated := false
	for _, q := range quotes {
		now := Fact(b, q.Fact, docDay)
		i := quoteIndex(text, q.Text)
		if q.Text == "" || now == "" || now == q.Text || i < 0 {
			continue
		}
		text = text[:i] + now + text[i+len(q.Text):]
		updated = true
	}
	return text, updated
}

// quoteIndex finds a quoted figure where it starts a figure: "4 workouts"
// is not the end of "14 workouts" (-1: not found).
func quoteIndex(text, q string) int {
	for off := 0; q != ""; {
		i := strings.Index(text[off:], q)
		if i < 0 {
			return -1
		}
		i += off
		if i == 0 || !strings.ContainsAny(text[i-1:i], "0123456789.,") {
			return i
		}
		off = i + 1
	}
	return -1
}
