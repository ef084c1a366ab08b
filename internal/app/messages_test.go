package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"hearth/internal/coach"
	"hearth/internal/messages"
	"hearth/internal/schedule"
	"hearth/internal/testkit"
)

// waitMessages waits until the member has at least want open messages
// and returns them.
func waitMessages(t *testing.T, a *App, member string, want int) []messages.Message {
	t.Helper()
	var ms []messages.Message
	testkit.WaitFor(t, testkit.Patience, fmt.Sprintf("%d open messages for %s", want, member), func() bool {
		var err error
		if ms, err = a.Messages.List(context.Background(), messages.Filter{Member: member, Open: true}); err != nil {
			t.Fatal(err)
		}
		return len(ms) >= want
	})
	return ms
}

// What scheduled actions and heartbeat to-dos ask the coach to tell a
// member reaches that member, sent by the run itself (send_message): with
// the built-in coach, "Add a short hydration reminder" becomes a hydration
// note (not a numbers summary), a to-do "Remind Theo to log his dinner" a
// meal reminder with his day's facts; a task that is not a message for
// the member ("Review…") sends nothing.
func TestScheduledOutputReachesTheMember(t *testing.T) {
	ctx := context.Background()
	a := startedApp(t)
	before := len(waitMessages(t, a, "maya", 0)) // the demo's first reminder

	// task runs a new scheduled action now and waits until it finished.
	task := func(member, prompt string) {
		t.Helper()
		tk, err := a.Schedule.Create(ctx, schedule.TaskInput{Description: prompt, Kind: schedule.KindRecurring, Schedule: "0 9 * * *",
			AgentID: coach.AgentID, MemberID: member, Prompt: prompt}, schedule.ByUser)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Schedule.RunNow(ctx, tk.ID); err != nil {
			t.Fatal(err)
		}
		testkit.WaitFor(t, testkit.Patience, fmt.Sprintf("task %q to run", prompt), func() bool {
			fs, err := a.Schedule.Ledger(ctx, tk.ID, 1)
			return err == nil && len(fs) == 1 && fs[0].Outcome == schedule.OutcomeRan
		})
	}
	task("maya", "Add a short hydration reminder")
	ms := waitMessages(t, a, "maya", before+1)
	if len(ms) != before+1 || !strings.HasPrefix(ms[0].Text, "Hydration reminder:") || strings.Contains(ms[0].Text, "Weight:") ||
		ms[0].Source != schedule.TriggerSchedule || ms[0].RunID == 0 {
		t.Fatalf("maya's messages %+v", ms)
	}

	if _, err := a.Schedule.Todos().Add(ctx, schedule.TodoInput{AgentID: coach.AgentID, MemberID: "theo",
		Text: "Remind Theo to log his dinner"}); err != nil {
		t.Fatal(err)
	}
	hb, err := a.Schedule.List(ctx, schedule.TaskFilter{Kind: schedule.KindHeartbeat})
	if err != nil || len(hb) == 0 {
		t.Fatalf("heartbeat task: %v %v", hb, err)
	}
	if _, err := a.Schedule.RunNow(ctx, hb[0].ID); err != nil {
		t.Fatal(err)
	}
	tm := waitMessages(t, a, "theo", 1)
	if len(tm) != 1 || !strings.HasPrefix(tm[0].Text, "Meal reminder:") || !strings.Contains(tm[0].Text, "today") ||
		tm[0].Source != schedule.TriggerHeartbeat {
		t.Fatalf("theo's messages %+v", tm)
	}

	task("theo", "Review Theo's training week and note what stands out")
	if got := waitMessages(t, a, "theo", 0); len(got) != 1 {
		t.Fatalf("a review task messaged theo: %+v", got)
	}
}
