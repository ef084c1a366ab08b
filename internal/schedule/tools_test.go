package schedule

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/store"
)

// testTool is one of the service's agent tools.
type testTool struct {
	name string
	svc  *Service
}

func tools(t *testing.T, s *Service) map[string]testTool {
	t.Helper()
	if _, err := agent.NewToolbox(s.AgentTools()); err != nil { // names valid, schemas compile
		t.Fatal(err)
	}
	out := map[string]testTool{}
	for _, tool := range s.AgentTools().Tools() {
		out[tool.Name] = testTool{name: tool.Name, svc: s}
	}
	return out
}

// callTool calls a tool as a run does: through a toolbox (its schema
// checked), its write staged and nothing written yet; then it commits the
// staged write as the run's act would, and completes the result with what
// the commit wrote (the new task's or to-do's id and status).
func callTool(t *testing.T, tt testTool, scope agent.Scope, args string) (map[string]any, error) {
	t.Helper()
	ctx := context.Background()
	box, err := agent.NewToolbox(tt.svc.AgentTools())
	if err != nil {
		t.Fatal(err)
	}
	st := agent.NewStager()
	res, err := box.Call(ctx, scope.WithStager(st), tt.name, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if st.Len() == 0 {
		return m, nil
	}
	if m["staged"] != true {
		t.Fatalf("%s staged a write but does not say so: %v", tt.name, m)
	}
	out, err := applyStaged(ctx, tt.svc.db, st)
	if err != nil {
		t.Fatalf("%s: commit: %v", tt.name, err)
	}
	if len(out) != 1 || out[0].Outcome != agent.EffectApplied {
		return nil, fmt.Errorf("%s refused at commit: %+v", tt.name, out)
	}
	var id int64
	switch tt.name {
	case "schedule_action":
		err = tt.svc.db.Read.QueryRow(`SELECT max(id) FROM scheduled_tasks`).Scan(&id)
	case "add_todo":
		err = tt.svc.db.Read.QueryRow(`SELECT max(id) FROM agent_todos`).Scan(&id)
	case "delete_scheduled_action":
		id = int64(m["deleted"].(float64))
	case "stop_interval_action", "complete_todo":
		id = int64(m["id"].(float64))
	}
	if err != nil {
		t.Fatal(err)
	}
	m["id"] = float64(id)
	switch tt.name {
	case "schedule_action", "stop_interval_action":
		task, err := tt.svc.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		m["status"] = string(task.Status)
	case "add_todo", "complete_todo":
		todo, err := getTodo(ctx, tt.svc.db.Read, id, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		m["status"] = string(todo.Status)
	}
	return m, nil
}

func TestScheduleActionGuardrails(t *testing.T) {
	// The daily quota (TestAgentTaskLoopGuardrails) is lifted to reach the live-task cap.
	h := newHarness(t, func(o *Options) { o.DailyAgentTasks = 100 }).start()
	tl := tools(t, h.svc)
	ada := agent.Scope{AgentID: "health-coach", MemberID: "ada", RunID: 42}
	sched := tl["schedule_action"]
	future := t0.Add(24 * time.Hour).Format(time.RFC3339)

	// A member named in the arguments is refused by the strict schema; the
	// scope's member is the one the task is for.
	if _, err := callTool(t, sched, ada, fmt.Sprintf(`{"description":"Ask about sleep","type":"once","schedule":%q,"prompt":null,"member":"bob"}`, future)); err == nil ||
		!strings.Contains(err.Error(), "member") {
		t.Fatalf("an argument naming a member was accepted: %v", err)
	}
	res, err := callTool(t, sched, ada, fmt.Sprintf(`{"description":"Ask about sleep","type":"once","schedule":%q,"prompt":null}`, future))
	if err != nil {
		t.Fatal(err)
	}
	id := int64(res["id"].(float64))
	task := h.get(id)
	if task.MemberID != "ada" || task.CreatedBy != ByAgent || task.CreatedByRun != 42 || task.Status != StatusActive ||
		task.Prompt != "Ask about sleep" || task.ExpiresAt == nil {
		t.Fatalf("agent task = %+v", task)
	}
	h.waitArmed(id, t0.Add(24*time.Hour)) // in the DB and in gocron

	refused := []struct{ args, want string }{
		{`{"description":"x","type":"interval","schedule":"0","prompt":null}`, "at least 1 minute"},
		{`{"description":"x","type":"once","schedule":"2026-03-01T09:00:00+01:00","prompt":null}`, "not in the future"},
		{`{"description":"x","type":"recurring","schedule":"99 * * * *","prompt":null}`, "bad cron"},
		{fmt.Sprintf(`{"description":%q,"type":"once","schedule":%q,"prompt":null}`, strings.Repeat("a", 2001), future), "limit is 2000"},
	}
	if _, err := callTool(t, sched, ada, `{"description":"x","type":"heartbeat","schedule":"5","prompt":null}`); err == nil ||
		!strings.Contains(err.Error(), "/type") {
		t.Errorf("a heartbeat from the coach: %v, want the schema's refusal", err)
	}
	for _, r := range refused {
		if _, err := callTool(t, sched, ada, r.args); err == nil || !strings.Contains(err.Error(), r.want) || !strings.HasPrefix(err.Error(), "schedule_action refused") {
			t.Errorf("%s: err = %v, want refusal mentioning %q", r.args, err, r.want)
		}
	}

	// Recurring and interval wait for approval and are not registered until then.
	res, err = callTool(t, sched, ada, `{"description":"Weekly review","type":"recurring","schedule":"0 8 * * 1","prompt":null}`)
	if err != nil {
		t.Fatal(err)
	}
	weekly := int64(res["id"].(float64))
	if res["status"] != string(StatusPendingApproval) || res["note"] == nil {
		t.Fatalf("recurring by agent = %v", res)
	}
	if _, ok := h.svc.Scheduled(weekly); ok {
		t.Fatal("pending task registered before approval")
	}
	approved, err := h.svc.Approve(context.Background(), weekly)
	if err != nil || approved.Status != StatusActive {
		t.Fatalf("approve: %v %v", approved.Status, err)
	}
	h.waitArmed(weekly, time.Date(2026, 3, 9, 8, 0, 0, 0, berlin))
	if _, err := h.svc.Approve(context.Background(), weekly); err == nil {
		t.Fatal("approving twice should be refused")
	}

	// Up to 20 live coach tasks per member; the 21st is refused.
	for i := 3; i <= 20; i++ {
		if _, err := callTool(t, sched, ada, fmt.Sprintf(`{"description":"n%d","type":"once","schedule":%q,"prompt":null}`, i, future)); err != nil {
			t.Fatalf("task %d: %v", i, err)
		}
	}
	_, err = callTool(t, sched, ada, fmt.Sprintf(`{"description":"21st","type":"once","schedule":%q,"prompt":null}`, future))
	if err == nil || !strings.Contains(err.Error(), "limit reached") {
		t.Fatalf("21st task: %v", err)
	}
	// Another member has their own allowance.
	if _, err := callTool(t, sched, agent.Scope{AgentID: "health-coach", MemberID: "bob"}, fmt.Sprintf(`{"description":"b","type":"once","schedule":%q,"prompt":null}`, future)); err != nil {
		t.Fatalf("bob's first task: %v", err)
	}
	// A run without a member cannot schedule.
	if _, err := callTool(t, sched, agent.Scope{AgentID: "health-coach"}, `{"description":"x","type":"interval","schedule":"5","prompt":null}`); err == nil {
		t.Fatal("memberless run scheduled a task")
	}
}

func TestActionToolsOnlyTouchOwnTasks(t *testing.T) {
	h := newHarness(t).start()
	tl := tools(t, h.svc)
	ctx := context.Background()
	ada := agent.Scope{AgentID: "health-coach", MemberID: "ada"}
	bob := agent.Scope{AgentID: "health-coach", MemberID: "bob"}
	userTask := h.create(TaskInput{Kind: KindInterval, Schedule: "60", MemberID: "ada"})
	household := h.create(TaskInput{Kind: KindRecurring, Schedule: "0 4 * * *", AssignmentID: "daily-dashboard"})
	bobs, err := h.svc.create(ctx, TaskInput{Description: "b", Kind: KindOnce, Schedule: "2026-03-05T10:00", MemberID: "bob"}, ByAgent, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := callTool(t, tl["schedule_action"], ada, `{"description":"Hydration nudge","type":"interval","schedule":"120","prompt":null}`)
	if err != nil {
		t.Fatal(err)
	}
	nudge := int64(res["id"].(float64))

	list, err := callTool(t, tl["list_scheduled_actions"], ada, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, a := range list["actions"].([]any) {
		seen[int64(a.(map[string]any)["id"].(float64))] = true
	}
	if !seen[userTask.ID] || !seen[household.ID] || !seen[nudge] || seen[bobs.ID] {
		t.Fatalf("ada's list = %v", seen)
	}

	for _, id := range []int64{userTask.ID, household.ID, bobs.ID} {
		if _, err := callTool(t, tl["delete_scheduled_action"], ada, fmt.Sprintf(`{"task_id":%d}`, id)); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Fatalf("deleting task %d not created by the coach for ada: %v", id, err)
		}
	}
	if _, err := callTool(t, tl["stop_interval_action"], ada, fmt.Sprintf(`{"task_id":%d}`, nudge)); err == nil || !strings.Contains(err.Error(), "not been approved") {
		t.Fatalf("stopping a pending interval: %v", err)
	}
	if _, err := h.svc.Approve(ctx, nudge); err != nil {
		t.Fatal(err)
	}
	if _, err := callTool(t, tl["stop_interval_action"], bob, fmt.Sprintf(`{"task_id":%d}`, nudge)); err == nil {
		t.Fatal("bob's run stopped ada's action")
	}
	stopped, err := callTool(t, tl["stop_interval_action"], ada, fmt.Sprintf(`{"task_id":"%d"}`, nudge))
	if err != nil || stopped["status"] != string(StatusPaused) {
		t.Fatalf("stop own interval: %v %v", stopped, err)
	}
	if _, err := callTool(t, tl["delete_scheduled_action"], ada, fmt.Sprintf(`{"task_id":%d}`, nudge)); err != nil {
		t.Fatalf("delete own: %v", err)
	}
	if _, err := h.svc.Get(ctx, nudge); err == nil {
		t.Fatal("own action not deleted")
	}
}

func TestTodoTools(t *testing.T) {
	h := newHarness(t)
	tl := tools(t, h.svc)
	ada := agent.Scope{AgentID: "health-coach", MemberID: "ada"}
	bob := agent.Scope{AgentID: "health-coach", MemberID: "bob"}
	res, err := callTool(t, tl["add_todo"], ada, `{"text":"Suggest a lighter week"}`)
	if err != nil {
		t.Fatal(err)
	}
	id := int64(res["id"].(float64))
	if res["status"] != "pending" {
		t.Fatalf("added = %v", res)
	}
	if list, _ := callTool(t, tl["list_todos"], bob, `{"status":null}`); len(list["todos"].([]any)) != 0 {
		t.Fatalf("bob sees ada's to-do: %v", list)
	}
	if _, err := callTool(t, tl["complete_todo"], bob, fmt.Sprintf(`{"todo_id":%d,"note":null}`, id)); err == nil {
		t.Fatal("bob's run completed ada's to-do")
	}
	done, err := callTool(t, tl["complete_todo"], ada, fmt.Sprintf(`{"todo_id":%d,"note":"sent"}`, id))
	if err == nil {
		if todo, _ := getTodo(context.Background(), h.db.Read, id, time.UTC); todo.Note != "sent" {
			t.Fatalf("completed to-do = %+v", todo)
		}
	}
	if err != nil || done["status"] != "done" {
		t.Fatalf("complete: %v %v", done, err)
	}
	if list, _ := callTool(t, tl["list_todos"], ada, `{"status":null}`); len(list["todos"].([]any)) != 0 {
		t.Fatalf("open list after completion: %v", list)
	}
	if list, _ := callTool(t, tl["list_todos"], ada, `{"status":"done"}`); len(list["todos"].([]any)) != 1 {
		t.Fatalf("done list: %v", list)
	}
	if _, err := callTool(t, tl["add_todo"], ada, `{"text":"  "}`); err == nil || !strings.Contains(err.Error(), "required") {
		t.Fatalf("empty to-do: %v", err)
	}
}

func TestHeartbeatRunsTodoOnlyWhenIdle(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	if err := h.svc.EnsureDefault(ctx); err != nil {
		t.Fatal(err)
	}
	h.start()
	beats, _ := h.svc.List(ctx, TaskFilter{Kind: KindHeartbeat})
	beat := beats[0]
	todo, err := h.svc.Todos().Add(ctx, TodoInput{AgentID: "health-coach", MemberID: "ada", Text: "Review Ada's protein", CreatedBy: ByAgent})
	if err != nil {
		t.Fatal(err)
	}
	slot := func(n int) time.Time { return t0.Add(time.Duration(5*n) * time.Minute) }

	h.runner.set(func(r *fakeRunner) { r.busy = true })
	h.advanceTo(slot(1))
	h.waitArmed(beat.ID, slot(2))
	h.noCall()
	if items, _ := h.svc.Todos().List(ctx, TodoFilter{}); items[0].Status != TodoPending {
		t.Fatalf("busy heartbeat touched the to-do: %+v", items[0])
	}

	h.runner.set(func(r *fakeRunner) { r.busy = false; r.fail = fmt.Errorf("model down") })
	h.advanceTo(slot(2))
	c := h.waitCall()
	if c.Kind != "freeform" || c.Member != "ada" || c.Trigger != TriggerHeartbeat || !strings.Contains(c.Prompt, "Review Ada's protein") {
		t.Fatalf("heartbeat call = %+v", c)
	}
	h.waitIdle(beat.ID)
	items, _ := h.svc.Todos().List(ctx, TodoFilter{})
	if items[0].Status != TodoPending || items[0].Attempts != 1 || !strings.Contains(items[0].Note, "model down") {
		t.Fatalf("failed to-do = %+v", items[0])
	}

	h.runner.set(func(r *fakeRunner) { r.fail = nil })
	h.waitArmed(beat.ID, slot(3))
	h.advanceTo(slot(3))
	h.waitCall()
	h.waitIdle(beat.ID)
	items, _ = h.svc.Todos().List(ctx, TodoFilter{})
	if items[0].Status != TodoDone || items[0].DoneAt == nil || items[0].RunID == 0 {
		t.Fatalf("to-do after heartbeat run = %+v", items[0])
	}
	fires, _ := h.svc.Ledger(ctx, beat.ID, 10)
	if len(fires) != 2 || fires[0].TodoID != todo.ID || fires[0].Outcome != OutcomeRan || fires[1].Outcome != OutcomeFailed {
		t.Fatalf("heartbeat ledger = %+v", fires)
	}
	// Nothing left to do: the next beat runs nothing and writes nothing.
	h.waitArmed(beat.ID, slot(4))
	h.advanceTo(slot(4))
	h.waitArmed(beat.ID, slot(5))
	h.noCall()
	if fires, _ := h.svc.Ledger(ctx, beat.ID, 10); len(fires) != 2 {
		t.Fatalf("idle beat wrote the ledger: %+v", fires)
	}
}

// A system task (the nightly backup) is a task like any other for the
// admin, but the agents' tools never list, delete or stop it, even for an
// agent that calls itself "system".
func TestSystemTasksAreInvisibleToAgentTools(t *testing.T) {
	h := newHarness(t).start()
	ctx := context.Background()
	task, err := h.svc.Create(ctx, TaskInput{Description: "Back up the household's data", Kind: KindInterval, Schedule: "60",
		AgentID: SystemAgent, AssignmentID: "backup"}, ByUser)
	if err != nil {
		t.Fatal(err)
	}
	if !task.System() {
		t.Fatal("not a system task")
	}
	if _, err := h.svc.Create(ctx, TaskInput{Description: "x", Kind: KindInterval, Schedule: "60",
		AgentID: SystemAgent, AssignmentID: "backup", MemberID: "ada"}, ByUser); err == nil {
		t.Fatal("a system task for one member was accepted")
	}
	tl := tools(t, h.svc)
	for _, scope := range []agent.Scope{{AgentID: "health-coach", MemberID: "ada", RunID: 1}, {AgentID: SystemAgent, MemberID: "ada", RunID: 1}} {
		res, err := callTool(t, tl["list_scheduled_actions"], scope, `{}`)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range res["actions"].([]any) {
			if int64(a.(map[string]any)["id"].(float64)) == task.ID {
				t.Errorf("%s sees the system task", scope.AgentID)
			}
		}
		for _, tool := range []string{"delete_scheduled_action", "stop_interval_action"} {
			if _, err := callTool(t, tl[tool], scope, fmt.Sprintf(`{"task_id":%d}`, task.ID)); err == nil {
				t.Errorf("%s: %s on the system task succeeded", scope.AgentID, tool)
			}
		}
	}
	if got := h.get(task.ID); got.Status != StatusActive {
		t.Fatalf("system task after the tools: %+v", got)
	}
}

func TestTodoTextReadsBackTheTodo(t *testing.T) {
	for _, text := range []string{"Remind Ada to log dinner", "Two lines\nof text): with a paren"} {
		got, ok := TodoText(todoPrompt(Todo{ID: 12, Text: text}))
		if !ok || got != text {
			t.Errorf("TodoText(todoPrompt(%q)) = %q, %v", text, got, ok)
		}
	}
	if _, ok := TodoText("Add a short hydration reminder"); ok {
		t.Error("a scheduled prompt read as a to-do")
	}
}

// applyStaged commits what a tool call staged, in its own transaction, as
// a run's commit would (without a run, so no effect ledger).
func applyStaged(ctx context.Context, db *store.DB, st *agent.Stager) ([]agent.EffectOutcome, error) {
	var out []agent.EffectOutcome
	err := db.Tx(ctx, func(tx *store.Tx) error {
		var err error
		out, err = st.Apply(ctx, tx, 0, store.FormatTime(db.Now()))
		return err
	})
	return out, err
}

// Runs reasoning in parallel cannot each find room under the coach's
// limits. 20 runs of one member call schedule_action at once, then all
// commit at once: the daily quota (10) holds, and so does the cap on live
// coach tasks (set to 10 with the quota lifted). Runs the server records
// reserve their place when the tool runs (the others count it), so the
// calls past a limit are refused to the model at once; for runs it has
// no record of, the commit refuses the effects past the limit, and the
// request rows say so.
func TestScheduleActionLimitsHoldAcrossParallelRuns(t *testing.T) {
	for _, tc := range []struct {
		limit    string
		recorded bool
	}{{"daily limit reached", true}, {"daily limit reached", false}, {"limit reached: ada already has", true}, {"limit reached: ada already has", false}} {
		recorded := tc.recorded
		t.Run(fmt.Sprintf("%s/recorded=%v", tc.limit, recorded), func(t *testing.T) {
			h := newHarness(t, func(o *Options) {
				if !strings.HasPrefix(tc.limit, "daily") {
					o.DailyAgentTasks, o.MaxAgentTasks = 100, 10
				}
			}).start()
			ctx := context.Background()
			box, err := agent.NewToolbox(h.svc.AgentTools())
			if err != nil {
				t.Fatal(err)
			}
			const runs = 20
			daily := min(h.svc.opt.DailyAgentTasks, h.svc.opt.MaxAgentTasks) // the limit that binds
			ids := make([]int64, runs)
			for i := range ids {
				ids[i] = int64(9000 + i)
				if !recorded {
					continue
				}
				res, err := h.db.Write.ExecContext(ctx, `INSERT INTO agent_runs (agent_id, member_id, triggered_by, status, created_at)
					VALUES ('health-coach', 'ada', 'manual', 'running', ?)`, store.FormatTime(t0))
				if err != nil {
					t.Fatal(err)
				}
				ids[i], _ = res.LastInsertId()
			}
			future := t0.Add(24 * time.Hour).Format(time.RFC3339)
			stagers := make([]*agent.Stager, runs)
			called := make([]error, runs)
			parallel(runs, func(i int) {
				stagers[i] = agent.NewStager()
				scope := agent.Scope{AgentID: "health-coach", MemberID: "ada", RunID: ids[i]}.WithStager(stagers[i])
				_, called[i] = box.Call(ctx, scope, "schedule_action",
					json.RawMessage(fmt.Sprintf(`{"description":"Check in %d","type":"once","schedule":%q,"prompt":null}`, i, future)))
			})
			outcomes := make([][]agent.EffectOutcome, runs)
			parallel(runs, func(i int) {
				var err error
				if outcomes[i], err = applyStaged(ctx, h.db, stagers[i]); err != nil {
					t.Errorf("commit %d: %v", i, err)
				}
			})
			accepted, applied, refusedAtCommit := 0, 0, 0
			for i := range runs {
				if called[i] == nil {
					accepted++
				} else if !strings.Contains(called[i].Error(), tc.limit) {
					t.Errorf("call %d: %v", i, called[i])
				}
				for _, o := range outcomes[i] {
					switch o.Outcome {
					case agent.EffectApplied:
						applied++
					case agent.EffectRefused:
						refusedAtCommit++
						if !strings.Contains(o.Reason, tc.limit) {
							t.Errorf("refused at commit: %+v", o)
						}
					}
				}
			}
			var tasks int
			if err := h.db.Read.QueryRow(`SELECT count(*) FROM scheduled_tasks WHERE created_by = 'agent' AND member_id = 'ada'`).Scan(&tasks); err != nil {
				t.Fatal(err)
			}
			if tasks != daily || applied != daily {
				t.Fatalf("%d tasks created (%d effects applied) by %d parallel runs; the limit is %d", tasks, applied, runs, daily)
			}
			wantAccepted, wantRefused := daily, 0
			if !recorded {
				wantAccepted, wantRefused = runs, runs-daily
			}
			if accepted != wantAccepted || refusedAtCommit != wantRefused {
				t.Errorf("%d calls accepted, %d refused at commit; want %d and %d", accepted, refusedAtCommit, wantAccepted, wantRefused)
			}
			reqs, err := h.svc.TaskRequests(ctx, RequestFilter{MemberID: "ada"})
			if err != nil {
				t.Fatal(err)
			}
			byOutcome := map[string]int{}
			for _, r := range reqs {
				byOutcome[r.Outcome]++
			}
			if byOutcome[RequestCreated] != daily || byOutcome[RequestRefused] != runs-daily || byOutcome[RequestStaged] != 0 {
				t.Errorf("request rows by outcome: %v", byOutcome)
			}
		})
	}
}

// parallel runs fn(0..n-1) on n goroutines released together, and waits.
func parallel(n int, fn func(i int)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			fn(i)
		})
	}
	close(start)
	wg.Wait()
}

