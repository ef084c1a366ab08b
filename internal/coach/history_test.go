package coach

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/importer"
)

// Exports in the apps' published formats, as the importer's fixtures
// write them (internal/importer/testdata/README.md names the sources): an
// Apple Health export.xml with the attributes the Health app writes, and
// Strong's comma dialect (Date, Workout Name, Duration, …, one row per
// set).
const (
	annApple = `<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_GB">
 <ExportDate value="2024-03-20 09:00:00 +0000"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" sourceVersion="17.2" unit="kg" creationDate="2016-01-04 07:05:40 +0000" startDate="2016-01-04 07:05:00 +0000" endDate="2016-01-04 07:05:00 +0000" value="92.4"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" sourceVersion="17.2" unit="kg" creationDate="2016-01-25 07:05:40 +0000" startDate="2016-01-25 07:05:00 +0000" endDate="2016-01-25 07:05:00 +0000" value="91.6"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" sourceVersion="17.2" unit="kg" creationDate="2020-06-01 07:05:40 +0000" startDate="2020-06-01 07:05:00 +0000" endDate="2020-06-01 07:05:00 +0000" value="88"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" sourceVersion="17.2" unit="kg" creationDate="2024-03-14 07:05:40 +0000" startDate="2024-03-14 07:05:00 +0000" endDate="2024-03-14 07:05:00 +0000" value="84.3"/>
</HealthData>
`
	annStrong = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n" +
		"2021-04-06 18:02:11,\"Push Day\",1h 3m,\"Bench Press (Barbell)\",1,80.0,5,0,0,\"\",\"\",8\n" +
		"2021-04-08 18:10:00,\"Pull Day\",55m,\"Deadlift (Barbell)\",1,120.0,5,0,0,\"\",\"\",8\n" +
		"2025-10-13 18:00:00,\"Legs\",48m,\"Squat (Barbell)\",1,100.0,5,0,0,\"\",\"\",8\n"
)

func (f *fixture) importFile(member, name, data string) {
	f.t.Helper()
	sum, err := importer.Import(f.ctx, f.db, importer.Options{Member: member, Location: time.UTC, Strict: true},
		name, strings.NewReader(data), int64(len(data)))
	if err != nil || sum.Added == 0 {
		f.t.Fatalf("import %s: %v (%+v)", name, err, sum.Problems)
	}
}

// historyMember is Ann: weigh-ins from Apple Health (2016 to 14 Mar 2024)
// and workouts from Strong (2021 to 13 Oct 2025), nothing in the recent
// windows, nothing logged in Hearth.
func historyMember(f *fixture) {
	f.member(health.Member{ID: "ann", Name: "Ann", Unit: health.KG})
	f.importFile("ann", "export.xml", annApple)
	f.importFile("ann", "strong.csv", annStrong)
}

// TestImportedHistoryIsReadAsHistory: "Prepare my day" for a member with
// only imported history welcomes them with it, gives the long-term weight
// trend with years, asks for a weigh-in to restart the trend, counts the
// months away from training, and says the plan came from that history,
// not from "no data yet". The run succeeds with the heuristic's figures
// checked like a model's (every number from the facts).
func TestImportedHistoryIsReadAsHistory(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	historyMember(f)
	r := f.run("ann")
	mustStatus(t, r, agent.StatusSucceeded)
	st := f.today("ann")
	d := st.Document
	for _, want := range []string{
		"Welcome to Hearth, Ann! Your history is here: 3 workouts from Strong since 2021, mostly strength; 4 weigh-ins from Apple Health since 2016.",
		"Your weigh-ins went from 92 kg in Jan 2016 to 84.3 kg in Mar 2024 (monthly averages); the last was Thu 14 Mar 2024.",
		"It's been 128 days since your last workout, on Mon 13 Oct 2025, so we'll start gently.",
	} {
		if !strings.Contains(d.Coach.Briefing, want) {
			t.Errorf("briefing %q\nwant it to say %q", d.Coach.Briefing, want)
		}
	}
	if strings.Contains(d.Coach.Briefing, "Let's start simple") || strings.Contains(d.Coach.Briefing, "Welcome back") {
		t.Errorf("briefing treats Ann as a member without data, or as a returning one: %q", d.Coach.Briefing)
	}
	i := slices.IndexFunc(d.Coach.CTA, func(c dashboard.CTA) bool { return c.Action == dashboard.ActionOpenWeight })
	if i < 0 || d.Coach.CTA[i].Message != "Your last weigh-in was Thu 14 Mar 2024. Step on the scale to restart your trend." ||
		d.Coach.CTA[i].Type != dashboard.CTADataGap {
		t.Errorf("CTAs %+v: want the weigh-in CTA naming the last weigh-in with its year", d.Coach.CTA)
	}
	if strings.Contains(ctaText(d), "Log a workout after you move") {
		t.Errorf("312 Strong workouts are not \"no workouts\": %q", ctaText(d))
	}
	if !slices.ContainsFunc(d.Coach.Prompts, func(p dashboard.Prompt) bool {
		return p.Question == "Ready to pick up training again? How are you feeling?"
	}) {
		t.Errorf("prompts %v: want the check-in after months away, not a welcome back", promptIDs(d))
	}
	if !strings.HasPrefix(st.Sources, "weight history, workout history") {
		t.Errorf("sources %q, want it to name the weight and workout history", st.Sources)
	}

	// What a model would be told: the history, one line, with its
	// sources, and what to do with it.
	user := r.Prompt.User
	for _, want := range []string{"History (every record, imported included;",
		"4 weigh-ins from 2016-01-04 to 2024-03-14 (4 imported from Apple Health)",
		"3 workouts from 2021-04-06 to 2025-10-13 (3 imported from Strong)", `workout types: "strength" 100%`,
		"weight by monthly average: 92 kg in 2016-01 to 84.3 kg in 2024-03",
		"ask for a weigh-in to restart the trend", "welcome them and acknowledge it"} {
		if !strings.Contains(user, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, user)
		}
	}
}

