package eval

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// testCatalog is a small catalog: a program day, a warm-up, a cool-down, a
// stretch and a high-impact session.
func testCatalog() map[string]content.Item {
	items := []content.Item{
		{ID: "local:core-04", Title: "Hollow Body Basics", DurationMin: 16, Kind: content.KindCore, Program: "ember-core-30", Day: 4},
		{ID: "local:warm", Title: "5-Minute Warm-Up", DurationMin: 5, Kind: content.KindWarmUp},
		{ID: "local:cool", Title: "Breath and Cool-Down", DurationMin: 6, Kind: content.KindCoolDown},
		{ID: "local:stretch", Title: "10-Minute Stretch", DurationMin: 10, Kind: content.KindStretch},
		{ID: "local:tabata", Title: "Tabata Twenty", DurationMin: 20, Kind: content.KindHIIT, Tags: []string{"intervals", "high-impact"}},
	}
	out := map[string]content.Item{}
	for _, it := range items {
		out[it.ID] = it
	}
	return out
}

func ref(id, title string, minutes int, reason string) dashboard.ContentRef {
	return dashboard.ContentRef{ContentID: id, Title: title, Duration: minutes, Reason: reason}
}

// goodDoc is a plan that every generic grader accepts against testFacts.
func goodDoc() dashboard.Document {
	main := ref("local:core-04", "Hollow Body Basics", 16, "program_day")
	main.ProgramContext = "Ember Core 30 · Week 1, Day 4"
	return dashboard.Document{
		GeneratedAt: time.Date(2026, 2, 18, 4, 0, 0, 0, time.UTC),
		Curated: dashboard.Curated{
			UpNext: dashboard.UpNext{Primary: &main, Alternates: []dashboard.ContentRef{ref("local:stretch", "10-Minute Stretch", 10, "lighter_option")}},
			PlaylistSuggestion: []dashboard.ContentRef{ref("local:warm", "5-Minute Warm-Up", 5, "warm_up"), main,
				ref("local:cool", "Breath and Cool-Down", 6, "cool_down")},
		},
		Coach: dashboard.Coach{
			Briefing: "Weight 81.4 kg, −0.6 kg over 7 days. Yesterday you logged 1,900 kcal and 132.5 g protein. Today is Week 1, Day 4 of Ember Core 30 (16 min).",
			CTA:      []dashboard.CTA{{Type: dashboard.CTAProgram, Action: dashboard.ActionPlayUpNext, Message: "Day 4 is ready."}},
			Prompts: []dashboard.Prompt{{ID: "energy", Type: dashboard.PromptMultipleChoice, Question: "How's your energy?",
				Options: []string{"Good", "Tired"}}},
			Feedback: []string{"Meals logged 7 days in a row."},
		},
	}
}

func testFacts() Facts {
	n := NewNumbers()
	n.AddJSON([]byte(`{"weight":{"current_kg":81.4,"change_7d":-0.6,"days":7},"calories":1900,"protein_g":132.5,
		"program":{"title":"Ember Core 30","week":"Week 1, Day 4","day":4},"menu":[{"duration":16},{"duration":5},{"duration":6},{"duration":10}]}`))
	return Facts{Member: "maya", Unit: health.KG, Numbers: n, Catalog: testCatalog(),
		Truth: Truth{Now: time.Date(2026, 2, 18, 4, 0, 0, 0, time.UTC), FinishedToday: map[string]bool{}}}
}

func planOf(t *testing.T, d dashboard.Document) Plan {
	t.Helper()
	raw, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return ParsePlan(string(raw), "model")
}

