package coach

import (
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
)

// TestSessionDoneBeforeASkipCounts: a member does Day 5's session at
// 07:00 and skips to Day 5 on the kiosk's program controls at 08:00; the
// plan made at 10:00 counts the session (Day 6 is next, today's is done),
// whereas a session done yesterday, before a skip made yesterday, is not
// counted again today.
func TestSessionDoneBeforeASkipCounts(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "gus", Name: "Gus"})
	f.onProgram("gus", "ember-core-30", 1, "daily", 0)
	f.clk.Advance(3 * time.Hour) // 07:00
	if _, err := f.db.AddWorkout(f.ctx, health.Workout{MemberID: "gus", StartedAt: f.clk.Now(), Type: "core", DurationMin: 20,
		ContentID: "local:ember-core-05"}); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(time.Hour) // 08:00: the tap
	if _, err := f.progs.SetDay(f.ctx, "gus", 5); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(2 * time.Hour)
	mustStatus(t, f.run("gus"), agent.StatusSucceeded)
	st, err := f.progs.Current(f.ctx, "gus")
	if err != nil {
		t.Fatal(err)
	}
	if st.CurrentDay != 6 {
		t.Fatalf("day %d after a session done before the skip, want 6", st.CurrentDay)
	}
	if p := f.today("gus").Document.Curated.UpNext.Primary; p == nil || p.ContentID == "local:ember-core-05" {
		t.Fatalf("Up Next %+v: the session done this morning offered again", p)
	}

	// The next day, a skip back to Day 5: yesterday's Day 5 session is
	// not today's, and only today's count from before a skip.
	f.clk.Advance(24 * time.Hour)
	if _, err := f.progs.SetDay(f.ctx, "gus", 5); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(time.Hour)
	mustStatus(t, f.run("gus"), agent.StatusSucceeded)
	if st, _ = f.progs.Current(f.ctx, "gus"); st.CurrentDay != 5 {
		t.Fatalf("day %d: yesterday's session counted for a skip made today, want 5", st.CurrentDay)
	}
}
