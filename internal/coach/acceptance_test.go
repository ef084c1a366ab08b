package coach

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/program"
)

// household is one planted situation and what its dashboard must show.
type household struct {
	id    string
	seed  func(f *fixture, id string)
	ctas  []string // "type/action", in order
	check func(t *testing.T, f *fixture, id string, d dashboard.Document)
}

func ptr[T any](v T) *T { return &v }

var households = []household{
	{
		id:   "nova", // brand new: no goals, no data, no program → onboarding
		seed: func(f *fixture, id string) { f.member(health.Member{ID: id, Name: "Nova"}) },
		ctas: []string{"habit/open_weight", "habit/open_nutrition", "habit/open_workout"},
		check: func(t *testing.T, f *fixture, id string, d dashboard.Document) {
			if !strings.Contains(d.Coach.Briefing, "Welcome") {
				t.Errorf("briefing %q does not welcome a new member", d.Coach.Briefing)
			}
			goal := promptByID(t, d, promptGoal)
			if goal.Type != dashboard.PromptMultipleChoice || !slices.Contains(goal.Options, "Start Ember Core 30") ||
				!slices.Contains(goal.Options, optLoseWeight) {
				t.Errorf("goal prompt = %+v, want multiple choice with goals and programs", goal)
			}
			promptByID(t, d, promptOnboarding)
			if p := d.Curated.UpNext.Primary; p == nil || p.ContentID != "local:main-first-week-sampler" {
				t.Errorf("up next = %+v, want the discovery starter", p)
			}
			for _, a := range d.Curated.UpNext.Alternates {
				if a.Reason != ReasonDiscover || !strings.Contains(a.ProgramContext, "Week 1, Day 1") {
					t.Errorf("alternate %+v is not a program discovery option", a)
				}
			}
		},
	},
	{
		id: "maya", // mid-program, on schedule, good data
		seed: func(f *fixture, id string) {
			f.member(health.Member{ID: id, Name: "Maya", Targets: health.Targets{Calories: ptr(2000.0), ProteinG: ptr(120.0)}})
			for d := 13; d >= 0; d-- {
				f.weigh(id, d, 70.4-float64(13-d)*0.1)
			}
			for d := 1; d <= 7; d++ {
				f.meal(id, d, "Lunch", 1100, 70)
				f.meal(id, d, "Dinner", 800, 62.5)
			}
			f.workout(id, 1, "core", 18, "local:ember-core-03")
			f.workout(id, 2, "core", 18, "local:ember-core-02")
			f.workout(id, 9, "core", 15, "")
			f.goal(id, "Finish Ember Core 30")
			f.onProgram(id, "ember-core-30", 3, "daily", 3)
		},
		ctas: []string{"program/play_up_next"},
		check: func(t *testing.T, f *fixture, id string, d dashboard.Document) {
			td, err := f.progs.Today(f.ctx, id, f.clk.Now(), time.UTC)
			if err != nil || td.Status != program.DayTraining || td.Item == nil {
				t.Fatalf("program today = %+v, %v", td, err)
			}
			p := d.Curated.UpNext.Primary
			if p == nil || p.ContentID != td.Item.ID || p.Reason != ReasonProgramDay || !strings.Contains(p.ProgramContext, "Week 1, Day 4") {
				t.Fatalf("up next = %+v, want program day %s (Week 1, Day 4)", p, td.Item.ID)
			}
			checkAlternates(t, f, d)
			kinds := playlistKinds(t, f, d)
			if !slices.Equal(kinds, []string{content.KindWarmUp, content.KindCore, content.KindCoolDown}) {
				t.Errorf("playlist kinds = %v, want warm-up, core, cool-down", kinds)
			}
			if d.Curated.PlaylistSuggestion[1].ContentID != td.Item.ID {
				t.Errorf("playlist main = %s, want %s", d.Curated.PlaylistSuggestion[1].ContentID, td.Item.ID)
			}
			if !strings.Contains(d.Coach.Briefing, "Week 1, Day 4 of Ember Core 30") {
				t.Errorf("briefing %q does not name today's program day", d.Coach.Briefing)
			}
			// On track: only the daily check-in (a tap) and, until she has
			// told the coach about herself, the voice question.
			if ids := promptIDs(d); len(ids) != 2 || !strings.HasPrefix(ids[0], "checkin-") || ids[1] != promptOnboarding {
				t.Errorf("prompts = %v, want the daily check-in and the onboarding question", ids)
			}
		},
	},
	{
		id: "rhea", // rest weekday of her pattern, 2 rest days since the last workout
		seed: func(f *fixture, id string) {
			f.member(health.Member{ID: id, Name: "Rhea", Targets: health.Targets{Calories: ptr(1800.0)}})
			f.weigh(id, 1, 64.2)
			f.weigh(id, 8, 64.8)
			f.meal(id, 1, "Soup", 1500, 80)
			f.meal(id, 2, "Soup", 1600, 85)
			for _, d := range []int{3, 4, 5, 6} {
				f.workout(id, d, "core", 20, "")
			}
			f.goal(id, "Stronger core")
			f.onProgram(id, "ember-core-30", 7, "mon,tue,thu,fri,sat", 5)
		},
		ctas: []string{},
		check: func(t *testing.T, f *fixture, id string, d dashboard.Document) {
			p := d.Curated.UpNext.Primary
			if p == nil || p.Reason != ReasonRestDay || !isLight(kindOf(t, f, p.ContentID)) || p.Duration > 30 {
				t.Fatalf("up next = %+v, want a light rest-day option", p)
			}
			if !strings.Contains(p.ProgramContext, "Rest day") {
				t.Errorf("program context %q does not say rest day", p.ProgramContext)
			}
			for _, a := range d.Curated.UpNext.Alternates {
				if !isLight(kindOf(t, f, a.ContentID)) {
					t.Errorf("rest-day alternate %s is not light", a.ContentID)
				}
			}
			checkAlternates(t, f, d)
			q := promptByID(t, d, promptCheckIn)
			if q.Type != dashboard.PromptMultipleChoice || !strings.Contains(q.Question, "2 rest days") {
				t.Errorf("check-in prompt = %+v", q)
			}
		},
	},
	{
		id: "gus", // logging gaps: last weigh-in 6 days ago, nothing eaten yesterday, protein low
		seed: func(f *fixture, id string) {
			f.member(health.Member{ID: id, Name: "Gus", Targets: health.Targets{Calories: ptr(2400.0), ProteinG: ptr(140.0)}})
			for _, d := range []int{6, 8, 10, 13} {
				f.weigh(id, d, 92.5+float64(d)*0.1)
			}
			for d := 2; d <= 6; d++ {
				f.meal(id, d, "Pasta", 2100, 38)
			}
			f.workout(id, 1, "cardio", 30, "")
			f.workout(id, 9, "cardio", 30, "")
			f.goal(id, "Lose weight")
		},
		ctas: []string{"data_gap/open_weight", "data_gap/open_nutrition", "habit/open_nutrition"},
		check: func(t *testing.T, f *fixture, id string, d dashboard.Document) {
			if m := d.Coach.CTA[0].Message; !strings.Contains(m, "6 days") {
				t.Errorf("weigh-in CTA %q does not say how long", m)
			}
			if m := d.Coach.CTA[2].Message; !strings.Contains(m, "38 g") || !strings.Contains(m, "140 g") {
				t.Errorf("protein CTA %q does not give the average and the target", m)
			}
			if st := f.today(id); st.Sources != "weight, meals, workouts, goals, 3 notes" {
				t.Errorf("sources %q", st.Sources)
			}
			mem := f.memory(id)
			for _, k := range []string{keyFlagWeighIn, keyFlagMeals, keyObsProtein} {
				if e, ok := mem[k]; !ok || e.ExpiresAt == nil {
					t.Errorf("memory %s = %+v, want an expiring flag", k, e)
				}
			}
		},
	},
	{
		id: "cleo", // finished her program: what's next?
		seed: func(f *fixture, id string) {
			f.member(health.Member{ID: id, Name: "Cleo"})
			f.weigh(id, 0, 58)
			f.weigh(id, 3, 58.4)
			f.meal(id, 1, "Bowl", 1700, 90)
			f.workout(id, 1, "yoga", 25, "local:tideline-21")
			f.goal(id, "Be more flexible")
			f.onProgram(id, "tideline-yoga-21", 25, "daily", 0)
			if _, err := f.progs.Complete(f.ctx, id); err != nil {
				f.t.Fatal(err)
			}
		},
		ctas: []string{},
		check: func(t *testing.T, f *fixture, id string, d dashboard.Document) {
			q := promptByID(t, d, promptNext)
			if !slices.Contains(q.Options, "Start Ember Core 30") || !slices.Contains(q.Options, "Repeat Tideline Yoga 21") {
				t.Errorf("what's-next options = %v", q.Options)
			}
			if p := d.Curated.UpNext.Primary; p == nil || p.Reason == ReasonProgramDay {
				t.Errorf("up next = %+v, want an ad-hoc pick after the program", p)
			}
			if !strings.Contains(d.Coach.Briefing, "You finished Tideline Yoga 21") {
				t.Errorf("briefing %q does not mention the finished program", d.Coach.Briefing)
			}
		},
	},
	{
		id: "lars", // pounds, no program: ad-hoc variety, briefing in lb
		seed: func(f *fixture, id string) {
			f.member(health.Member{ID: id, Name: "Lars", Unit: health.LB})
			for d := 10; d >= 0; d -= 2 {
				f.weigh(id, d, 88+float64(d)*0.2)
			}
			f.meal(id, 1, "Steak", 2300, 150)
			f.meal(id, 2, "Steak", 2300, 150)
			f.workout(id, 1, "strength", 45, "")
			f.goal(id, "Get stronger")
		},
		ctas: []string{},
		check: func(t *testing.T, f *fixture, id string, d dashboard.Document) {
			w := f.tool(id, "get_weight_trend", nil).(WeightView)
			if !strings.HasSuffix(w.CurrentText, " lb") || !strings.Contains(d.Coach.Briefing, w.CurrentText) {
				t.Errorf("briefing %q lacks the weight in lb %q", d.Coach.Briefing, w.CurrentText)
			}
			if p := d.Curated.UpNext.Primary; p == nil || p.Reason != ReasonVariety || kindOf(t, f, p.ContentID) == content.KindStrength {
				t.Errorf("up next = %+v, want a variety pick of another kind than yesterday's strength", p)
			}
			checkAlternates(t, f, d)
		},
	},
}

