package dashboard_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func liveStore(t *testing.T, now time.Time) (*dashboard.Store, *store.DB) {
	t.Helper()
	db := storetest.Open(t)
	prot := 120.0
	if _, err := db.CreateMember(context.Background(), health.Member{ID: "ada", Name: "Ada", Targets: health.Targets{ProteinG: &prot}}); err != nil {
		t.Fatal(err)
	}
	db.Now = func() time.Time { return now }
	return dashboard.NewStore(db, nil, time.UTC), db
}

func put(t *testing.T, s *dashboard.Store, db *store.DB, at time.Time, doc dashboard.Document, quotes ...dashboard.Quote) {
	t.Helper()
	ctx := context.Background()
	if err := db.Tx(ctx, func(tx *store.Tx) error {
		if err := s.PutTx(ctx, tx, at, "ada", at.Format(time.DateOnly), 1, doc, "test"); err != nil {
			return err
		}
		return s.QuoteTx(ctx, tx, "ada", at.Format(time.DateOnly), quotes)
	}); err != nil {
		t.Fatal(err)
	}
}

func ctaMessages(td dashboard.Today) []string {
	var out []string
	for _, c := range td.CTAs {
		out = append(out, c.Message)
	}
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Every CTA is re-checked against live data, not only data gaps, and by
// what it asks for: a meal logged today does not fill yesterday.
func TestCTAsAreRecheckedAgainstLiveData(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 2, 14, 12, 0, 0, 0, time.UTC)
	s, db := liveStore(t, now)
	prepared := time.Date(2026, 2, 14, 4, 0, 0, 0, time.UTC)
	start := dashboard.CTA{Type: dashboard.CTAHabit, Message: "Step on the scale to start your weight trend.", Action: dashboard.ActionOpenWeight}
	yesterday := dashboard.CTA{Type: dashboard.CTADataGap, Message: "No meals logged yesterday.", Action: dashboard.ActionOpenNutrition}
	// The protein call says so in its subject fields (a document of today's
	// coach); the others are as documents stored before the fields were.
	protein := dashboard.CTA{Type: dashboard.CTAHabit, Message: "Protein averaged 80 g over the last 7 days; your target is 120 g.", Action: dashboard.ActionOpenNutrition,
		Record: dashboard.RecordMeal, Day: dashboard.DayToday, Macro: dashboard.MacroProtein}
	workout := dashboard.CTA{Type: dashboard.CTAHabit, Message: "Log a workout after you move, so I can see your rhythm.", Action: dashboard.ActionOpenWorkout}
	put(t, s, db, prepared, dashboard.Document{GeneratedAt: prepared, Coach: dashboard.Coach{Briefing: "Hi.",
		CTA: []dashboard.CTA{start, yesterday, protein, workout}}})
	check := func(want ...string) {
		t.Helper()
		td, err := s.Today(ctx, "ada", now)
		if err != nil {
			t.Fatal(err)
		}
		got := ctaMessages(td)
		if len(got) != len(want) {
			t.Fatalf("CTAs %q, want %q", got, want)
		}
		for _, w := range want {
			if !has(got, w) {
				t.Fatalf("CTAs %q, want %q", got, want)
			}
		}
	}
	check(start.Message, yesterday.Message, protein.Message, workout.Message)
	// An imported weigh-in from last week (before the plan) still starts the trend.
	if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: now.AddDate(0, 0, -7), WeightKg: 70}); err != nil {
		t.Fatal(err)
	}
	check(yesterday.Message, protein.Message, workout.Message)
	// A meal today, with all of today's protein: yesterday stays empty.
	if _, err := db.AddMeal(ctx, health.Meal{MemberID: "ada", EatenAt: now.Add(-time.Hour), Name: "Steak", Calories: 900, ProteinG: 125}); err != nil {
		t.Fatal(err)
	}
	check(yesterday.Message, workout.Message)
	// Backfilling yesterday fills it.
	if _, err := db.AddMeal(ctx, health.Meal{MemberID: "ada", EatenAt: now.Add(-20 * time.Hour), Name: "Curry", Calories: 650}); err != nil {
		t.Fatal(err)
	}
	check(workout.Message)
	if _, err := db.AddWorkout(ctx, health.Workout{MemberID: "ada", StartedAt: now.Add(-30 * time.Minute), Type: "run", DurationMin: 20}); err != nil {
		t.Fatal(err)
	}
	check()
}

// The briefing never contradicts the widgets: a quoted figure that changed
// since the plan was written shows its live value, and says so.
func TestQuotedFiguresFollowLiveData(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 2, 14, 12, 0, 0, 0, time.UTC)
	s, db := liveStore(t, now)
	for d := 5; d >= 1; d-- {
		if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: now.AddDate(0, 0, -d), WeightKg: 70.5}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.AddMeal(ctx, health.Meal{MemberID: "ada", EatenAt: now.Add(-20 * time.Hour), Name: "Curry", Calories: 1640, ProteinG: 96}); err != nil {
		t.Fatal(err)
	}
	prepared := time.Date(2026, 2, 14, 4, 0, 0, 0, time.UTC)
	briefing := "Weight 70.5 kg. Yesterday you logged 1,640 kcal and 96 g protein."
	put(t, s, db, prepared, dashboard.Document{GeneratedAt: prepared, Coach: dashboard.Coach{Briefing: briefing}},
		dashboard.Quote{Fact: dashboard.FactWeightCurrent, Text: "70.5 kg"},
		dashboard.Quote{Fact: dashboard.FactYesterdayKcal, Text: "1,640 kcal"},
		dashboard.Quote{Fact: dashboard.FactYesterdayProteinG, Text: "96 g protein"})
	td, _ := s.Today(ctx, "ada", now)
	if td.Briefing != briefing || td.BriefingUpdated {
		t.Fatalf("nothing changed yet: %q updated=%v", td.Briefing, td.BriefingUpdated)
	}
	if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: now.Add(-time.Hour), WeightKg: 69.8}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddMeal(ctx, health.Meal{MemberID: "ada", EatenAt: now.Add(-18 * time.Hour), Name: "Yogurt", Calories: 200, ProteinG: 20}); err != nil {
		t.Fatal(err)
	}
	td, _ = s.Today(ctx, "ada", now)
	if want := "Weight 69.8 kg. Yesterday you logged 1,840 kcal and 116 g protein."; td.Briefing != want || !td.BriefingUpdated {
		t.Fatalf("after a weigh-in and a backfilled meal: %q updated=%v, want %q", td.Briefing, td.BriefingUpdated, want)
	}
	// A mistyped weigh-in saved anyway is not taken for the current weight.
	if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: now.Add(-time.Minute), WeightKg: 6.98}); err != nil {
		t.Fatal(err)
	}
	if td, _ = s.Today(ctx, "ada", now); td.Briefing != "Weight 69.8 kg. Yesterday you logged 1,840 kcal and 116 g protein." {
		t.Fatalf("an implausible reading became the quoted weight: %q", td.Briefing)
	}
}