func grader(t *testing.T) *Grader {
	t.Helper()
	g, err := NewGrader()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGoodPlanPassesEveryGrader is the baseline the bad plans below are
// measured against: the same plan with one thing wrong fails exactly that
// grader.
func TestGoodPlanPassesEveryGrader(t *testing.T) {
	g := grader(t).Grade(planOf(t, goodDoc()), testFacts())
	for _, r := range g.Results {
		if !r.Passed {
			t.Errorf("%s: %v", r.Grader, r.Problems)
		}
	}
	if g.Hallucinated || g.StaleCTAs != 0 || g.Figures == 0 || g.Known != g.Figures {
		t.Fatalf("grade = %+v", g)
	}
}

func TestEachGraderCatchesItsBadPlan(t *testing.T) {
	cases := []struct {
		grader string
		bad    func(d *dashboard.Document, f *Facts)
		want   string
	}{
		{GraderSchema, func(d *dashboard.Document, f *Facts) { d.Coach.Prompts[0].Options = []string{"Good"} }, "two non-empty options"},
		{GraderSchema, func(d *dashboard.Document, f *Facts) { d.Coach.Prompts[0].ID = "Not An Id!" }, "/coach/prompts/0/id"},
		{GraderContent, func(d *dashboard.Document, f *Facts) { d.Curated.UpNext.Alternates[0].ContentID = "local:p90x-plyo" },
			`"local:p90x-plyo" is not in the catalog`},
		{GraderContent, func(d *dashboard.Document, f *Facts) { d.Curated.UpNext.Alternates[0].Title = "Stretch It Out" },
			`titled "10-Minute Stretch"`},
		{GraderContent, func(d *dashboard.Document, f *Facts) { d.Curated.PlaylistSuggestion[0].Duration = 8 }, "lasts 5 min"},
		{GraderNumbers, func(d *dashboard.Document, f *Facts) {
			d.Coach.Briefing = strings.Replace(d.Coach.Briefing, "81.4", "88.8", 1)
		}, "briefing: 88.8 is not in the facts"},
		{GraderNumbers, func(d *dashboard.Document, f *Facts) { d.Coach.Feedback = []string{"3 workouts this week."} },
			"feedback[0]: 3 is not in the facts"},
		{GraderNumbers, func(d *dashboard.Document, f *Facts) {
			d.Coach.Briefing = strings.Replace(d.Coach.Briefing, "81.4", "81.5", 1)
		}, "81.5 is not in the facts"},
		{GraderUnits, func(d *dashboard.Document, f *Facts) { f.Unit = health.LB }, "81.4 kg is in kg for a member who uses lb"},
		{GraderUnits, func(d *dashboard.Document, f *Facts) {
			d.Coach.Feedback = []string{"Yesterday: 7,950 kJ."}
			f.Numbers.Add(7950)
		}, "kilojoules"},
		{GraderUnits, func(d *dashboard.Document, f *Facts) {
			d.Coach.Briefing += " That's 179 lbs."
			f.Numbers.Add(179)
		}, "in lb for a member who uses kg"},
		{GraderStaleCTA, func(d *dashboard.Document, f *Facts) {
			d.Coach.CTA = append(d.Coach.CTA, dashboard.CTA{Type: dashboard.CTADataGap, Action: dashboard.ActionOpenNutrition,
				Message: "No meals logged yesterday."})
			f.Truth.MealsYesterday = 3
		}, "3 meals were logged yesterday"},
		{GraderStaleCTA, func(d *dashboard.Document, f *Facts) {
			d.Coach.CTA = append(d.Coach.CTA, dashboard.CTA{Type: dashboard.CTAHabit, Action: dashboard.ActionOpenWeight,
				Message: "Step on the scale today."})
			f.Truth.WeighInsRecent = 1
		}, "weighed in today or yesterday"},
		{GraderStaleCTA, func(d *dashboard.Document, f *Facts) { f.Truth.FinishedToday["local:core-04"] = true },
			"already finished today"},
		{GraderStaleCTA, func(d *dashboard.Document, f *Facts) {
			d.Coach.CTA = append(d.Coach.CTA, dashboard.CTA{Type: dashboard.CTAHabit, Action: dashboard.ActionOpenWorkout,
				Message: "Log a workout."})
			f.Truth.WorkoutsRecent = 1
		}, "workout was logged"},
		{GraderCTALimit, func(d *dashboard.Document, f *Facts) {
			for range 3 {
				d.Coach.CTA = append(d.Coach.CTA, dashboard.CTA{Type: dashboard.CTAHabit, Action: dashboard.ActionOpenNutrition, Message: "Log."})
			}
		}, "4 calls to action; at most 3"},
	}
	gr := grader(t)
	for _, c := range cases {
		t.Run(c.grader+"/"+c.want, func(t *testing.T) {
			d, f := goodDoc(), testFacts()
			c.bad(&d, &f)
			g := gr.Grade(planOf(t, d), f)
			for _, r := range g.Results {
				if r.Grader == c.grader {
					if r.Passed || !strings.Contains(strings.Join(r.Problems, "\n"), c.want) {
						t.Fatalf("%s passed=%v problems=%v, want one about %q", c.grader, r.Passed, r.Problems, c.want)
					}
				} else if !r.Passed {
					t.Errorf("%s failed too: %v (the bad plan has one thing wrong)", r.Grader, r.Problems)
				}
			}
		})
	}
}

func TestNotADocumentFailsEveryGrader(t *testing.T) {
	g := grader(t).Grade(ParsePlan("Sure! Here is your plan: do some squats.", "model"), testFacts())
	for _, r := range g.Results {
		if r.Passed {
			t.Errorf("%s passed a reply that is not a document", r.Grader)
		}
	}
}

func TestFencedReplyIsGraded(t *testing.T) {
	raw, _ := json.Marshal(goodDoc())
	p := ParsePlan("```json\n"+string(raw)+"\n```", "model")
	if g := grader(t).Grade(p, testFacts()); g.Result(GraderSchema).Passed != true {
		t.Fatalf("fenced reply: %+v", g.Result(GraderSchema))
	}
}

func TestFiguresMatchAtTheirWrittenPrecision(t *testing.T) {
	n := NewNumbers()
	n.AddJSON([]byte(`{"weight_kg": 81.43, "streak": 7, "note": "1,640 kcal yesterday"}`))
	for text, known := range map[string]bool{
		"81": true, "81.4": true, "81.43": true, "81.0": false, "81.5": false, "1,640": true, "1640": true, "7": true,
		"8": false, "-7": true, // a sign is words ("down 7"), not part of the figure
	} {
		figs := figuresIn("x", text, n)
		if len(figs) != 1 || figs[0].Known != known {
			t.Errorf("%q: figures %+v, want known=%v", text, figs, known)
		}
	}
}
