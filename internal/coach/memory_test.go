package coach

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
)

// expiresIn checks that a memory entry exists and expires ttl after now.
func expiresIn(t *testing.T, mem map[string]agent.MemoryEntry, key string, now time.Time, ttl time.Duration) {
	t.Helper()
	e, ok := mem[key]
	switch {
	case !ok:
		t.Errorf("memory has no %s (keys %v)", key, keys(mem))
	case ttl == 0 && e.ExpiresAt != nil:
		t.Errorf("memory %s expires at %v, want persistent", key, e.ExpiresAt)
	case ttl > 0 && (e.ExpiresAt == nil || !e.ExpiresAt.Equal(now.Add(ttl))):
		t.Errorf("memory %s expires at %v, want %v", key, e.ExpiresAt, now.Add(ttl))
	}
}

func keys(m map[string]agent.MemoryEntry) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestMemoryAnsweredPromptNotAskedAgain is acceptance 3: after two runs
// the follow-up is tracked with a TTL, then closed by the answer, which
// becomes interpretations in memory; the prompt is not asked again.
func TestMemoryAnsweredPromptNotAskedAgain(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	for _, h := range households {
		if h.id == "rhea" {
			h.seed(f, h.id)
		}
	}
	day1 := f.clk.Now()
	f.run("rhea")
	promptByID(t, f.today("rhea").Document, promptCheckIn)
	mem := f.memory("rhea")
	expiresIn(t, mem, keyFollowUp+promptCheckIn, day1, followUpTTL)
	expiresIn(t, mem, keyObsRest, day1, flagTTL)
	expiresIn(t, mem, keyLastPick, day1, lastPickTTL)

	f.clk.Advance(9 * time.Hour)
	f.answer("rhea", promptCheckIn, optSore, "tap")
	f.clk.Advance(15 * time.Hour)
	day2 := f.clk.Now()
	r := f.run("rhea")
	mustStatus(t, r, agent.StatusSucceeded)

	d := f.today("rhea").Document
	if slices.Contains(promptIDs(d), promptCheckIn) {
		t.Fatalf("the answered check-in was asked again: %v", promptIDs(d))
	}
	mem = f.memory("rhea")
	if _, ok := mem[keyFollowUp+promptCheckIn]; ok {
		t.Error("the answered follow-up is still pending")
	}
	expiresIn(t, mem, keyAnswered+promptCheckIn, day2, answeredTTLs[promptCheckIn])
	expiresIn(t, mem, keyEnergy, day2, 7*24*time.Hour)
	expiresIn(t, mem, keyRecovering, day2, 48*time.Hour)
	var rec answeredRecord
	if err := json.Unmarshal([]byte(mem[keyAnswered+promptCheckIn].Value), &rec); err != nil || rec.Answer != optSore {
		t.Errorf("answered record %q (%v)", mem[keyAnswered+promptCheckIn].Value, err)
	}
	if un, _ := f.dash.UnprocessedAnswers(f.ctx, "rhea"); len(un) != 0 {
		t.Errorf("%d answers left unprocessed", len(un))
	}
	// Thursday is a training day, but she said she is sore: light first,
	// the program session as the alternate.
	p := d.Curated.UpNext.Primary
	if p.Reason != ReasonLight || !isLight(kindOf(t, f, p.ContentID)) {
		t.Errorf("up next %+v, want a light option after 'Sore'", p)
	}
	if d.Curated.UpNext.Alternates[0].Reason != ReasonProgramDay {
		t.Errorf("alternates %+v, want the program day offered", d.Curated.UpNext.Alternates)
	}
	notes, err := Notes(f.ctx, f.db, "rhea", 10)
	if err != nil || len(notes) == 0 || notes[0].RunID != r.ID {
		t.Fatalf("notes %+v (%v), want the answer logged by run %d", notes, err, r.ID)
	}

	// A third run: the answer still closes the prompt.
	f.clk.Advance(24 * time.Hour)
	f.run("rhea")
	if slices.Contains(promptIDs(f.today("rhea").Document), promptCheckIn) {
		t.Fatal("the check-in came back the day after it was answered")
	}
}

