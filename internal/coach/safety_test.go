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
)

// TestModelHighImpactForInjuredMemberRejected (issue 23 point 8): a
// model's plan that picks high-impact, knee-loading content for a member
// with a bad knee fails validation with the reason fed back; the
// corrected plan is stored.
func TestModelHighImpactForInjuredMemberRejected(t *testing.T) {
	f, srv := modelFixture(t)
	f.member(health.Member{ID: "theo", Name: "Theo"})
	if _, err := f.orch.Memory().Set(f.ctx, AgentID, "theo", keyInjury+"left-knee", "bad left knee (said 2026-02-10)", 0,
		agent.AdminActor("test")); err != nil {
		t.Fatal(err)
	}
	bad := modelDoc("local:hiit-tabata-twenty", "Tabata Twenty", 20, "Let's get stronger today.")
	good := modelDoc("local:yoga-rest-day", "Gentle Yoga for Rest Days", 25, "Gentle today, for your bad left knee.")
	srv.Push(llmtest.JSON(bad, 900, 300), llmtest.JSON(good, 900, 300))

	r := f.run("theo")
	mustStatus(t, r, agent.StatusSucceeded)
	if r.Attempts != 2 {
		t.Fatalf("attempts %d, want 2", r.Attempts)
	}
	retry := srv.ChatRequests()[1].LastMessage().Content
	for _, want := range []string{"/curated/up_next/primary", "local:hiit-tabata-twenty", "high impact", "bad left knee",
		"acknowledge it in the briefing"} {
		if !strings.Contains(retry, want) {
			t.Fatalf("the retry does not carry %q:\n%s", want, retry)
		}
	}
	if !strings.Contains(srv.ChatRequests()[0].LastMessage().Content, "nothing that loads the knee") {
		t.Error("the model was not told the injury rule up front")
	}
	if p := f.today("theo").Document.Curated.UpNext.Primary; p == nil || p.ContentID != "local:yoga-rest-day" {
		t.Fatalf("stored %+v, want the corrected pick", p)
	}
}

// TestModelWeightLossPushAtLowBodyWeightRejected (issue 23 point 8): at a
// BMI under 18.5 a briefing that pushes toward losing, or that leaves out
// a caution, is refused with the reason.
func TestModelWeightLossPushAtLowBodyWeightRejected(t *testing.T) {
	f, srv := modelFixture(t)
	h := 168.0
	f.member(health.Member{ID: "liv", Name: "Liv", Sex: "female", HeightCm: &h})
	for d := 10; d >= 0; d-- {
		f.weigh("liv", d, 48)
	}
	push := modelDoc("local:stretch-full-body-10", "10-Minute Full-Body Stretch", 10, "Great work, keep going and you'll lose more weight.")
	push.Curated.UpNext.Alternates = []dashboard.ContentRef{}
	care := push
	care.Coach.Briefing = "I won't push for a lower weight: eat enough to fuel your day, and talk to your doctor if that is hard."
	srv.Push(llmtest.JSON(push, 900, 300), llmtest.JSON(care, 900, 300))

	r := f.run("liv")
	mustStatus(t, r, agent.StatusSucceeded)
	retry := srv.ChatRequests()[1].LastMessage().Content
	for _, want := range []string{"pushes toward a lower weight", "BMI is under 18.5", "caution them kindly to eat enough"} {
		if !strings.Contains(retry, want) {
			t.Fatalf("the retry does not carry %q:\n%s", want, retry)
		}
	}
	if got := f.today("liv").Document.Coach.Briefing; got != care.Coach.Briefing {
		t.Fatalf("stored briefing %q", got)
	}
}