// The cap on open to-dos holds across runs committing together: the
// tool's check sees only committed items, the commit checks again in its
// transaction and refuses what no longer fits.
func TestAddTodoCapHoldsAcrossParallelRuns(t *testing.T) {
	h := newHarness(t).start()
	ctx := context.Background()
	for i := range MaxOpenTodos - 5 {
		if _, err := h.svc.Todos().Add(ctx, TodoInput{AgentID: "health-coach", MemberID: "ada", Text: fmt.Sprintf("item %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	box, err := agent.NewToolbox(h.svc.AgentTools())
	if err != nil {
		t.Fatal(err)
	}
	const runs = 20
	stagers := make([]*agent.Stager, runs)
	parallel(runs, func(i int) {
		stagers[i] = agent.NewStager()
		scope := agent.Scope{AgentID: "health-coach", MemberID: "ada", RunID: int64(100 + i)}.WithStager(stagers[i])
		if _, err := box.Call(ctx, scope, "add_todo", json.RawMessage(fmt.Sprintf(`{"text":"ask about sleep %d"}`, i))); err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	})
	parallel(runs, func(i int) {
		if _, err := applyStaged(ctx, h.db, stagers[i]); err != nil {
			t.Errorf("commit %d: %v", i, err)
		}
	})
	open, err := h.svc.Todos().List(ctx, TodoFilter{AgentID: "health-coach", MemberID: "ada", Open: true})
	if err != nil || len(open) != MaxOpenTodos {
		t.Fatalf("%d open to-dos after %d parallel runs (cap %d): %v", len(open), runs, MaxOpenTodos, err)
	}
}