// TestDailyDashboardHeuristicHouseholds is acceptance 1: with no model, the
// assignment run for every member writes a valid document whose content is
// in the catalog, whose briefing numbers are the tools' and whose CTAs are
// the planted data gaps.
func TestDailyDashboardHeuristicHouseholds(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	for _, h := range households {
		h.seed(f, h.id)
	}
	runs, err := f.orch.RunEach(f.ctx, agent.Request{Agent: AgentID, Assignment: DailyDashboardID, Trigger: agent.TriggerSchedule})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(households) {
		t.Fatalf("%d runs, want %d", len(runs), len(households))
	}
	for _, r := range runs {
		mustStatus(t, r, agent.StatusSucceeded)
		if r.Model != llm.HeuristicModel {
			t.Errorf("run for %s used model %q", r.Member, r.Model)
		}
	}
	schema, err := agent.CompileSchema("dashboard", dashboard.SchemaMap())
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range households {
		t.Run(h.id, func(t *testing.T) {
			st := f.today(h.id)
			d := st.Document
			raw, _ := json.Marshal(d)
			if errs := schema.Validate(raw); len(errs) > 0 {
				t.Fatalf("stored document fails the schema: %v", errs)
			}
			checkCatalog(t, f, d)
			checkBriefingNumbers(t, f, h.id, d)
			var ctas []string
			for _, c := range d.Coach.CTA {
				ctas = append(ctas, c.Type+"/"+c.Action)
			}
			if !slices.Equal(ctas, h.ctas) {
				t.Errorf("CTAs = %v, want %v", ctas, h.ctas)
			}
			if st.Sources == "" || st.RunID == 0 {
				t.Errorf("stored sources %q run %d", st.Sources, st.RunID)
			}
			h.check(t, f, h.id, d)
		})
	}
}

