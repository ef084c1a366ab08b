package coach

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// TestConditionsInWhatWasSaid: a condition said about oneself in ordinary
// words is kept under its typed key; a negation or another person is not
// the member; "had the baby" ends a pregnancy the coach knows of.
func TestConditionsInWhatWasSaid(t *testing.T) {
	for _, c := range []struct {
		text  string
		known []string
		want  []string // kind:key=value
	}{
		{"I'm pregnant, 14 weeks now", nil, []string{"remember:condition:pregnancy=pregnancy (said d)"}},
		{"We're expecting a baby in June, second trimester", nil, []string{"remember:condition:pregnancy=pregnancy (said d)"}},
		{"I have osteoporosis, my doctor found it last year", nil, []string{"remember:condition:osteoporosis=osteoporosis (said d)"}},
		{"low bone density they say", nil, []string{"remember:condition:osteoporosis=osteoporosis (said d)"}},
		{"I've got a heart condition, had a stent put in", nil, []string{"remember:condition:heart=heart condition (said d)"}},
		{"atrial fibrillation, on blood thinners", nil, []string{"remember:condition:heart=heart condition (said d)"}},
		{"pregnant and my knee hurts", nil, []string{"remember:condition:pregnancy=pregnancy (said d)"}},
		// Not about the member, or said not to be.
		{"I'm not pregnant", nil, nil},
		{"no heart problems at all", nil, nil},
		{"never had a heart attack", nil, nil},
		{"My wife is pregnant so I'm busy", nil, nil},
		{"my mum has osteoporosis", nil, nil},
		{"my heart rate was high on the run", nil, nil},
		// Over.
		{"We had the baby last week!", []string{"condition:pregnancy"}, []string{"forget:condition:pregnancy="}},
		{"We had the baby last week!", nil, nil},
	} {
		var got []string
		for _, u := range conditionsSaid(c.text, "d", "", c.known) {
			got = append(got, u.Kind+":"+u.Key+"="+u.Value)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

// TestConditionsAndAgeLimitWhatIsOffered: each condition and life stage
// sets its limits, and Safety.unsafe refuses content by them.
func TestConditionsAndAgeLimitWhatIsOffered(t *testing.T) {
	tabata := content.MenuEntry{ID: "local:hiit-tabata-twenty", Kind: content.KindHIIT, Impact: content.ImpactHigh, Intensity: content.IntensityHigh}
	stairs := content.MenuEntry{ID: "local:cardio-stair-builder", Kind: content.KindCardio, Impact: content.ImpactLow, Intensity: content.IntensityHigh}
	dance := content.MenuEntry{ID: "local:dance-cardio-party", Kind: content.KindDance, Impact: content.ImpactHigh, Intensity: content.IntensityModerate}
	walk := content.MenuEntry{ID: "local:walk-recovery-guide", Kind: content.KindWalk, Impact: content.ImpactLow, Intensity: content.IntensityLow}
	for _, c := range []struct {
		name   string
		held   map[string]string
		member MemberInfo
		noPush bool
		refuse []content.MenuEntry
		allow  []content.MenuEntry
	}{
		{"pregnancy", map[string]string{keyCondition + "pregnancy": "pregnancy (said 2026-02-17)"}, MemberInfo{}, true,
			[]content.MenuEntry{tabata, stairs, dance}, []content.MenuEntry{walk}},
		{"osteoporosis", map[string]string{keyCondition + "osteoporosis": "osteoporosis (said 2026-02-17)"}, MemberInfo{}, true,
			[]content.MenuEntry{tabata, dance}, []content.MenuEntry{stairs, walk}},
		{"heart condition", map[string]string{keyCondition + "heart": "heart condition (said 2026-02-17)"}, MemberInfo{}, false,
			[]content.MenuEntry{tabata, stairs}, []content.MenuEntry{dance, walk}},
		{"a minor", nil, MemberInfo{Age: 15, LifeStage: lifeStage(15)}, true, nil, []content.MenuEntry{tabata, stairs, dance, walk}},
		{"an older adult", nil, MemberInfo{Age: 72, LifeStage: lifeStage(72)}, false,
			[]content.MenuEntry{tabata, dance}, []content.MenuEntry{stairs, walk}},
		{"an adult", nil, MemberInfo{Age: 40, LifeStage: lifeStage(40)}, false, nil, []content.MenuEntry{tabata, stairs, dance, walk}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Safety{Rules: []string{}}
			s.conditionLimits(c.held, c.member)
			if s.NoWeightLossPush != c.noPush {
				t.Errorf("no weight-loss push %v, want %v", s.NoWeightLossPush, c.noPush)
			}
			for _, e := range c.refuse {
				if s.unsafe(e) == "" {
					t.Errorf("%s allowed", e.ID)
				}
			}
			for _, e := range c.allow {
				if why := s.unsafe(e); why != "" {
					t.Errorf("%s refused: %s", e.ID, why)
				}
			}
			if (len(c.held) > 0 || c.member.LifeStage != "") && len(s.Rules) == 0 {
				t.Error("no rule for the model")
			}
		})
	}
	if got := lifeStage(17); got != lifeStageMinor {
		t.Errorf("17: %q", got)
	}
	if got := lifeStage(18) + lifeStage(64) + lifeStage(0); got != "" {
		t.Errorf("18, 64, unknown: %q", got)
	}
	if got := lifeStage(65); got != lifeStageOlder {
		t.Errorf("65: %q", got)
	}
}

// TestPregnancyThroughTheRun: "I'm pregnant" typed into "Anything I
// should know" reaches the next plan through the real daily-dashboard
// run: no HIIT or high-impact pick, no ETA toward the lower goal, no "Lose
// weight" option, a word about her midwife or doctor; four weeks later she
// is asked whether it still applies, and "No, not any more" forgets it.
func TestPregnancyThroughTheRun(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	goal := 62.0
	f.member(health.Member{ID: "ida", Name: "Ida", Sex: "female", GoalWeightKg: &goal})
	for d := 21; d >= 1; d-- {
		f.weigh("ida", d, 67-float64(21-d)*0.05)
	}
	mustStatus(t, f.run("ida"), agent.StatusSucceeded)
	if b := f.today("ida").Document.Coach.Briefing; !strings.Contains(b, "At this pace you reach 62 kg") {
		t.Fatalf("before: the ETA the test expects to disappear is not there: %q", b)
	}
	f.answer("ida", promptOnboarding, "I'm pregnant, 14 weeks now", "text")
	mustStatus(t, f.run("ida"), agent.StatusSucceeded)
	d := f.today("ida").Document
	if strings.Contains(d.Coach.Briefing, "62 kg") || !clinicianWords.MatchString(d.Coach.Briefing) {
		t.Fatalf("briefing %q", d.Coach.Briefing)
	}
	forEachPick(d, func(r dashboard.ContentRef) {
		if e, ok := f.menuEntry(r.ContentID); ok && (e.Impact == content.ImpactHigh || e.Intensity == content.IntensityHigh) {
			t.Errorf("%s (%s) offered", r.Title, r.ContentID)
		}
	})
	for _, p := range d.Coach.Prompts {
		if slices.Contains(p.Options, optLoseWeight) {
			t.Errorf("prompt %q offers %q", p.Question, optLoseWeight)
		}
	}
	e, ok := f.memory("ida")[keyCondition+"pregnancy"]
	if !ok || e.ExpiresAt == nil {
		t.Fatalf("memory %+v: want condition:pregnancy with an expiry", e)
	}

	f.clk.Advance(28 * 24 * time.Hour)
	mustStatus(t, f.run("ida"), agent.StatusSucceeded)
	id := ""
	for _, p := range f.today("ida").Document.Coach.Prompts {
		if strings.HasPrefix(p.ID, promptConditionPrefix+"pregnancy-") {
			id = p.ID
		}
	}
	if id == "" {
		t.Fatalf("four weeks later: no follow-up among %v", promptIDs(f.today("ida").Document))
	}
	f.answer("ida", id, optConditionOver, "tap")
	mustStatus(t, f.run("ida"), agent.StatusSucceeded)
	if _, ok := f.memory("ida")[keyCondition+"pregnancy"]; ok {
		t.Fatal("\"No, not any more\" did not forget it")
	}
}

// TestModelPushAtPregnancyRejected: a model's briefing that names a
// plateau against the lower goal and says nothing of her clinician is
// refused with both reasons; a HIIT pick is refused too.
func TestModelPushAtPregnancyRejected(t *testing.T) {
	f, srv := modelFixture(t)
	goal := 62.0
	f.member(health.Member{ID: "ida", Name: "Ida", Sex: "female", GoalWeightKg: &goal})
	for d := 15; d >= 1; d-- {
		f.weigh("ida", d, 66)
	}
	if _, err := f.orch.Memory().Set(f.ctx, AgentID, "ida", keyCondition+"pregnancy", "pregnancy (said 2026-02-17)", 0,
		agent.AdminActor("test")); err != nil {
		t.Fatal(err)
	}
	bad := modelDoc("local:hiit-tabata-twenty", "Tabata Twenty", 20, "A plateau, with your goal at 62 kg.")
	good := modelDoc("local:yoga-rest-day", "Gentle Yoga for Rest Days", 25, "Gentle today; your midwife's advice comes first.")
	srv.Push(llmtest.JSON(bad, 900, 300), llmtest.JSON(good, 900, 300))
	r := f.run("ida")
	mustStatus(t, r, agent.StatusSucceeded)
	if n := len(srv.ChatRequests()); n != 2 {
		t.Fatalf("%d model calls, want 2 (the first plan refused)", n)
	}
	retry := srv.ChatRequests()[1].LastMessage().Content
	for _, want := range []string{"local:hiit-tabata-twenty", "their pregnancy", "pushes toward a lower weight", "advice comes first"} {
		if !strings.Contains(retry, want) {
			t.Fatalf("the retry does not carry %q:\n%s", want, retry)
		}
	}
	if !strings.Contains(srv.ChatRequests()[0].LastMessage().Content, "told you about their pregnancy") {
		t.Error("the model was not told the pregnancy rule up front")
	}
}

// forEachPick calls fn for Up Next, the alternates and the playlist.
func forEachPick(d dashboard.Document, fn func(dashboard.ContentRef)) {
	if p := d.Curated.UpNext.Primary; p != nil {
		fn(*p)
	}
	for _, r := range d.Curated.UpNext.Alternates {
		fn(r)
	}
	for _, r := range d.Curated.PlaylistSuggestion {
		fn(r)
	}
}

// menuEntry is the catalog's entry for id, with its metadata.
func (f *fixture) menuEntry(id string) (content.MenuEntry, bool) {
	found, err := f.cat.Lookup(f.ctx, []string{id})
	if err != nil {
		f.t.Fatal(err)
	}
	it, ok := found[id]
	if !ok {
		return content.MenuEntry{}, false
	}
	return menuEntryOf(it), true
}
