package schedule

import (
	"context"
	"strings"
	"testing"
	"time"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestClockChangeSlots: the slots of daily crons across the 2026 clock
// changes of New York (8 Mar forward, 1 Nov back) and Berlin (29 Mar
// forward, 25 Oct back). A missing time fires once at the first valid
// instant after it, a repeated time once at its first occurrence, and the
// slot's note says so; other times and days are untouched.
func TestClockChangeSlots(t *testing.T) {
	ny, berlinLoc := zone(t, "America/New_York"), zone(t, "Europe/Berlin")
	for _, tc := range []struct {
		name  string
		loc   *time.Location
		cron  string
		from  string
		want  []string // slots as "2006-01-02 15:04 MST"
		notes []string // substring of each slot's note ("" = none)
	}{
		{"New York forward: 02:30 does not exist", ny, "30 2 * * *", "2026-03-07 12:00",
			[]string{"2026-03-08 03:00 EDT", "2026-03-09 02:30 EDT"}, []string{"02:30 did not exist", ""}},
		{"New York forward: every quarter of the missing hour fires once", ny, "*/15 2 * * *", "2026-03-07 12:00",
			[]string{"2026-03-08 03:00 EDT", "2026-03-09 02:00 EDT", "2026-03-09 02:15 EDT"}, []string{"02:00 did not exist", "", ""}},
		{"New York back: 01:30 occurs twice", ny, "30 1 * * *", "2026-10-31 12:00",
			[]string{"2026-11-01 01:30 EDT", "2026-11-02 01:30 EST"}, []string{"occurred twice", ""}},
		{"New York: 04:00 is untouched", ny, "0 4 * * *", "2026-03-07 12:00",
			[]string{"2026-03-08 04:00 EDT", "2026-03-09 04:00 EDT"}, []string{"", ""}},
		{"Berlin forward: 02:30 does not exist", berlinLoc, "30 2 * * *", "2026-03-28 12:00",
			[]string{"2026-03-29 03:00 CEST", "2026-03-30 02:30 CEST"}, []string{"02:30 did not exist", ""}},
		{"Berlin back: 02:30 occurs twice", berlinLoc, "30 2 * * *", "2026-10-24 12:00",
			[]string{"2026-10-25 02:30 CEST", "2026-10-26 02:30 CET"}, []string{"occurred twice", ""}},
		{"Berlin back: hourly runs through both hours", berlinLoc, "0 * * * *", "2026-10-25 01:30",
			[]string{"2026-10-25 02:00 CEST", "2026-10-25 03:00 CET"}, []string{"occurred twice", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := ParseSchedule(KindRecurring, tc.cron, tc.loc)
			if err != nil {
				t.Fatal(err)
			}
			from, err := time.ParseInLocation("2006-01-02 15:04", tc.from, tc.loc)
			if err != nil {
				t.Fatal(err)
			}
			slot := from
			for i, want := range tc.want {
				slot = spec.Next(slot)
				if got := slot.In(tc.loc).Format("2006-01-02 15:04 MST"); got != want {
					t.Fatalf("slot %d = %s, want %s", i, got, want)
				}
				note := spec.clockNote(slot)
				if (tc.notes[i] == "") != (note == "") || !strings.Contains(note, tc.notes[i]) {
					t.Errorf("slot %s: note %q, want %q", want, note, tc.notes[i])
				}
			}
		})
	}
}

// TestClockChangeFiresOnce drives the engine with a fake clock through each
// clock change of New York and Berlin: the task runs exactly once that day
// and the ledger row notes the shift.
func TestClockChangeFiresOnce(t *testing.T) {
	for _, tc := range []struct {
		zone, cron, start, end, slot, note string
	}{
		{"America/New_York", "30 2 * * *", "2026-03-07T12:00:00-05:00", "2026-03-08T12:00:00-04:00", "2026-03-08T03:00:00-04:00", "did not exist"},
		{"America/New_York", "30 1 * * *", "2026-10-31T12:00:00-04:00", "2026-11-01T12:00:00-05:00", "2026-11-01T01:30:00-04:00", "occurred twice"},
		{"Europe/Berlin", "30 2 * * *", "2026-03-28T12:00:00+01:00", "2026-03-29T12:00:00+02:00", "2026-03-29T03:00:00+02:00", "did not exist"},
		{"Europe/Berlin", "30 2 * * *", "2026-10-24T12:00:00+02:00", "2026-10-25T12:00:00+01:00", "2026-10-25T02:30:00+02:00", "occurred twice"},
	} {
		t.Run(tc.zone+" "+tc.cron+" "+tc.start[:10], func(t *testing.T) {
			loc := zone(t, tc.zone)
			start, _ := time.Parse(time.RFC3339, tc.start)
			end, _ := time.Parse(time.RFC3339, tc.end)
			slot, _ := time.Parse(time.RFC3339, tc.slot)
			h := newHarness(t, func(o *Options) { o.Location = loc })
			h.stop(h.svc)
			h.boot(start)
			h.start()
			task := h.create(TaskInput{Kind: KindRecurring, Schedule: tc.cron, AssignmentID: "daily-dashboard", MemberID: "ada"})
			h.waitArmed(task.ID, slot)
			// Walk the clock through the night in 10-minute steps, as time passes.
			for at := start; at.Before(end); at = at.Add(10 * time.Minute) {
				h.advanceTo(at)
			}
			h.advanceTo(end)
			h.waitCall()
			h.noCall()
			h.waitIdle(task.ID)
			fires, err := h.svc.Ledger(context.Background(), task.ID, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(fires) != 1 || !fires[0].ScheduledFor.Equal(slot) || fires[0].Outcome != OutcomeRan {
				t.Fatalf("ledger = %+v, want one run at %s", fires, slot)
			}
			if !strings.Contains(fires[0].Note, tc.note) || !strings.Contains(fires[0].Note, "clock change") {
				t.Fatalf("ledger note = %q, want it to note the shift (%q)", fires[0].Note, tc.note)
			}
			if got := h.runner.count(); got != 1 {
				t.Fatalf("%d runs on the day of the clock change, want 1", got)
			}
		})
	}
}