// checkCatalog: every content id exists with the catalog's title and duration.
func checkCatalog(t *testing.T, f *fixture, d dashboard.Document) {
	t.Helper()
	ids := d.ContentIDs()
	if len(ids) == 0 {
		t.Fatal("the document names no content")
	}
	missing, err := f.cat.Missing(f.ctx, ids)
	if err != nil || len(missing) > 0 {
		t.Fatalf("ids not in the catalog: %v (%v)", missing, err)
	}
	found, _ := f.cat.Lookup(f.ctx, ids)
	entries := map[string]dashboard.CatalogEntry{}
	for id, it := range found {
		entries[id] = dashboard.CatalogEntry{Title: it.Title, Duration: it.DurationMin}
	}
	if ps := dashboard.ValidateDomain(d, entries); len(ps) > 0 {
		t.Fatalf("domain problems: %v", ps)
	}
	refs := append(append([]dashboard.ContentRef{}, d.Curated.UpNext.Alternates...), d.Curated.PlaylistSuggestion...)
	if d.Curated.UpNext.Primary != nil {
		refs = append(refs, *d.Curated.UpNext.Primary)
	}
	for _, r := range refs {
		if found[r.ContentID].Title != r.Title {
			t.Errorf("%s title %q, catalog says %q", r.ContentID, r.Title, found[r.ContentID].Title)
		}
	}
}

