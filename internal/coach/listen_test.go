package coach

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

func TestFeelingsInWhatWasSaid(t *testing.T) {
	for _, c := range []struct {
		text               string
		unwell, recovering bool // what memory holds
		want               []string
	}{
		{"I'm absolutely knackered", false, false, []string{"remember:context:recovering=Said: knackered (said d): keep today light"}},
		{"feeling so tired today", false, false, []string{"remember:context:recovering=Said: tired (said d): keep today light"}},
		{"I barely slept last night", false, false, []string{"remember:context:recovering=Said: barely slept (said d): keep today light"}},
		{"Slept badly and I have no energy", false, false, []string{"remember:context:recovering=Said: slept badly (said d): keep today light"}},
		{"I’m sore all over after Sunday", false, false, []string{"remember:context:recovering=Said: i'm sore all over (said d): keep today light"}},
		{"everything hurts", false, false, []string{"remember:context:recovering=Said: everything hurts (said d): keep today light"}},
		{"I've got a stinking cold", false, false, []string{"remember:context:unwell=Sick: cold (said d): only light options until they feel better"}},
		{"I'm feeling a bit under the weather", false, false, []string{"remember:context:unwell=Sick: under the weather (said d): only light options until they feel better"}},
		{"down with the flu and exhausted", false, false, []string{
			"remember:context:unwell=Sick: flu (said d): only light options until they feel better",
			"remember:context:recovering=Said: exhausted (said d): keep today light"}},
		{"I'm feeling much better now", true, true, []string{"forget:context:unwell=", "forget:context:recovering="}},
		{"I'm feeling much better now", false, false, nil}, // nothing held: nothing to let go
		// Not how they feel.
		{"I'm not tired at all", false, false, nil},
		{"not feeling sick any more", false, false, nil},
		{"I'm sick of salads", false, false, nil},
		{"I'm tired of the same workout", false, false, nil},
		{"My kids have a cold", false, false, nil},
		{"I love mornings", false, false, nil},
	} {
		var got []string
		for _, u := range feelings(c.text, "d", "", c.unwell, c.recovering) {
			got = append(got, u.Kind+":"+u.Key+"="+u.Value)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

func TestGoalsInWhatWasSaid(t *testing.T) {
	today := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		text string
		want string // kind|description|date, "" for none
	}{
		{"I want to run a 5k in March", "custom|Run a 5k|2027-03-31"},
		{"My goal is to lose 5 kg by the end of June 2027", "weight|Lose 5 kg|2027-06-30"},
		{"I'd like to do 10 push-ups in 8 weeks", "custom|Do 10 push-ups|2027-01-23"},
		{"I'm training for a half marathon in December!", "custom|Train for a half marathon|2026-12-31"},
		{"i really want to get stronger", "custom|Get stronger|"},
		{"I'd like to touch my toes by the end of the year", "custom|Touch my toes|2026-12-31"},
		// Not goals.
		{"I want to know what I ate yesterday", ""},
		{"I don't want to run today", ""},
		{"I want pizza", ""},
		{"Make me a plan for this week", ""},
	} {
		g, ok := goalSaid(c.text, today)
		got := ""
		if ok {
			got = g.Kind + "|" + g.Description + "|" + g.TargetDate
		}
		if strings.TrimSuffix(got, "|") != strings.TrimSuffix(c.want, "|") {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

// The acknowledgements say what was understood, and whether today's plan
// changes; bookkeeping alone changes nothing.
func TestAcknowledgements(t *testing.T) {
	mem := func(key, value string) Update { return Update{Kind: UpdateMemory, Key: key, Value: value} }
	for _, c := range []struct {
		us     []Update
		ack    string
		replan bool
	}{
		{[]Update{mem("injury:left-knee", "bad left knee"), mem("injury:back", "sore back")},
			"Noted — I'm re-planning today to go easy on your left knee and back.", true},
		{[]Update{{Kind: UpdateForget, Key: "injury:knee"}}, "Good to hear your knee is better — I've taken it off my list.", true},
		{[]Update{mem("checkin:energy", "A bit tired (said d)"), mem(keyRecovering, "A bit tired: keep today light")}, "Noted — today stays light.", true},
		{[]Update{mem(keyUnwell, "Sick")}, "Noted — rest up: I'll keep to light options until you feel better.", true},
		{[]Update{{Kind: UpdateGoal, Goal: &GoalSpec{Description: "Get stronger"}}}, "Noted — your goal: get stronger. I'll plan with it in mind.", true},
		{[]Update{proposeGoal(GoalSpec{Kind: "custom", Description: "Run a 5k", TargetDate: "2027-03-31"}, "d", "")},
			"Shall I add “Run a 5k” as a goal, by Wed 31 Mar 2027? Tap “Add the goal” on your dashboard to keep it.", true},
		{[]Update{{Kind: UpdatePause, Title: "Ember Core 30"}}, "Noted — Ember Core 30 is paused.", true},
		{[]Update{mem(keyCondition+"pregnancy", "pregnancy (said d)")},
			"Noted — I'll plan around your pregnancy. Your midwife's or doctor's advice comes first.", true},
		{[]Update{{Kind: UpdateForget, Key: keyCondition + "heart"}}, "Noted — I've taken your heart condition off my list.", true},
		{[]Update{mem(keyWalkingOnly, "only walks (said d)")}, "Noted — walks only, a little longer each week.", true},
		{[]Update{mem("checkin:energy", "Normal (said d)")}, "Thanks — noted.", false},
		{[]Update{mem("note:member", "I like mornings")}, "Thanks — noted.", false},
		{nil, "", false},
	} {
		got := acknowledge(c.us, time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC))
		if got.Ack != c.ack || got.Replan != c.replan {
			t.Errorf("%+v: %+v, want %q replan %v", c.us, got, c.ack, c.replan)
		}
	}
}

// The kiosk's listener acknowledges an answer the moment it is given,
// through the interpretation the next run applies, and says whether the
// day must be re-planned.
func TestListenerAcknowledgesAnswers(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "nova", Name: "Nova"})
	f.run("nova")
	l := NewListener(f.deps, f.orch.Memory())
	day := f.clk.Now().Format(time.DateOnly)
	for _, c := range []struct {
		prompt, answer, kind string
		ack                  string
		replan               bool
	}{
		{"checkin-energy-20260218", optTired, "tap", "Noted — today stays light.", true},
		{"checkin-energy-20260218", "Normal", "tap", "Thanks — noted.", false},
		{promptOnboarding, "I have a bad left knee", "text", "Noted — I'm re-planning today to go easy on your left knee.", true},
		{promptOnboarding, "I like mornings", "text", "Thanks — noted.", false},
		{promptOnboarding, "I have osteoporosis", "text", "Noted — I'll plan around your osteoporosis. Your doctor's advice comes first.", true},
		{promptGoal, optStronger, "tap", "Noted — your goal: get stronger. I'll plan with it in mind.", true},
	} {
		u, err := l.Answer(f.ctx, "nova", dashboard.Answer{MemberID: "nova", Day: day, PromptID: c.prompt, Answer: c.answer, Kind: c.kind,
			AnsweredAt: f.clk.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if u.Ack != c.ack || u.Replan != c.replan {
			t.Errorf("%s %q: %+v, want %q replan %v", c.prompt, c.answer, u, c.ack, c.replan)
		}
	}
}

// A typed answer goes through the same statement vocabulary as a chat: "I'm
// exhausted" to "Anything I should know" makes the next plan light.
func TestTypedAnswerHearsHowTheMemberFeels(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	f.run("maya")
	f.answer("maya", promptOnboarding, "Honestly I'm exhausted this week", "text")
	f.clk.Advance(time.Minute)
	mustStatus(t, f.run("maya"), agent.StatusSucceeded)
	if _, ok := f.memory("maya")[keyRecovering]; !ok {
		t.Fatal("the answer's tiredness was not kept")
	}
	d := f.today("maya").Document
	items, err := f.cat.Lookup(f.ctx, []string{d.Curated.UpNext.Primary.ContentID})
	if err != nil {
		t.Fatal(err)
	}
	if k := items[d.Curated.UpNext.Primary.ContentID].Kind; !slices.Contains(lightKinds, k) {
		t.Errorf("up next is %s (%s), want a light session", d.Curated.UpNext.Primary.Title, k)
	}
}