// TestMemoryIgnoredPromptReaskedOnceThenDropped: a prompt nobody answers
// is asked, asked once more, then dropped (and stays dropped).
func TestMemoryIgnoredPromptReaskedOnceThenDropped(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "nova", Name: "Nova"})
	times := func() int {
		var r followUpRecord
		_ = json.Unmarshal([]byte(f.memory("nova")[keyFollowUp+promptGoal].Value), &r)
		return r.Times
	}

	f.run("nova")
	if !slices.Contains(promptIDs(f.today("nova").Document), promptGoal) || times() != 1 {
		t.Fatalf("day 1: prompts %v, times %d", promptIDs(f.today("nova").Document), times())
	}
	f.run("nova") // a second run the same day is not a second ask
	if times() != 1 {
		t.Fatalf("re-run on day 1 counted as an ask: times %d", times())
	}

	f.clk.Advance(24 * time.Hour)
	f.run("nova")
	if !slices.Contains(promptIDs(f.today("nova").Document), promptGoal) || times() != 2 {
		t.Fatalf("day 2: prompts %v, times %d; want the goal asked once more", promptIDs(f.today("nova").Document), times())
	}

	f.clk.Advance(24 * time.Hour)
	day3 := f.clk.Now()
	f.run("nova")
	d := f.today("nova").Document
	if slices.Contains(promptIDs(d), promptGoal) || slices.Contains(promptIDs(d), promptOnboarding) {
		t.Fatalf("day 3: ignored prompts asked a third time: %v", promptIDs(d))
	}
	mem := f.memory("nova")
	expiresIn(t, mem, keyDropped+promptGoal, day3, droppedTTL)
	if _, ok := mem[keyFollowUp+promptGoal]; ok {
		t.Error("the dropped prompt is still pending")
	}

	f.clk.Advance(24 * time.Hour)
	f.run("nova")
	if slices.Contains(promptIDs(f.today("nova").Document), promptGoal) {
		t.Fatal("day 4: the dropped prompt came back")
	}
}

func TestComputeFollowUps(t *testing.T) {
	entry := func(k, v string) agent.MemoryEntry { return agent.MemoryEntry{Key: k, Value: v} }
	rec := func(q, on string, n int) string {
		b, _ := json.Marshal(followUpRecord{Question: q, AskedOn: on, Times: n})
		return string(b)
	}
	es := []agent.MemoryEntry{
		entry(keyAnswered+"a", `{"question":"How are you?","answer":"Fine"}`),
		entry(keyDropped+"b", "Sleep well?"),
		entry(keyFollowUp+"c", rec("Q c", "2026-02-17", 1)), // ignored once
		entry(keyFollowUp+"d", rec("Q d", "2026-02-17", 2)), // ignored twice
		entry(keyFollowUp+"e", rec("Q e", "2026-02-18", 1)), // asked today
		entry(keyFollowUp+"f", rec("Q f", "2026-02-17", 1)), // answered yesterday
	}
	answers := []AnswerLine{{PromptID: "f", Day: "2026-02-17", Answer: "yes"}, {PromptID: "c", Day: "2026-02-10", Answer: "old"}}
	fu := computeFollowUps(es, answers, []AnswerLine{{PromptID: "g", Day: "2026-02-17", Question: "Model's own?", Answer: "ok"}}, "2026-02-18")

	for _, c := range []struct {
		id, q  string
		closed bool
	}{
		{"a", "", true}, {"x", "how are you", true}, {"b", "", true}, {"d", "", true}, {"f", "", true}, {"g", "", true},
		{"c", "", false}, {"e", "", false}, {"new", "Something else?", false},
	} {
		if _, _, got := fu.closed(c.id, c.q); got != c.closed {
			t.Errorf("closed(%q, %q) = %v, want %v", c.id, c.q, got, c.closed)
		}
	}
	if len(fu.Reask) != 1 || fu.Reask[0].ID != "c" {
		t.Error("c (ignored once, an answer from before it was asked) should be re-askable")
	}
	if len(fu.Open) != 1 || fu.Open[0].ID != "e" {
		t.Errorf("open = %+v, want e", fu.Open)
	}
	var newly []string
	for _, c := range fu.NewlyAnswered {
		newly = append(newly, c.ID)
	}
	if !slices.Equal(newly, []string{"f", "g"}) || len(fu.NewlyDropped) != 1 || fu.NewlyDropped[0].ID != "d" {
		t.Errorf("newly answered %v, newly dropped %+v", newly, fu.NewlyDropped)
	}
}