// checkBriefingNumbers: every figure in the briefing is one the tools
// return for the member (recomputed here through the toolbox), and the
// headline figures appear exactly as the tools print them.
func checkBriefingNumbers(t *testing.T, f *fixture, id string, d dashboard.Document) {
	t.Helper()
	outs := []any{
		f.tool(id, "get_weight_trend", nil),
		f.tool(id, "get_today_nutrition", map[string]any{"date": nil}),
		f.tool(id, "get_today_nutrition", map[string]any{"date": "yesterday"}),
		f.tool(id, "get_nutrition_history", map[string]any{"days": 7}),
		f.tool(id, "get_recent_workouts", map[string]any{"limit": 5}),
		f.tool(id, "get_program_state", nil),
		f.tool(id, "get_fitness_content", map[string]any{"kind": nil, "program": nil, "query": nil, "max_duration": nil, "limit": nil}),
	}
	facts, err := collectNumbers(outs)
	if err != nil {
		t.Fatal(err)
	}
	if errs := checkNumbers("/coach/briefing", d.Coach.Briefing, facts); len(errs) > 0 {
		t.Errorf("briefing %q has numbers the tools did not return: %v", d.Coach.Briefing, errs)
	}
	w := outs[0].(WeightView)
	for _, s := range []string{w.CurrentText, w.Change7dText} {
		if s != "" && !strings.Contains(d.Coach.Briefing, s) {
			t.Errorf("briefing %q lacks the tool's %q", d.Coach.Briefing, s)
		}
	}
	if y := outs[2].(NutritionDayView); y.Meals > 0 {
		want := fmt.Sprintf("%s kcal and %s g protein", kcal(y.Totals.Calories), num(y.Totals.ProteinG))
		if !strings.Contains(d.Coach.Briefing, want) {
			t.Errorf("briefing %q lacks yesterday's %q", d.Coach.Briefing, want)
		}
	}
}

