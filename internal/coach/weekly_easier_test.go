package coach

import (
	"encoding/json"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/workflow"
)

// "Easier" in the weekly review never repeats a finished session: Maya
// does today's session in the morning, answers "Easier" later (today, a
// Wednesday, leaves her mon,tue,wed week), and the next day's plan moves
// past the session she did. On main the pattern change stamped the
// program state and the finished session, older than the stamp, no
// longer counted: the next run offered the same day again (Day 11 again,
// as seen). Checked by reading completions after any change of the state
// again (updated_at): the day stays at the finished one.
func TestEasierWeekNeverRepeatsAFinishedSession(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "maya", Name: "Maya"})
	f.onProgram("maya", "ember-core-30", 14, "mon,tue,wed", 0)
	// Today (Wednesday) is due; a day the program rests on would not be.
	if _, err := f.progs.SetDay(f.ctx, "maya", 11); err != nil {
		t.Fatal(err)
	}
	st, err := f.progs.Current(f.ctx, "maya")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := f.cat.Program(f.ctx, st.ProgramID)
	if err != nil {
		t.Fatal(err)
	}
	done := st.CurrentDay
	f.clk.Advance(5 * time.Hour) // 09:00: the session
	if _, err := f.db.AddWorkout(f.ctx, health.Workout{MemberID: "maya", StartedAt: f.clk.Now().Add(-30 * time.Minute),
		Type: "core", Title: "Day's session", DurationMin: 30, ContentID: prog.Days[done-1].ContentID}); err != nil {
		t.Fatal(err)
	}

	f.clk.Advance(2 * time.Hour) // 11:00: the weekly review, "Easier"
	rt := f.workflows(t)
	r := runWorkflow(t, rt, WeeklyReviewID, "maya")
	if r.Status != workflow.StatusSuspended {
		t.Fatalf("weekly review %s: %s", r.Status, r.Error)
	}
	if _, err := rt.Resume(f.ctx, r.ID, "ask", json.RawMessage(`{"choice":"easier"}`)); err != nil {
		t.Fatal(err)
	}
	if r, err = rt.Wait(f.ctx, r.ID); err != nil || r.Status != workflow.StatusSuccess {
		t.Fatalf("after the answer: %s %v", r.Status, err)
	}
	if st, err := f.progs.Current(f.ctx, "maya"); err != nil || st.Pattern != "mon,tue" || st.CurrentDay != done {
		t.Fatalf("after Easier: pattern %q day %d (%v), want mon,tue still at day %d", st.Pattern, st.CurrentDay, err, done)
	}

	f.clk.Advance(17 * time.Hour) // Thursday 04:00: the next day's plan
	mustStatus(t, f.run("maya"), "succeeded")
	st, err = f.progs.Current(f.ctx, "maya")
	if err != nil || st.CurrentDay <= done {
		t.Fatalf("next day: program at day %d (%v), want past the finished day %d", st.CurrentDay, err, done)
	}
	if p := f.today("maya").Document.Curated.UpNext.Primary; p != nil && p.ContentID == prog.Days[done-1].ContentID {
		t.Fatalf("next day's up next is the finished session %s again", p.ContentID)
	}
}