// The prompt of a member whose records are all recent carries no history
// line: it would say nothing the other lines do not.
func TestRecentMemberPromptHasNoHistoryLine(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	r := f.run("maya")
	mustStatus(t, r, agent.StatusSucceeded)
	if strings.Contains(r.Prompt.User, "History (") {
		t.Fatalf("a history line for a member with recent records:\n%s", r.Prompt.User)
	}
	if got := f.today("maya").Sources; strings.Contains(got, "history") {
		t.Fatalf("sources %q", got)
	}
}

// A model's words about the history are checked like every figure: the
// history's figures pass, an invented one goes back to the model.
func TestModelHistoryFiguresAreValidated(t *testing.T) {
	f, srv := modelFixture(t)
	historyMember(f)
	doc := func(briefing string) dashboard.Document {
		main := dashboard.ContentRef{ContentID: "local:yoga-morning-sun", Title: "Morning Sun Flow", Duration: 20, Reason: "starter_session"}
		return dashboard.Document{Curated: dashboard.Curated{UpNext: dashboard.UpNext{Primary: &main, Alternates: []dashboard.ContentRef{}},
			PlaylistSuggestion: []dashboard.ContentRef{main}},
			Coach: dashboard.Coach{Briefing: briefing, CTA: []dashboard.CTA{}, Prompts: []dashboard.Prompt{}, Feedback: []string{}}}
	}
	bad := doc("Welcome, Ann! Your Strong history: 3 workouts since 2021, mostly strength. Your weight went from 95 kg in 2016 to 84.3 kg in 2024.")
	good := doc("Welcome, Ann! Your Strong history: 3 workouts since 2021, mostly strength. Your weight went from 92 kg in 2016 to 84.3 kg in 2024, last weighed 14 Mar 2024.")
	srv.Push(llmtest.JSON(bad, 900, 300), llmtest.JSON(good, 900, 300))
	r := f.run("ann")
	mustStatus(t, r, agent.StatusSucceeded)
	if r.Attempts != 2 || r.Model != "fake" {
		t.Fatalf("attempts %d, model %q: want the invented 95 kg rejected and the second reply kept", r.Attempts, r.Model)
	}
	if retry := srv.ChatRequests()[1].LastMessage().Content; !strings.Contains(retry, "the number 95 is not in the facts") {
		t.Fatalf("the retry does not name the invented figure:\n%s", retry)
	}
	if got := f.today("ann").Document.Coach.Briefing; got != good.Coach.Briefing {
		t.Fatalf("briefing %q", got)
	}
}

