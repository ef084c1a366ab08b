package coach

import (
	"testing"
	"time"

	"hearth/internal/content"
)

func TestInterpretAnswers(t *testing.T) {
	in := interpreter{
		programs: []ProgramBrief{{ID: "ember-core-30", Title: "Ember Core 30"}, {ID: "ironwood-strength-6", Title: "Ironwood Strength: 6 Weeks"}},
		current:  ProgramView{HasProgram: true, ProgramID: "ember-core-30", Title: "Ember Core 30", Status: "active", Day: 3},
		today:    time.Date(2026, 2, 19, 0, 0, 0, 0, time.UTC), // Thursday
		loc:      time.UTC,
	}
	said := time.Date(2026, 2, 18, 20, 0, 0, 0, time.UTC) // Wednesday evening
	for _, c := range []struct {
		prompt, answer, kind string
		want                 []string // kind[:detail]
	}{
		{promptGoal, "Start Ironwood Strength: 6 Weeks", "tap", []string{"declare_program:ironwood-strength-6@2026-02-19", "add_goal"}},
		{promptGoal, optLoseWeight, "tap", []string{"add_goal"}},
		{promptNext, optBreak, "tap", []string{"remember:" + keyBreak}},
		{"model-q", "Start Ironwood Strength: 6 Weeks", "tap", []string{"declare_program:ironwood-strength-6@2026-02-19"}},
		{"model-q", "Kicking off ironwood strength next monday", "text", []string{"declare_program:ironwood-strength-6@2026-02-23"}},
		{"model-q", "starting Ember Core 30 on 2026-03-02", "voice", []string{"declare_program:ember-core-30@2026-03-02"}},
		{"model-q", "starting it tomorrow", "text", []string{"remember:answer:model-q"}}, // no program named
		{"model-q", "Please pause my program, travelling", "text", []string{"pause_program"}},
		{promptBehind, "Skip ahead to Day 9", "tap", []string{"set_program_day"}},
		{promptCheckIn, optUnwell, "tap", []string{"remember:" + keyEnergy, "remember:" + keyUnwell}},
		{promptOnboarding, "Bad knee; I like mornings", "voice", []string{"remember:" + keyMemberNote, "remember:injury:knee"}},
		{"checkin-sleep-20260218", "Badly", "tap", []string{"remember:checkin:sleep", "remember:" + keyRecovering}},
		{"checkin-soreness-20260218", "None", "tap", []string{"remember:checkin:soreness"}},
	} {
		us := in.answer(AnswerLine{PromptID: c.prompt, Answer: c.answer, Kind: c.kind, Day: "2026-02-18", AnsweredAt: said})
		var got []string
		for _, u := range us {
			s := u.Kind
			switch u.Kind {
			case UpdateDeclare:
				s += ":" + u.ProgramID + "@" + u.StartDate
			case UpdateMemory:
				s += ":" + u.Key
			}
			got = append(got, s)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s %q: %v, want %v", c.prompt, c.answer, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s %q: %v, want %v", c.prompt, c.answer, got, c.want)
				break
			}
		}
	}
}

func TestPlanDayMatchesProgramSchedule(t *testing.T) {
	days := []content.Day{{Day: 1, ContentID: "a"}, {Day: 2, ContentID: "b"}, {Day: 3, Rest: true}, {Day: 4, ContentID: "c"}}
	pat := [7]bool{false, true, false, true, false, true, false} // mon, wed, fri
	anchor := time.Date(2026, 2, 16, 0, 0, 0, 0, time.UTC)       // Monday
	for _, c := range []struct {
		date    time.Time
		current int
		want    dayPlan
	}{
		{time.Date(2026, 2, 14, 0, 0, 0, 0, time.UTC), 1, dayPlan{status: "not_started", startsIn: 2}},
		{time.Date(2026, 2, 16, 0, 0, 0, 0, time.UTC), 1, dayPlan{status: "training", expected: 1}},
		{time.Date(2026, 2, 17, 0, 0, 0, 0, time.UTC), 2, dayPlan{status: "rest", restReason: "schedule", expected: 2}},
		{time.Date(2026, 2, 20, 0, 0, 0, 0, time.UTC), 1, dayPlan{status: "rest", restReason: "program", expected: 3, behind: 2}},
		{time.Date(2026, 2, 16, 0, 0, 0, 0, time.UTC), 3, dayPlan{status: "training", expected: 1, ahead: 1}},
	} {
		if got := planDay(days, pat, anchor, 1, c.current, c.date); got != c.want {
			t.Errorf("%s at day %d: %+v, want %+v", c.date.Format("Mon 2 Jan"), c.current, got, c.want)
		}
	}
}
