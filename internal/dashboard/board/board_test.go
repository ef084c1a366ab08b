package board_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// counting counts what a load reads from the store.
type counting struct {
	*store.DB
	n map[string]int
}

func (c counting) Member(ctx context.Context, id string) (health.Member, error) {
	c.n["member"]++
	return c.DB.Member(ctx, id)
}

func (c counting) Weights(ctx context.Context, m string, rg store.Range) ([]health.WeightReading, error) {
	c.n["weights"]++
	return c.DB.Weights(ctx, m, rg)
}

func (c counting) Meals(ctx context.Context, m string, rg store.Range) ([]health.Meal, error) {
	c.n["meals"]++
	return c.DB.Meals(ctx, m, rg)
}

func (c counting) Workouts(ctx context.Context, m string, rg store.Range) ([]health.Workout, error) {
	c.n["workouts"]++
	return c.DB.Workouts(ctx, m, rg)
}

func (c counting) BodyScans(ctx context.Context, m string, rg store.Range) ([]health.BodyScan, error) {
	c.n["scans"]++
	return c.DB.BodyScans(ctx, m, rg)
}

// A load reads the member row and each kind of record once, applies the
// plausibility rule once, and every weight figure comes from the plausible
// readings: a 6.9 kg typo after two weeks at 70 kg is questioned, not
// current.
func TestLoadReadsOnceAndQuestionsATypo(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	goal := 65.0
	if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada", GoalWeightKg: &goal}); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 14, 9, 30, 0, 0, time.UTC) // a Wednesday
	for d := 14; d >= 1; d-- {
		if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: now.AddDate(0, 0, -d), WeightKg: 70}); err != nil {
			t.Fatal(err)
		}
	}
	typo, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: now.Add(-time.Hour), WeightKg: 6.9})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Time{now.AddDate(0, 0, -3), now.AddDate(0, 0, -1), now.Add(-2 * time.Hour), now.Add(time.Hour)} {
		if _, err := db.AddWorkout(ctx, health.Workout{MemberID: "ada", StartedAt: at, Type: "run", DurationMin: 30}); err != nil {
			t.Fatal(err)
		}
	}
	src := counting{DB: db, n: map[string]int{}}
	b, err := board.NewLoader(src, time.UTC).Load(ctx, "ada", now)
	if err != nil {
		t.Fatal(err)
	}
	for _, what := range []string{"member", "weights", "meals", "workouts", "scans"} {
		if src.n[what] != 1 {
			t.Errorf("%s read %d times, want once", what, src.n[what])
		}
	}
	if !b.Weight.Questioned[typo.ID] || len(b.Weight.Questioned) != 1 {
		t.Errorf("questioned %v, want the typo %d only", b.Weight.Questioned, typo.ID)
	}
	if got := b.CurrentText(); got != "70 kg" {
		t.Errorf("current %q, want 70 kg", got)
	}
	if got := b.WeightNumber(b.Weight.Current.WeightKg); got != "70.0" {
		t.Errorf("headline %q", got)
	}
	if got := b.Change7dText(); got != "±0.0 kg" {
		t.Errorf("7-day change %q", got)
	}
	// Monday to now: the runs of Monday and this morning; one after now
	// is not counted.
	if got := b.WorkoutsText(); got != "2 workouts" {
		t.Errorf("this week %q", got)
	}
}

// The headline and the list round the same reading once, alike: 83.949 kg
// is 83.9 in both (rounding to 0.01 first would make the headline 84.0).
func TestWeightFiguresRoundOnce(t *testing.T) {
	now := time.Date(2026, 1, 14, 9, 30, 0, 0, time.UTC)
	b := board.Of(health.Member{ID: "ada"}, []health.WeightReading{{ID: 1, MeasuredAt: now.Add(-time.Hour), WeightKg: 83.949}},
		nil, nil, nil, now, time.UTC)
	if n, s := b.WeightNumber(83.949), b.CurrentText(); n != "83.9" || s != "83.9 kg" {
		t.Errorf("headline %q, text %q", n, s)
	}
	// The trend's text is what the coach's facts and its chat replies say.
	if txt := b.Weight.Trend.Text(); !strings.HasPrefix(txt, "83.9 kg") {
		t.Errorf("the coach would say %q", txt)
	}
	lb := board.Of(health.Member{ID: "bo", Unit: health.LB}, nil, nil, nil, nil, now, time.UTC)
	if n, s := lb.WeightNumber(84.0044), lb.WeightText(84.0044); n != "185.2" || s != "185.2 lb" {
		t.Errorf("lb headline %q, text %q", n, s)
	}
}

// Years of imported weigh-ins ending long ago are history: the board has
// no current weight, the newest reading is Earlier (with the weeks before
// it) and stale; a member with a weigh-in inside the window reads no more.
func TestLoadKeepsOldWeighInsAsEarlier(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	last := time.Date(2024, 3, 14, 7, 0, 0, 0, time.UTC)
	for d := 0; d < 400; d++ {
		if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: last.AddDate(0, 0, -d), WeightKg: 84 + float64(d)/100}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	src := counting{DB: db, n: map[string]int{}}
	b, err := board.NewLoader(src, time.UTC).Load(ctx, "ada", now)
	if err != nil {
		t.Fatal(err)
	}
	if b.Weight.Current != nil || b.CurrentText() != "" {
		t.Fatalf("a 2024 reading is current: %q", b.CurrentText())
	}
	e := b.Weight.Earlier
	if e == nil || e.Current == nil || !e.Current.MeasuredAt.Equal(last) || len(e.Plausible) != board.WeightDays+1 {
		t.Fatalf("earlier %+v", e)
	}
	r, stale := b.Weight.Last(now, time.UTC)
	if r == nil || !stale || r.WeightKg != 84 {
		t.Errorf("last %+v stale %v, want the 14 Mar 2024 reading, stale", r, stale)
	}
	if src.n["weights"] != 3 {
		t.Errorf("weights read %d times, want 3 (the window, the newest, the weeks before it)", src.n["weights"])
	}
	// Twenty days later the same reading is not stale yet.
	if _, stale := b.Weight.Earlier.Last(last.AddDate(0, 0, 20), time.UTC); stale {
		t.Error("a 20-day-old weigh-in is stale")
	}
}

// Dates say their year whenever it is not the current one (issue 35: a
// goal day next January reads "Sun 24 Jan 2027", not as this January's).
func TestDateText(t *testing.T) {
	today := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	for day, want := range map[time.Time]string{
		time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC): "Thu 24 Dec",
		time.Date(2027, 1, 24, 0, 0, 0, 0, time.UTC):  "Sun 24 Jan 2027",
		time.Date(2028, 6, 30, 0, 0, 0, 0, time.UTC):  "Fri 30 Jun 2028",
		time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC):  "Mon 1 Dec 2025",
	} {
		if got := health.CivilDayText(day, today); got != want {
			t.Errorf("CivilDayText(%s) = %q, want %q", day.Format(time.DateOnly), got, want)
		}
	}
}
