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

func TestInjuriesInWhatWasSaid(t *testing.T) {
	for _, c := range []struct {
		text  string
		known []string
		want  []string // kind:key=value
	}{
		{"Bad left knee, so no jumping please", nil, []string{"remember:injury:left-knee=bad left knee (said d)"}},
		{"my lower back hurts after long days", nil, []string{"remember:injury:lower-back=lower back hurts (said d)"}},
		{"Sprained my right ankle last week", nil, []string{"remember:injury:right-ankle=sprained right ankle (said d)"}},
		{"I love mornings", nil, nil},
		{"My knee is fine now", nil, nil},
		{"the left knee is much better now", []string{"injury:left-knee", "injury:back"}, []string{"forget:injury:left-knee="}},
		{"no more back pain!", []string{"injury:left-knee", "injury:back"}, []string{"forget:injury:back="}},
		// Other words for the same thing: a condition after or before the
		// part, or an injury named without its part.
		{"I had knee surgery in October", nil, []string{"remember:injury:knee=knee surgery (said d)"}},
		{"I've got arthritis in both knees, so go easy", nil, []string{"remember:injury:knee=arthritis in both knees (said d)"}},
		{"surgery on my left knee last year", nil, []string{"remember:injury:left-knee=surgery on my left knee (said d)"}},
		{"new hip replacement!", nil, []string{"remember:injury:hip=hip replacement (said d)"}},
		{"a slipped disc, no heavy lifting", nil, []string{"remember:injury:back=slipped disc (said d)"}},
		{"my tennis elbow is acting up", nil, []string{"remember:injury:elbow=tennis elbow (said d)"}},
		{"I'm back on track after a week away", nil, nil},
		{"tore my ACL skiing, a torn ACL is no joke", nil, []string{"remember:injury:knee=torn acl (said d)"}},
		{"herniated disc two years ago", nil, []string{"remember:injury:back=herniated disc (said d)"}},
		// A part that bothers them, in everyday words (issue 32).
		{"My lower back gives me trouble after long days", nil, []string{"remember:injury:lower-back=lower back trouble (said d)"}},
		{"my right shoulder keeps acting up", nil, []string{"remember:injury:right-shoulder=right shoulder trouble (said d)"}},
		{"the knee has been giving me grief", nil, []string{"remember:injury:knee=knee trouble (said d)"}},
		{"some trouble with my left hip", nil, []string{"remember:injury:left-hip=trouble with my left hip (said d)"}},
		// Said to be fine: nothing to keep.
		{"I have no knee problems", nil, nil},
		{"I don't have a bad back", nil, nil},
		{"no issues with my shoulders", nil, nil},
	} {
		var got []string
		for _, u := range injuries(c.text, "d", "", c.known) {
			got = append(got, u.Kind+":"+u.Key+"="+u.Value)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

// What a member tells the coach is remembered and acknowledged: a goal
// answer in the next briefing, an injury in every briefing until the
// member says it is better.
func TestWhatTheMemberSaidIsAcknowledged(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "nova", Name: "Nova"})
	f.run("nova") // Wednesday: the goal and the voice question
	d := f.today("nova").Document
	if ids := promptIDs(d); !slices.Contains(ids, promptGoal) || !slices.Contains(ids, promptOnboarding) {
		t.Fatalf("first day prompts %v", ids)
	}
	f.answer("nova", promptGoal, optStronger, "tap")
	f.answer("nova", promptOnboarding, "Bad left knee, so nothing with jumping. I like mornings.", "voice")
	f.clk.Advance(24 * time.Hour)
	mustStatus(t, f.run("nova"), agent.StatusSucceeded)
	b := f.today("nova").Document.Coach.Briefing
	for _, want := range []string{"You told me your goal: get stronger.", "I'm keeping your bad left knee in mind"} {
		if !strings.Contains(b, want) {
			t.Errorf("briefing %q does not say %q", b, want)
		}
	}
	if e, ok := f.memory("nova")["injury:left-knee"]; !ok || e.ExpiresAt != nil || !strings.HasPrefix(e.Value, "bad left knee") {
		t.Fatalf("injury memory %+v", e)
	}
	// The next day the goal is old news; the knee is still in mind.
	f.clk.Advance(24 * time.Hour)
	f.run("nova")
	b = f.today("nova").Document.Coach.Briefing
	if strings.Contains(b, "You told me your goal") || !strings.Contains(b, "bad left knee") {
		t.Errorf("third day briefing %q", b)
	}
	// Saying it is better (here in a voice memo) lets it go.
	f.clk.Advance(8 * time.Hour)
	memo, err := f.dash.AddVoiceMemo(f.ctx, dashboard.VoiceMemo{MemberID: "nova", Path: "x.webm", MIME: "audio/webm"})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.dash.SetTranscript(f.ctx, memo.ID, "Quick update: my left knee is much better now.", false); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(16 * time.Hour)
	f.run("nova")
	if b = f.today("nova").Document.Coach.Briefing; strings.Contains(b, "knee") {
		t.Errorf("briefing still mentions the knee: %q", b)
	}
	if _, ok := f.memory("nova")["injury:left-knee"]; ok {
		t.Error("the healed knee is still in memory")
	}
}

// The daily check-in is asked when nothing else asks for a tap, a new
// question each day, and its answer makes the next plan an easy one.
func TestDailyCheckInFeedsTakeItEasy(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	f.run("maya")
	var checkin dashboard.Prompt
	for _, p := range f.today("maya").Document.Coach.Prompts {
		if dailyKind(p.ID) != "" {
			checkin = p
		}
	}
	if checkin.ID == "" || checkin.Type != dashboard.PromptMultipleChoice {
		t.Fatalf("no daily check-in: %v", promptIDs(f.today("maya").Document))
	}
	var easy string
	for _, c := range checkIns {
		if strings.HasPrefix(checkin.ID, dailyPrefix+c.kind+"-") {
			easy = c.easy[0]
		}
	}
	f.answer("maya", checkin.ID, easy, "tap")
	f.clk.Advance(2 * time.Hour)
	mustStatus(t, f.run("maya"), agent.StatusSucceeded) // "Prepare my day" again
	if _, ok := f.memory("maya")[keyRecovering]; !ok {
		t.Fatal("the check-in answer did not make today easy")
	}
	d := f.today("maya").Document
	if !strings.Contains(d.Coach.Briefing, "easy") {
		t.Errorf("briefing %q after %q", d.Coach.Briefing, easy)
	}
	f.clk.Advance(22 * time.Hour)
	f.run("maya")
	var next string
	for _, id := range promptIDs(f.today("maya").Document) {
		if dailyKind(id) != "" {
			next = id
		}
	}
	if next == "" || next == checkin.ID {
		t.Errorf("next day's check-in %q (yesterday's %q)", next, checkin.ID)
	}
}
