package web_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// Over generated histories (gaps, implausible readings saved anyway, lb
// members, household time zones east and west of UTC) every figure the
// member page shows more than once, and every figure of the briefing and
// the feedback, is the read model's (board) value.
func TestBoardPropertyPageAgreesWithTheReadModel(t *testing.T) {
	zones := []string{"UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Auckland"}
	const perZone = 8
	for zi, zone := range zones {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		k := newKioskWith(t, withEnv("HEARTH_TZ", zone))
		for i := range perZone {
			n := zi*perZone + i
			rng := rand.New(rand.NewPCG(30, uint64(n)))
			id := fmt.Sprintf("p%d", n)
			t.Run(zone+"/"+id, func(t *testing.T) {
				g := generate(t, k, rng, id, loc)
				checkPage(t, k, id, g)
			})
		}
	}
}

// generated is what a case wrote, for messages.
type generated struct{ desc string }

func generate(t *testing.T, k *kiosk, rng *rand.Rand, id string, loc *time.Location) generated {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	m := health.Member{ID: id, Name: "Member " + id}
	if rng.IntN(2) == 0 {
		m.Unit = health.LB
	}
	base := 55 + rng.Float64()*50
	slope := (rng.Float64() - 0.65) * 0.2 // kg a day, mostly losing
	if rng.IntN(10) < 6 {
		goal := math.Round(base - 5 - rng.Float64()*10)
		m.GoalWeightKg = &goal
	}
	if rng.IntN(2) == 0 {
		p, c := 90+float64(rng.IntN(60)), 1600+float64(rng.IntN(900))
		m.Targets = health.Targets{ProteinG: &p, Calories: &c}
	}
	k.newMember(m)
	// at is a random time on the local day d days ago, never after now.
	at := func(d int) time.Time {
		y, mo, dd := now.In(loc).Date()
		t := time.Date(y, mo, dd-d, 0, 0, 0, 0, loc).Add(time.Duration(rng.IntN(24*60)) * time.Minute)
		if t.After(now) {
			t = now.Add(-time.Duration(1+rng.IntN(90)) * time.Second)
		}
		return t
	}
	days := rng.IntN(60)
	gapFrom := rng.IntN(days + 1)
	gapLen := rng.IntN(12)
	readings, odd := 0, 0
	for d := days; d >= 0; d-- {
		if rng.Float64() < 0.3 || d <= gapFrom && d > gapFrom-gapLen {
			continue
		}
		kg := base + slope*float64(days-d) + (rng.Float64()-0.5)*1.2
		if m.Unit == health.LB { // entered in pounds, one decimal
			kg = health.LB.ToKg(math.Round(health.LB.FromKg(kg)*10) / 10)
		} else {
			kg = math.Round(kg*1000) / 1000 // an import's precision
		}
		if rng.Float64() < 0.08 || d == 0 && rng.Float64() < 0.3 {
			kg, odd = kg/10, odd+1 // a typo saved anyway
		}
		k.weighAt(id, at(d), kg)
		readings++
	}
	meals := 0
	for d := 9; d >= 0; d-- {
		if rng.Float64() < 0.3 {
			continue
		}
		for range 1 + rng.IntN(3) {
			if _, err := k.db.AddMeal(ctx, health.Meal{MemberID: id, EatenAt: at(d), Name: "Meal",
				Calories: float64(200 + rng.IntN(700)), ProteinG: float64(5 + rng.IntN(55))}); err != nil {
				t.Fatal(err)
			}
			meals++
		}
	}
	workouts := 0
	for d := 20; d >= 0; d-- {
		if rng.Float64() < 0.65 {
			continue
		}
		if _, err := k.db.AddWorkout(ctx, health.Workout{MemberID: id, StartedAt: at(d), Type: "run",
			DurationMin: float64(15 + rng.IntN(60))}); err != nil {
			t.Fatal(err)
		}
		workouts++
	}
	// The coach's document, written earlier: every figure it quotes is out
	// of date, so each must be brought up to the read model's value.
	b, err := k.ds.Board(ctx, id, now)
	if err != nil {
		t.Fatal(err)
	}
	var s, fb []string
	var quotes []dashboard.Quote
	say := func(fact, stale, sentence string, into *[]string) {
		*into = append(*into, fmt.Sprintf(sentence, stale))
		quotes = append(quotes, dashboard.Quote{Fact: fact, Text: stale})
	}
	if b.CurrentText() != "" {
		say(dashboard.FactWeightCurrent, "999.9 "+string(b.Unit), "Weight %s.", &s)
	}
	if b.Change7dText() != "" {
		say(dashboard.FactWeightChange7d, "+9.9 "+string(b.Unit), "Trend %s over 7 days.", &s)
	}
	if b.ETAText() != "" {
		say(dashboard.FactWeightETA, "Mon 1 Jan 2024", "At this pace you reach your goal around %s.", &s)
	}
	say(dashboard.FactWorkoutsThisWeek, "99 workouts", "%s this week.", &s)
	if n, _, _ := b.DayMeals(b.Day(now.AddDate(0, 0, -1))); n > 0 {
		say(dashboard.FactYesterdayKcal, "99,999 kcal", "Yesterday you logged %s", &s)
		say(dashboard.FactYesterdayProteinG, "999 g protein", "and %s.", &s)
	}
	say(dashboard.FactWorkoutsThisWeek, "99 workouts", "%s this week, nice consistency.", &fb)
	k.putQuoted(id, docSaying(strings.Join(s, " "), fb...), quotes...)
	return generated{desc: fmt.Sprintf("%s: %d readings (%d typos), %d meals, %d workouts, goal %v", m.Unit.Normalize(), readings, odd, meals, workouts, m.GoalWeightKg != nil)}
}