// TestModelQuestionedReadingNotPresented (issue 23 point 8): a weigh-in far
// from the trend must be asked about in a prompt, never stated as the
// current weight.
func TestModelQuestionedReadingNotPresented(t *testing.T) {
	f, srv := modelFixture(t)
	f.member(health.Member{ID: "yara", Name: "Yara"})
	for d := 14; d >= 1; d-- {
		f.weigh("yara", d, 70)
	}
	f.weigh("yara", 0, 6.9)
	shown := modelDoc("local:stretch-full-body-10", "10-Minute Full-Body Stretch", 10, "You weigh 6.9 kg today.")
	shown.Curated.UpNext.Alternates = []dashboard.ContentRef{}
	asked := shown
	asked.Coach.Briefing = "A quiet day."
	asked.Coach.Prompts = []dashboard.Prompt{{ID: "confirm-weight", Type: dashboard.PromptMultipleChoice,
		Question: "Your scale recorded 6.9 kg today. Is that right?", Options: []string{optReadingWrong, optReadingRight}}}
	srv.Push(llmtest.JSON(shown, 900, 300), llmtest.JSON(asked, 900, 300))

	r := f.run("yara")
	mustStatus(t, r, agent.StatusSucceeded)
	retry := srv.ChatRequests()[1].LastMessage().Content
	for _, want := range []string{"6.9 kg reading", "questioned", "/coach/prompts", "ask the member to confirm it"} {
		if !strings.Contains(retry, want) {
			t.Fatalf("the retry does not carry %q:\n%s", want, retry)
		}
	}
	if d := f.today("yara").Document; len(d.Coach.Prompts) != 1 || d.Coach.Briefing != "A quiet day." {
		t.Fatalf("stored %+v", d.Coach)
	}
}

// TestInjuryAskedAboutAgainAfterAWhile (issue 23 point 1): an injury said
// two weeks ago is asked about through the real daily-dashboard run; "Still
// bothering me" keeps it (asked again two weeks later), "Better now"
// forgets it and the briefing stops naming it.
func TestInjuryAskedAboutAgainAfterAWhile(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "theo", Name: "Theo"})
	said := f.at(InjuryFollowUpDays, 8).Format("2006-01-02")
	if _, err := f.orch.Memory().Set(f.ctx, AgentID, "theo", keyInjury+"left-knee", "bad left knee (said "+said+")", 0,
		agent.AdminActor("test")); err != nil {
		t.Fatal(err)
	}
	mustStatus(t, f.run("theo"), agent.StatusSucceeded)
	d := f.today("theo").Document
	id := "injury-left-knee-" + strings.ReplaceAll(said, "-", "")
	var asked *dashboard.Prompt
	for i, p := range d.Coach.Prompts {
		if p.ID == id {
			asked = &d.Coach.Prompts[i]
		}
	}
	if asked == nil || !strings.Contains(asked.Question, "bad left knee") {
		t.Fatalf("no follow-up %s among %v", id, promptIDs(d))
	}
	if !strings.Contains(d.Coach.Briefing, "knee") {
		t.Fatalf("briefing %q does not name the knee", d.Coach.Briefing)
	}

	f.answer("theo", id, optInjuryStill, "tap")
	mustStatus(t, f.run("theo"), agent.StatusSucceeded)
	e, ok := f.memory("theo")[keyInjury+"left-knee"]
	if !ok || !strings.Contains(e.Value, "(said "+f.clk.Now().Format("2006-01-02")+")") {
		t.Fatalf("still sore: memory %+v", e)
	}
	if slices.Contains(promptIDs(f.today("theo").Document), id) {
		t.Fatal("the answered follow-up was asked again the same day")
	}

	f.clk.Advance(InjuryFollowUpDays * 24 * time.Hour)
	mustStatus(t, f.run("theo"), agent.StatusSucceeded)
	d = f.today("theo").Document
	again := ""
	for _, p := range d.Coach.Prompts {
		if strings.HasPrefix(p.ID, "injury-left-knee-") {
			again = p.ID
		}
	}
	if again == "" || again == id {
		t.Fatalf("two weeks later: prompts %v", promptIDs(d))
	}
	f.answer("theo", again, optInjuryBetter, "tap")
	mustStatus(t, f.run("theo"), agent.StatusSucceeded)
	if _, ok := f.memory("theo")[keyInjury+"left-knee"]; ok {
		t.Fatal("\"Better now\" did not forget the injury")
	}
	if b := f.today("theo").Document.Coach.Briefing; strings.Contains(b, "knee") {
		t.Fatalf("briefing still names the knee: %q", b)
	}
}

// TestPushInSkipsNegations: "I won't push you to lose weight" is a
// caution, not a push; "keep going and you'll lose more weight" is one.
func TestPushInSkipsNegations(t *testing.T) {
	for text, want := range map[string]string{
		"I won't push you to lose weight: eat enough.":          "",
		"Keep going and you'll lose more weight.":               "lose more weight",
		"No need to lose weight. Keep going, lose some weight!": "lose some weight",
		"Never drop weight this fast.":                          "",
	} {
		if got := pushIn(weightLossPush, text); got != want {
			t.Errorf("pushIn(%q) = %q, want %q", text, got, want)
		}
	}
}