// checkAlternates: a lighter and a different-kind option, neither the primary.
func checkAlternates(t *testing.T, f *fixture, d dashboard.Document) {
	t.Helper()
	p := d.Curated.UpNext.Primary
	alts := d.Curated.UpNext.Alternates
	if len(alts) != 2 {
		t.Fatalf("alternates = %+v, want 2", alts)
	}
	var lighter, other bool
	for _, a := range alts {
		if a.ContentID == p.ContentID {
			t.Errorf("alternate repeats the primary %s", a.ContentID)
		}
		switch a.Reason {
		case ReasonLighter:
			lighter = a.Duration < p.Duration
		case ReasonDifferentKind:
			other = kindOf(t, f, a.ContentID) != kindOf(t, f, p.ContentID)
		}
	}
	if !lighter || !other {
		t.Errorf("alternates %+v: want a shorter lighter option and one of another kind than %s", alts, p.ContentID)
	}
}

func playlistKinds(t *testing.T, f *fixture, d dashboard.Document) []string {
	var out []string
	for _, r := range d.Curated.PlaylistSuggestion {
		out = append(out, kindOf(t, f, r.ContentID))
	}
	return out
}

func kindOf(t *testing.T, f *fixture, id string) string {
	t.Helper()
	it, err := f.cat.Get(f.ctx, id)
	if err != nil {
		t.Fatalf("catalog %s: %v", id, err)
	}
	return it.Kind
}

func promptByID(t *testing.T, d dashboard.Document, id string) dashboard.Prompt {
	t.Helper()
	p, ok := d.Prompt(id)
	if !ok {
		t.Fatalf("no prompt %q among %v", id, promptIDs(d))
	}
	return p
}

// TestHouseholdTimeZoneDefinesToday: at 04:00 UTC it is still the evening
// before in New York; the document, "today" and "yesterday" follow the
// household's calendar.
func TestHouseholdTimeZoneDefinesToday(t *testing.T) {
	ny := time.FixedZone("EST", -5*3600)
	f := newFixture(t, fixtureOpts{loc: ny})
	f.member(health.Member{ID: "ada", Name: "Ada"})
	f.goal("ada", "Move more")
	late := time.Date(2026, 2, 17, 22, 0, 0, 0, ny) // 03:00 UTC on the 18th
	if _, err := f.db.AddMeal(f.ctx, health.Meal{MemberID: "ada", EatenAt: late, Name: "Late snack", Calories: 300, ProteinG: 10}); err != nil {
		t.Fatal(err)
	}
	f.run("ada")
	st, err := f.dash.Get(f.ctx, "ada", "2026-02-17")
	if err != nil {
		t.Fatalf("no document for the local day 2026-02-17: %v", err)
	}
	today := f.tool("ada", "get_today_nutrition", map[string]any{"date": nil}).(NutritionDayView)
	if today.Date != "2026-02-17" || today.Meals != 1 {
		t.Errorf("today's nutrition %+v, want the local evening's snack", today)
	}
	if slices.ContainsFunc(st.Document.Coach.CTA, func(c dashboard.CTA) bool { return c.Type == dashboard.CTADataGap }) {
		t.Errorf("CTAs %+v", st.Document.Coach.CTA)
	}
}

// TestEmptyCatalogStillWritesADocument: without content the dashboard has
// no Up Next but the coach still speaks.
func TestEmptyCatalogStillWritesADocument(t *testing.T) {
	f := newFixture(t, fixtureOpts{empty: true})
	f.member(health.Member{ID: "ada", Name: "Ada"})
	mustStatus(t, f.run("ada"), agent.StatusSucceeded)
	d := f.today("ada").Document
	if d.Curated.UpNext.Primary != nil || len(d.Curated.PlaylistSuggestion) != 0 || d.Coach.Briefing == "" {
		t.Fatalf("document %+v", d)
	}
}
