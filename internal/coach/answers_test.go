package coach

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/program"
)

// sameAsService checks that what the document was planned on (the run's
// view of the program after its updates) is what program.Service reports
// once act has committed them.
func sameAsService(t *testing.T, f *fixture, member string, r agent.Run) program.Today {
	t.Helper()
	td, err := f.progs.Today(f.ctx, member, f.clk.Now(), time.UTC)
	if err != nil {
		t.Fatalf("program today: %v", err)
	}
	v := f.tool(member, "get_program_state", nil).(ProgramView)
	if v.Day != td.Day || v.Today != string(td.Status) || v.Behind != td.Behind || v.Ahead != td.Ahead || v.ExpectedDay != td.ExpectedDay {
		t.Fatalf("tool view %+v disagrees with the service %+v", v, td)
	}
	if !strings.Contains(string(r.Prompt.User), v.Text) {
		t.Errorf("the run planned on a different program state than the one stored:\nstored %q\nprompt %s", v.Text, r.Prompt.User)
	}
	return td
}

// TestAnswerStartingProgramOnMondayDeclaresIt: "Starting Ember Core 30 on
// Monday", typed as an answer, declares the program on the next run.
func TestAnswerStartingProgramOnMondayDeclaresIt(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "nova", Name: "Nova"})
	f.run("nova") // Wednesday 18 Feb: onboarding prompts
	f.clk.Advance(10 * time.Hour)
	f.answer("nova", promptOnboarding, "Starting Ember Core 30 on Monday, my knee is fine now", "text")
	f.clk.Advance(14 * time.Hour) // Thursday 19 Feb, 04:00
	r := f.run("nova")
	mustStatus(t, r, agent.StatusSucceeded)

	st, err := f.progs.Current(f.ctx, "nova")
	if err != nil {
		t.Fatalf("no program after the answer: %v", err)
	}
	if st.ProgramID != "ember-core-30" || st.StartDate != "2026-02-23" || st.Status != program.Active || st.Pattern != "daily" {
		t.Fatalf("program %+v, want ember-core-30 active from Monday 2026-02-23", st)
	}
	td := sameAsService(t, f, "nova", r)
	if td.Status != program.DayNotStarted || td.StartsInDays != 4 {
		t.Errorf("today %+v, want not started, in 4 days", td)
	}
	d := f.today("nova").Document
	var preview bool
	for _, a := range d.Curated.UpNext.Alternates {
		preview = preview || (a.ContentID == "local:ember-core-01" && a.Reason == ReasonPreview)
	}
	if !preview || !strings.Contains(d.Coach.Briefing, "Ember Core 30 starts Mon 23 Feb") {
		t.Errorf("document does not preview the coming program: %+v / %q", d.Curated.UpNext, d.Coach.Briefing)
	}
	if slices.Contains(promptIDs(d), promptOnboarding) {
		t.Error("the answered onboarding prompt was asked again")
	}
	if v := f.memory("nova")[keyMemberNote]; !strings.Contains(v.Value, "knee") || v.ExpiresAt != nil {
		t.Errorf("member note %+v, want the answer kept for good", v)
	}
	notes, _ := Notes(f.ctx, f.db, "nova", 10)
	if !slices.ContainsFunc(notes, func(n Note) bool { return strings.Contains(n.Note, "declared Ember Core 30 from 2026-02-23") }) {
		t.Errorf("no note records the declaration: %+v", notes)
	}
}

// TestOnboardingProgramChoiceDeclaresAndShowsDayOne: tapping "Start
// Tideline Yoga 21" on the goal question starts it the next day, adds the
// goal, and that day's Up Next is day 1.
func TestOnboardingProgramChoiceDeclaresAndShowsDayOne(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "nova", Name: "Nova"})
	f.run("nova")
	f.answer("nova", promptGoal, "Start Tideline Yoga 21", "tap")
	f.clk.Advance(24 * time.Hour)
	r := f.run("nova")
	mustStatus(t, r, agent.StatusSucceeded)

	td := sameAsService(t, f, "nova", r)
	if td.ProgramID != "tideline-yoga-21" || td.Status != program.DayTraining || td.Day != 1 {
		t.Fatalf("today %+v, want Tideline day 1 due", td)
	}
	d := f.today("nova").Document
	if p := d.Curated.UpNext.Primary; p.ContentID != "local:tideline-01" || p.Reason != ReasonProgramDay {
		t.Errorf("up next %+v, want day 1 of the chosen program", p)
	}
	goals, _ := f.db.Goals(f.ctx, "nova", true)
	if len(goals) != 1 || goals[0].Description != "Finish Tideline Yoga 21" {
		t.Errorf("goals %+v", goals)
	}
	if slices.Contains(promptIDs(d), promptGoal) {
		t.Error("goal asked again after it was answered")
	}
}

