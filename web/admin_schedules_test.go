package web_test

import (
	"context"
	"encoding/json"
	"hearth/internal/testkit"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/schedule"
)

func taskForm(kv ...string) url.Values {
	v := url.Values{"description": {"Morning notes"}, "type": {"recurring"}, "schedule": {"30 7 * * *"}, "agent": {"tester"},
		"assignment": {"note"}, "member": {"ada"}, "prompt": {""}, "overlap_policy": {"queue"}, "catchup_policy": {"skip"}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

func TestScheduleCreateWithBadCronKeepsTypedValues(t *testing.T) {
	env := newAdminEnv(t)
	defaults, err := env.sched.List(t.Context(), schedule.TaskFilter{})
	if err != nil {
		t.Fatal(err)
	}
	resp, body := env.form("/admin/schedules", taskForm("schedule", "61 25 * * *", "description", "Notes <b>typed</b>"), false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad cron: %d", resp.StatusCode)
	}
	// The error sits next to the schedule field; every typed value is kept.
	mustContain(t, "re-rendered form", body, `class="field-error"`, "cron", `value="61 25 * * *"`,
		`value="Notes &lt;b&gt;typed&lt;/b&gt;"`, `<option value="queue" selected>`, `<option value="skip" selected>`,
		`<option value="ada" selected>`, `aria-invalid`)
	if tasks, _ := env.sched.List(t.Context(), schedule.TaskFilter{}); len(tasks) != len(defaults) {
		t.Fatalf("a bad cron created %d tasks", len(tasks)-len(defaults))
	}
	// Fixed: created (after the app's default tasks), and the task page
	// shows the next run in household time.
	id := itoa(int64(len(defaults) + 1))
	resp, _ = env.form("/admin/schedules", taskForm(), false)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/admin/schedules/"+id) {
		t.Fatalf("create: %d %q", resp.StatusCode, loc)
	}
	code, body := env.page("/admin/schedules/" + id + "?done=created")
	if code != 200 {
		t.Fatalf("task page: %d", code)
	}
	mustContain(t, "task page", body, "Task created.", "Tue 3 Mar 2026 07:30", "overlap", "Ledger", "Nothing has fired yet",
		"Next runs (household time)", "Wed 4 Mar 2026 07:30", "/admin/live/schedules/"+id)
	_, body = env.page("/admin/schedules")
	mustContain(t, "list", body, `id="task-`+id+`"`, "Morning notes", "tester / note for ada", "Tue 3 Mar 2026 07:30",
		"overlap queue", "catch-up skip", "Pause")
	mustNotContain(t, "list", body, "created by coach")
}

func TestSchedulePreview(t *testing.T) {
	env := newAdminEnv(t)
	get := func(q string) string {
		t.Helper()
		resp, body := datastarGetWith(t, env.client, env.srv.URL+"/admin/schedules/preview?"+q)
		if resp.StatusCode != 200 {
			t.Fatalf("preview %s: %d", q, resp.StatusCode)
		}
		return body
	}
	body := get("type=recurring&schedule=" + url.QueryEscape("0 4 * * *"))
	mustContain(t, "cron preview", body, `id="preview"`, "Tue 3 Mar 2026 04:00", "Sat 7 Mar 2026 04:00")
	if n := strings.Count(body, "<li>"); n != 5 {
		t.Fatalf("preview lists %d times, want 5", n)
	}
	body = get("type=interval&schedule=90")
	mustContain(t, "interval preview", body, "Mon 2 Mar 2026 10:30", "Mon 2 Mar 2026 12:00")
	body = get("type=recurring&schedule=" + url.QueryEscape("0 4 * *"))
	mustContain(t, "bad cron preview", body, "field-error", "cron")
	body = get("type=once&schedule=2020-01-01T00:00:00Z")
	mustContain(t, "past preview", body, "has passed")
}

func TestScheduleActionsAndLedger(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	task, err := env.sched.Create(ctx, schedule.TaskInput{Description: "Every minute", Kind: schedule.KindInterval, Schedule: "1",
		AgentID: "tester", AssignmentID: "note", MemberID: "ada"}, schedule.ByUser)
	if err != nil {
		t.Fatal(err)
	}
	id := itoa(task.ID)
	// A body that is not our form (no "back") is refused and changes nothing.
	if resp, _ := env.form("/admin/schedules/"+id+"/pause", url.Values{"note": {"x"}}, false); resp.StatusCode != 400 {
		t.Fatalf("pause without the form: %d", resp.StatusCode)
	}
	if got, _ := env.sched.Get(ctx, task.ID); got.Status != schedule.StatusActive {
		t.Fatalf("a refused pause paused the task: %s", got.Status)
	}
	if resp, _ := env.form("/admin/schedules/"+id+"/explode", url.Values{"back": {"list"}}, false); resp.StatusCode != 404 {
		t.Fatalf("unknown action: %d", resp.StatusCode)
	}
	resp, _ := env.form("/admin/schedules/"+id+"/pause", url.Values{"note": {"on holiday"}, "back": {"task"}}, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/schedules/"+id+"?done=pause" {
		t.Fatalf("pause: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	got, _ := env.sched.Get(ctx, task.ID)
	if got.Status != schedule.StatusPaused || got.PauseNote != "on holiday" {
		t.Fatalf("after pause: %s %q", got.Status, got.PauseNote)
	}
	_, body := env.page("/admin/schedules/" + id + "?done=pause")
	mustContain(t, "paused task", body, "Paused.", "on holiday", "Resume")
	// A refused action shows its reason on the page.
	resp, body = env.form("/admin/schedules/"+id+"/approve", url.Values{"back": {"task"}}, false)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "not waiting for approval") {
		t.Fatalf("approve an active task: %d", resp.StatusCode)
	}
	// Three slots pass while paused; resuming records them as skipped.
	env.clock.Advance(3*time.Minute + 10*time.Second)
	if resp, _ := env.form("/admin/schedules/"+id+"/resume", url.Values{"back": {"list"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("resume: %d", resp.StatusCode)
	}
	_, body = env.page("/admin/schedules/" + id)
	if n := strings.Count(body, `data-outcome="skipped_paused"`); n != 3 {
		t.Fatalf("ledger has %d skipped slots, want 3:\n%s", n, body)
	}
	mustContain(t, "ledger", body, "Run this slot")
	fires, _ := env.sched.Ledger(ctx, task.ID, 10)
	slot := fires[len(fires)-1].ScheduledFor.UTC().Format(time.RFC3339Nano)
	resp, _ = env.form("/admin/schedules/"+id+"/slot", url.Values{"slot": {slot}, "back": {"task"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("run slot: %d", resp.StatusCode)
	}
	testkit.WaitFor(t, testkit.Patience, "the slot to run", func() bool {
		fs, _ := env.sched.Ledger(ctx, task.ID, 10)
		for _, f := range fs {
			if f.ScheduledFor.Equal(fires[len(fires)-1].ScheduledFor) {
				return f.Outcome == schedule.OutcomeRan && f.RunID > 0
			}
		}
		return false
	})
	// The same slot cannot run twice.
	resp, body = env.form("/admin/schedules/"+id+"/slot", url.Values{"slot": {slot}, "back": {"task"}}, false)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "ran") {
		t.Fatalf("rerun a slot that ran: %d", resp.StatusCode)
	}
	if resp, _ := env.form("/admin/schedules/"+id+"/slot", url.Values{"slot": {"garbage"}, "back": {"task"}}, false); resp.StatusCode != 400 {
		t.Fatalf("bad slot: %d", resp.StatusCode)
	}
	// Delete.
	if resp, _ := env.form("/admin/schedules/"+id+"/delete", url.Values{"back": {"list"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if _, err := env.sched.Get(ctx, task.ID); err == nil {
		t.Fatal("task still there after delete")
	}
	if code, _ := env.page("/admin/schedules/" + id); code != 404 {
		t.Fatalf("deleted task page: %d", code)
	}
	if resp, _ := env.form("/admin/schedules/"+id+"/pause", url.Values{"back": {"list"}}, false); resp.StatusCode != 404 {
		t.Fatalf("pause a deleted task: %d", resp.StatusCode)
	}
}

func TestCoachTaskNeedsApprovalAndShowsBadge(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	task, err := env.sched.Create(ctx, schedule.TaskInput{Description: "Check protein daily", Kind: schedule.KindRecurring,
		Schedule: "0 20 * * *", AgentID: "tester", MemberID: "ada"}, schedule.ByAgent)
	if err != nil {
		t.Fatal(err)
	}
	if task.Status != schedule.StatusPendingApproval {
		t.Fatalf("coach task status = %s", task.Status)
	}
	ctxS, cancel := context.WithCancel(ctx)
	defer cancel()
	s := env.openLive(ctxS, "/admin/live/schedules")
	s.waitEvent(t, 2*time.Second, `id="tasks"`, "created by coach", "pending approval", "Approve", "Keep")
	resp, _ := env.form("/admin/schedules/"+itoa(task.ID)+"/approve", url.Values{"back": {"list"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve: %d", resp.StatusCode)
	}
	// The list updates over the stream without a reload.
	s.waitEvent(t, 2*time.Second, `id="tasks"`, `data-status="active"`, "created by coach")
	if got, _ := env.sched.Get(ctx, task.ID); got.Status != schedule.StatusActive || got.NextRunAt == nil {
		t.Fatalf("after approve: %s %v", got.Status, got.NextRunAt)
	}
}

func TestScheduleEditRecomputesAndKeepsInputOnError(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	task, err := env.sched.Create(ctx, schedule.TaskInput{Description: "Notes", Kind: schedule.KindRecurring, Schedule: "0 6 * * *",
		AgentID: "tester", AssignmentID: "note"}, schedule.ByUser)
	if err != nil {
		t.Fatal(err)
	}
	id := itoa(task.ID)
	resp, body := env.form("/admin/schedules/"+id, taskForm("schedule", "every day", "member", "", "description", "Evening notes"), false)
	if resp.StatusCode != 400 {
		t.Fatalf("bad edit: %d", resp.StatusCode)
	}
	mustContain(t, "bad edit", body, `value="every day"`, `value="Evening notes"`, "field-error")
	if got, _ := env.sched.Get(ctx, task.ID); got.Schedule != "0 6 * * *" || got.Description != "Notes" {
		t.Fatalf("a refused edit changed the task: %+v", got)
	}
	resp, _ = env.form("/admin/schedules/"+id, taskForm("schedule", "0 21 * * *", "member", "", "description", "Evening notes"), false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit: %d", resp.StatusCode)
	}
	got, _ := env.sched.Get(ctx, task.ID)
	if got.Schedule != "0 21 * * *" || got.Description != "Evening notes" || got.NextRunAt == nil || got.NextRunAt.Hour() != 21 {
		t.Fatalf("after edit: %+v", got)
	}
}

// TestSchedulesListRefusedCoachRequests: a task the coach asked for and was
// refused (here: a once task 15 seconds ahead) is listed with its reason.
func TestSchedulesListRefusedCoachRequests(t *testing.T) {
	env := newAdminEnv(t)
	_, body := env.page("/admin/schedules")
	mustContain(t, "empty list", body, `id="refused-requests"`, "has not been refused")
	box, err := agent.NewToolbox(env.sched.AgentTools())
	if err != nil {
		t.Fatal(err)
	}
	soon := env.clock.Now().Add(15 * time.Second).Format(time.RFC3339)
	_, err = box.Call(context.Background(), agent.Scope{AgentID: "tester", MemberID: "ada", RunID: 3}, "schedule_action",
		json.RawMessage(`{"description":"Ask <i>again</i>","type":"once","schedule":"`+soon+`","prompt":null}`))
	if err == nil || !strings.Contains(err.Error(), "at least 15 minutes ahead") {
		t.Fatalf("tool: %v", err)
	}
	_, body = env.page("/admin/schedules")
	mustContain(t, "refusals", body, "Refused coach requests", "Ask &lt;i&gt;again&lt;/i&gt;", "at least 15 minutes ahead",
		`href="/admin/runs/3"`)
}

// TestScheduleShowsLastOutcome: the list and the task page show the last
// run's outcome and what its run adds (why it fell back).
func TestScheduleShowsLastOutcome(t *testing.T) {
	env := newAdminEnv(t)
	resp, _ := env.form("/admin/schedules", taskForm(), false)
	id, _, _ := strings.Cut(strings.TrimPrefix(resp.Header.Get("Location"), "/admin/schedules/"), "?")
	if resp.StatusCode != http.StatusSeeOther || id == "" {
		t.Fatalf("create: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, err := env.db.Write.Exec(`UPDATE scheduled_tasks SET last_outcome = 'ran', last_run_at = '2026-03-02T04:00:00Z',
		last_note = 'fell back to the built-in coach: model output invalid after 3 attempts' WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	_, body := env.page("/admin/schedules")
	mustContain(t, "list", body, ": ran ·")
	_, body = env.page("/admin/schedules/" + id)
	mustContain(t, "task page", body, "Last outcome", "fell back to the built-in coach: model output invalid after 3 attempts")
}