// TestHistorySentences pins the heuristic's sentences about history.
func TestHistorySentences(t *testing.T) {
	span := func(n int, first, last string, srcs ...HistorySource) HistorySpan {
		return HistorySpan{Count: n, First: first, Last: last, Sources: srcs}
	}
	imported := func(name string, n int) HistorySource { return HistorySource{Name: name, Imported: true, Count: n} }
	nothingRecent := func(g *Gathered) { g.Week.DaysLogged = 0 }
	cases := []struct {
		name  string
		setup func(g *Gathered)
		field string
		want  string
	}{
		{"every kind, sources named, this year's first day with its date", func(g *Gathered) {
			nothingRecent(g)
			g.History = HistoryView{WeighIns: span(141, "2016-01-04", "2024-03-14", imported("Apple Health", 120), imported("Withings", 21)),
				Meals:     span(1593, "2024-02-01", "2025-11-30", imported("MyFitnessPal", 1593)),
				Workouts:  span(312, "2021-03-02", "2025-10-13", imported("Strong", 300), HistorySource{Name: "Hearth", Count: 12}),
				BodyScans: span(2, "2026-01-05", "2026-01-20", HistorySource{Name: "Hearth", Count: 2}), Mostly: "strength"}
		}, "briefing", "Your history is here: 312 workouts from Strong since 2021, mostly strength; 141 weigh-ins from Apple Health and Withings since 2016; 1,593 meals from MyFitnessPal since 2024; 2 body scans since Mon 5 Jan."},
		{"an export's odd type is not named", func(g *Gathered) {
			nothingRecent(g)
			g.History = HistoryView{Workouts: span(1, "2024-05-01", "2024-05-01", imported("CSV files", 1)), Mostly: "5k <b>run</b>"}
		}, "briefing", "Your history is here: 1 workout from CSV files since 2024."},
		{"a steady long-term weight", func(g *Gathered) {
			g.Weight.Readings = 0
			g.History = HistoryView{WeighIns: span(30, "2019-01-01", "2023-12-01"),
				Trend: &HistoryTrend{Unit: health.KG, FromMonth: "2019-01", From: 70.2, ToMonth: "2023-12", To: 70.4, Change: 0.2, Months: 30}}
		}, "briefing", "Your weigh-ins stayed around 70.2 kg from Jan 2019 to Dec 2023; the last was Fri 1 Dec 2023."},
		{"a single month of old weigh-ins", func(g *Gathered) {
			g.Weight.Readings = 0
			g.History = HistoryView{WeighIns: span(3, "2025-06-01", "2025-06-20")}
		}, "briefing", "Your last weigh-in was Fri 20 Jun 2025."},
		{"old weigh-ins in lb", func(g *Gathered) {
			g.Member.Unit, g.Weight.Unit = health.LB, health.LB
			g.History = HistoryView{WeighIns: span(30, "2019-01-01", "2025-06-20"),
				Trend: &HistoryTrend{Unit: health.LB, FromMonth: "2019-01", From: 210.5, ToMonth: "2025-06", To: 190, Change: -20.5, Months: 30}}
		}, "briefing", "Your weigh-ins went from 210.5 lb in Jan 2019 to 190 lb in Jun 2025 (monthly averages); the last was Fri 20 Jun 2025."},
		{"old weigh-ins CTA", func(g *Gathered) {
			g.History = HistoryView{WeighIns: span(3, "2025-06-01", "2025-06-20")}
		}, "cta", "Your last weigh-in was Fri 20 Jun 2025. Step on the scale to restart your trend."},
		{"back after an imported history, with a goal", func(g *Gathered) {
			g.Goals.Goals = []GoalLine{{ID: 1, Kind: "custom", Description: "Get strong again", Status: "active"}}
			g.History = HistoryView{Workouts: span(312, "2021-03-02", "2025-10-13", imported("Strong", 312))}
		}, "briefing", "Welcome back, Maya! It's been 128 days since your last workout, on Mon 13 Oct 2025, so we'll restart gently."},
		{"years since the last workout: the date, not 997 days", func(g *Gathered) {
			g.History = HistoryView{Workouts: span(312, "2021-03-02", "2023-06-05", imported("Strong", 312))}
		}, "briefing", "Welcome back, Maya! It's been a long while since your last workout, on Mon 5 Jun 2023, so we'll restart gently."},
		{"years since the last meal: the date, not 900 days", func(g *Gathered) {
			nothingRecent(g)
			g.History = HistoryView{Meals: span(40, "2023-01-02", "2023-06-05", imported("MyFitnessPal", 40))}
		}, "cta", "No meals logged since Mon 5 Jun 2023. Log today's meals to pick it up again."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := sentenceFacts()
			c.setup(g)
			g.Gaps = gapsOf(g)
			d := plan(g, nil)
			got := map[string]string{"briefing": d.Coach.Briefing, "cta": ctaText(d)}[c.field]
			if !strings.Contains(got, c.want) {
				t.Errorf("%s = %q\nwant it to say %q", c.field, got, c.want)
			}
		})
	}
}

// TestHistoryGaps: old records are not missing data, and a member whose
// records are all recent is not "history only".
func TestHistoryGaps(t *testing.T) {
	g := sentenceFacts()
	g.Week.DaysLogged = 0
	g.History = HistoryView{WeighIns: HistorySpan{Count: 141, First: "2016-01-04", Last: "2024-03-14"},
		Workouts: HistorySpan{Count: 312, First: "2021-03-02", Last: "2025-10-13"}}
	gp := gapsOf(g)
	if gp.NeverWeighed || !gp.WeighInStale || !gp.HistoryWeighIn || gp.LastWeighIn != "2024-03-14" || *gp.DaysSinceWeighIn != 706 ||
		gp.NoWorkouts || gp.LastWorkout != "2025-10-13" || *gp.DaysSinceWorkout != 128 || gp.RestDays != 127 || !gp.LongAbsence ||
		!gp.Onboarding || !gp.HistoryOnly {
		t.Errorf("gaps of an imported history: %+v", gp)
	}
	g.Weight.Readings, g.Weight.DaysSinceWeighIn = 3, intOf(1)
	if gp := gapsOf(g); gp.HistoryWeighIn || gp.WeighInStale || gp.HistoryOnly || gp.Onboarding {
		t.Errorf("a recent weigh-in: %+v", gp)
	}
}