// TestFinishedSessionAdvancesProgram: a done tap on today's program
// session moves the program on at the next run.
func TestFinishedSessionAdvancesProgram(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	f.run("maya")
	f.clk.Advance(14 * time.Hour)
	if err := f.dash.MarkConsumed(f.ctx, "maya", "local:ember-core-04", "done_tap"); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(10 * time.Hour)
	r := f.run("maya")
	td := sameAsService(t, f, "maya", r)
	if td.Day != 5 || td.Item == nil || td.Item.ID != "local:ember-core-05" {
		t.Fatalf("today %+v, want day 5 after finishing day 4", td)
	}
	d := f.today("maya").Document
	if d.Curated.UpNext.Primary.ContentID != "local:ember-core-05" {
		t.Errorf("up next %s, want day 5", d.Curated.UpNext.Primary.ContentID)
	}
	if !slices.ContainsFunc(d.Coach.Feedback, func(s string) bool { return strings.Contains(s, "moves on to day 5") }) {
		t.Errorf("feedback %v does not mention the advance", d.Coach.Feedback)
	}
	f.clk.Advance(time.Hour)
	f.run("maya") // the same completion does not advance twice
	if st, _ := f.progs.Current(f.ctx, "maya"); st.CurrentDay != 5 {
		t.Errorf("day %d after a re-run, want 5", st.CurrentDay)
	}
}

// TestBehindScheduleAnswers: far behind, the member is asked how to go on;
// skipping ahead re-anchors the schedule, pausing pauses.
func TestBehindScheduleAnswers(t *testing.T) {
	for _, c := range []struct {
		answer string
		check  func(t *testing.T, td program.Today)
	}{
		{"Skip ahead to Day 10", func(t *testing.T, td program.Today) {
			if td.Status != program.DayTraining || td.Behind != 0 || td.Day != 10 {
				t.Errorf("after skipping: %+v", td)
			}
		}},
		{optPause, func(t *testing.T, td program.Today) {
			if td.Status != program.DayPaused {
				t.Errorf("after pausing: %+v", td)
			}
		}},
		{optKeepPace, func(t *testing.T, td program.Today) {
			// Their own pace: today is the next undone day, nothing behind.
			if td.Status != program.DayTraining || td.Day != 1 || td.Pace != program.PaceOwn || td.Behind != 0 {
				t.Errorf("after keeping the pace: %+v", td)
			}
		}},
	} {
		t.Run(c.answer, func(t *testing.T) {
			f := newFixture(t, fixtureOpts{})
			f.member(health.Member{ID: "theo", Name: "Theo"})
			f.goal("theo", "Finish Ember Core 30")
			f.onProgram("theo", "ember-core-30", 9, "daily", 0)
			f.run("theo")
			q := promptByID(t, f.today("theo").Document, promptBehind)
			if !slices.Contains(q.Options, c.answer) {
				t.Fatalf("behind options %v lack %q", q.Options, c.answer)
			}
			f.answer("theo", promptBehind, c.answer, "tap")
			f.clk.Advance(24 * time.Hour)
			r := f.run("theo")
			mustStatus(t, r, agent.StatusSucceeded)
			c.check(t, sameAsService(t, f, "theo", r))
			checkCatalog(t, f, f.today("theo").Document)
			if slices.Contains(promptIDs(f.today("theo").Document), promptBehind) {
				t.Error("asked how to continue again")
			}
		})
	}
}

// TestVoiceMemoWithoutPromptDeclaresProgram: a free voice memo saying
// "I'm starting Ironwood Strength tomorrow on weekdays" is acted on once.
func TestVoiceMemoWithoutPromptDeclaresProgram(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "theo", Name: "Theo"})
	f.goal("theo", "Get stronger")
	f.run("theo")
	f.clk.Advance(12 * time.Hour)
	m, err := f.dash.AddVoiceMemo(f.ctx, dashboard.VoiceMemo{MemberID: "theo", Path: "voice/theo/x.webm", MIME: "audio/webm", Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.dash.SetTranscript(f.ctx, m.ID, "I'm starting Ironwood Strength tomorrow, weekdays only.", false); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(12 * time.Hour) // Thursday 19 Feb
	f.run("theo")
	st, err := f.progs.Current(f.ctx, "theo")
	if err != nil || st.ProgramID != "ironwood-strength-6" || st.StartDate != "2026-02-19" || st.Pattern != "mon,tue,wed,thu,fri" {
		t.Fatalf("program %+v (%v), want Ironwood from the day after the memo on weekdays", st, err)
	}
	f.clk.Advance(time.Hour)
	if _, err := f.progs.Pause(f.ctx, "theo", "admin"); err != nil {
		t.Fatal(err)
	}
	f.run("theo") // the memo is older than the last document: not acted on again
	if st, _ := f.progs.Current(f.ctx, "theo"); st.Status != program.Paused {
		t.Errorf("the memo was applied twice: %+v", st)
	}
}

// TestTypedGoalAnswerAddsGoal: a goal typed instead of tapped becomes the
// member's goal.
func TestTypedGoalAnswerAddsGoal(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "nova", Name: "Nova"})
	f.run("nova")
	f.answer("nova", promptGoal, "Run a 5k with my daughter in May", "text")
	f.clk.Advance(24 * time.Hour)
	f.run("nova")
	goals, _ := f.db.Goals(f.ctx, "nova", true)
	if len(goals) != 1 || goals[0].Description != "Run a 5k with my daughter in May" {
		t.Fatalf("goals %+v", goals)
	}
	if _, err := f.progs.Current(f.ctx, "nova"); err == nil {
		t.Error("a goal answer declared a program")
	}
}