func checkPage(t *testing.T, k *kiosk, id string, g generated) {
	t.Helper()
	code, page := k.get("/m/" + id)
	if code != 200 {
		t.Fatalf("GET /m/%s: %d", id, code)
	}
	now := time.Now()
	b, err := k.ds.Board(context.Background(), id, now)
	if err != nil {
		t.Fatal(err)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: %s", g.desc, fmt.Sprintf(format, args...))
	}
	w := widgetHTML(t, page, "w-weight")
	head := headlineOf(w)
	cur := b.Weight.Current
	switch {
	case cur == nil && head != "":
		fail("headline %q without a plausible reading", head)
	case cur != nil && head != b.WeightNumber(cur.WeightKg):
		fail("headline %q, board %q", head, b.WeightNumber(cur.WeightKg))
	}
	if cur != nil {
		// The headline is the briefing's current weight, one figure.
		if figure(t, head) != figure(t, b.CurrentText()) {
			fail("headline %q, current text %q", head, b.CurrentText())
		}
		if got := first(`<span>trend ([^<]*)</span>`, w); b.TrendText() != "" && got != b.TrendText() {
			fail("trend %q, board %q", got, b.TrendText())
		}
		if got := first(`class="delta delta-\w+">([^<]*)<`, w); b.Change7dText() != "" && got != b.Change7dText()+" in 7 days" {
			fail("7-day change %q, board %q", got, b.Change7dText())
		}
		if got := first(`on pace for ([^<]*)<`, w); got != b.ETAText() {
			fail("ETA %q, board %q", got, b.ETAText())
		}
		// The list: the board's readings, newest first, each in the same
		// format; questioned ones marked, and the current one's figure is
		// the headline's.
		rows := regexp.MustCompile(`<span class="fig entry-text">([^<]*)</span>(\s*<span class="badge questioned">)?`).FindAllStringSubmatch(w, -1)
		var want []health.WeightReading
		for _, r := range b.Weight.Readings {
			if len(want) < 3 && !r.MeasuredAt.After(now) {
				want = append(want, r)
			}
		}
		if len(rows) != len(want) {
			fail("%d rows, board %d", len(rows), len(want))
		}
		for i := range min(len(rows), len(want)) {
			if rows[i][1] != b.WeightText(want[i].WeightKg) {
				fail("row %d %q, board %q", i, rows[i][1], b.WeightText(want[i].WeightKg))
			}
			if q := rows[i][2] != ""; q != b.Weight.Questioned[want[i].ID] {
				fail("row %d questioned=%v, board %v", i, q, b.Weight.Questioned[want[i].ID])
			}
			if want[i].ID == cur.ID && figure(t, rows[i][1]) != figure(t, head) {
				fail("row %q and headline %q are one reading", rows[i][1], head)
			}
		}
		if len(want) > 0 && b.Weight.Questioned[want[0].ID] && !strings.Contains(w, `class="questioned"`) {
			fail("the newest reading is questioned but the widget does not say so")
		}
	}
	if got := first(`(\d+) this week`, widgetHTML(t, page, "w-workouts")); got != "" && got != fmt.Sprint(b.Training.ThisWeekCount) {
		fail("workouts widget %s this week, board %d", got, b.Training.ThisWeekCount)
	}
	if got := first(`(\d+)-day streak`, widgetHTML(t, page, "w-nutrition")); b.Streak > 0 && got != fmt.Sprint(b.Streak) {
		fail("streak %q, board %d", got, b.Streak)
	}
	// The briefing and the feedback quote the board's figures.
	brief := briefingOf(page)
	wants := []string{b.WorkoutsText() + " this week"}
	for _, f := range []string{b.CurrentText(), b.Change7dText(), b.ETAText()} {
		if f != "" {
			wants = append(wants, f)
		}
	}
	if n, kcal, prot := b.DayMeals(b.Day(now.AddDate(0, 0, -1))); n > 0 {
		wants = append(wants, dashboard.KcalText(kcal), dashboard.ProteinText(prot))
	}
	for _, want := range wants {
		if !strings.Contains(brief, want) {
			fail("briefing %q lacks the board's %q", brief, want)
		}
	}
	if fb := strings.Join(feedbackOf(page), " | "); !strings.Contains(fb, b.WorkoutsText()+" this week") {
		fail("feedback %q, board %q", fb, b.WorkoutsText())
	}
	for _, stale := range []string{"999.9", "+9.9", "2024", "99 workouts", "99,999", "999 g"} {
		if strings.Contains(brief, stale) {
			fail("a stale figure %q is left in %q", stale, brief)
		}
	}
	t.Logf("%s; eta %q, questioned %d, this week %d, briefing %q", g.desc, b.ETAText(), len(b.Weight.Questioned), b.Training.ThisWeekCount, brief)
}
