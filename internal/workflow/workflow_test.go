package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/testkit"
	"hearth/internal/workflow"
)

func TestSequenceRunsAndStoresEveryStep(t *testing.T) {
	e := newEnv(t)
	cnt := &counter{}
	w := commit(t, workflow.New("add", "adds").Schemas(numSchema, numSchema, nil).
		Then(addStep("one", 1, cnt)).Then(addStep("ten", 10, cnt)))
	e.register(t, e.rt, w)
	r := wait(t, e.rt, start(t, e.rt, "add", "maya", `{"n": 5}`).ID)
	if r.Status != workflow.StatusSuccess {
		t.Fatalf("status %s (%s)", r.Status, r.Error)
	}
	var out num
	asJSON(t, r.Output, &out)
	if out.N != 16 {
		t.Errorf("output %d, want 16", out.N)
	}
	if got, want := paths(r), []string{"one=success", "ten=success"}; !slices.Equal(got, want) {
		t.Errorf("steps %v, want %v", got, want)
	}
	if string(r.Steps[1].Input) != `{"n":6}` || string(r.Steps[1].Output) != `{"n":16}` {
		t.Errorf("step ten stored input %s output %s", r.Steps[1].Input, r.Steps[1].Output)
	}
	if r.FinishedAt == nil || r.Version != w.Version() {
		t.Errorf("finished %v version %q", r.FinishedAt, r.Version)
	}
	want := []string{"run_started:running", "step_started:one", "step_finished:one", "step_started:ten", "step_finished:ten", "run_status:success"}
	if got := e.pub.types("admin", r.ID); !slices.Equal(got, want) {
		t.Errorf("admin events %v, want %v", got, want)
	}
	// It never asks maya anything: her screens do not hear of it.
	if got := e.pub.types("member:maya", r.ID); len(got) != 0 {
		t.Errorf("member events %v, want none", got)
	}
}

func TestStartChecksTheInputAndTheMember(t *testing.T) {
	e := newEnv(t)
	e.register(t, e.rt, commit(t, workflow.New("add", "").Schemas(numSchema, nil, nil).Then(addStep("one", 1, &counter{}))))
	ctx := context.Background()
	for name, c := range map[string]struct {
		req  workflow.StartRequest
		code apperr.Code
	}{
		"bad input":        {workflow.StartRequest{Workflow: "add", Member: "maya", Input: json.RawMessage(`{"n":"x"}`)}, apperr.Invalid},
		"missing input":    {workflow.StartRequest{Workflow: "add", Member: "maya"}, apperr.Invalid},
		"no member":        {workflow.StartRequest{Workflow: "add", Input: json.RawMessage(`{"n":1}`)}, apperr.Invalid},
		"unknown member":   {workflow.StartRequest{Workflow: "add", Member: "nobody", Input: json.RawMessage(`{"n":1}`)}, apperr.NotFound},
		"unknown workflow": {workflow.StartRequest{Workflow: "nope", Member: "maya"}, apperr.NotFound},
	} {
		if _, err := e.rt.Start(ctx, c.req); !apperr.Is(err, c.code) {
			t.Errorf("%s: %v, want %s", name, err, c.code)
		}
	}
	runs, err := e.rt.List(ctx, workflow.Filter{})
	if err != nil || len(runs) != 0 {
		t.Errorf("refused starts left runs: %v %v", runs, err)
	}
}

func TestBuilderRefusesBadDefinitions(t *testing.T) {
	ok := func(id string) *workflow.Step { return addStep(id, 1, &counter{}) }
	child := commit(t, workflow.New("child", "").Then(ok("x")))
	for name, b := range map[string]*workflow.Builder{
		"bad id":           workflow.New("Bad Id", "").Then(ok("a")),
		"empty":            workflow.New("empty", ""),
		"duplicate step":   workflow.New("dup", "").Then(ok("a")).Then(ok("a")),
		"duplicate nested": workflow.New("dupn", "").Then(ok("x")).Then(child),
		"no run":           workflow.New("norun", "").Then(&workflow.Step{ID: "a"}),
		"bad schema":       workflow.New("schema", "").Then(&workflow.Step{ID: "a", Run: ok("a").Run, Output: map[string]any{"type": 12}}),
		"one parallel":     workflow.New("par", "").Parallel(ok("a")),
		"no condition":     workflow.New("loop", "").DoUntil(ok("a"), nil, 3),
		"half engine":      workflow.New("eng", "").Engine("health-coach", "").Then(ok("a")),
	} {
		if _, err := b.Commit(); err == nil {
			t.Errorf("%s: committed", name)
		}
	}
}

// A graph with every builder form: parallel, branch, loop and a nested
// workflow; outputs are shaped as documented and every path is stored.
func TestParallelBranchLoopAndNested(t *testing.T) {
	e := newEnv(t)
	cnt := &counter{}
	child := commit(t, workflow.New("child", "doubles").Schemas(numSchema, numSchema, nil).
		Then(&workflow.Step{ID: "double", Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			var in num
			_ = c.Decode(&in)
			return num{N: in.N * 2}, nil
		}}))
	big := func(c workflow.Check) (bool, error) {
		var n num
		err := c.Decode(&n)
		return n.N >= 100, err
	}
	w := commit(t, workflow.New("graph", "").
		Then(addStep("start", 0, cnt)).
		DoUntil(addStep("grow", 30, cnt), big, 10). // 5 → 35 → 65 → 95 → 125
		Then(child).                                // 250
		Parallel(addStep("a", 1, cnt), addStep("b", 2, cnt)).
		Then(&workflow.Step{ID: "pick", Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			var in map[string]num
			if err := c.Decode(&in); err != nil {
				return nil, err
			}
			return num{N: in["a"].N + in["b"].N}, nil // 251 + 252
		}}).
		Branch(workflow.When(func(c workflow.Check) (bool, error) { return false, nil }, addStep("never", 0, cnt)),
			workflow.When(big, addStep("large", 1000, cnt))))
	e.register(t, e.rt, w)
	r := wait(t, e.rt, start(t, e.rt, "graph", "maya", `{"n":5}`).ID)
	if r.Status != workflow.StatusSuccess {
		t.Fatalf("status %s: %s", r.Status, r.Error)
	}
	if string(r.Output) != `{"large":{"n":1503}}` {
		t.Errorf("output %s", r.Output)
	}
	got := paths(r)
	for _, want := range []string{"grow@1=success", "grow@4=success", "child/double=success", "a=success", "b=success", "large=success"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %s in %v", want, got)
		}
	}
	if slices.Contains(got, "grow@5=success") || cnt.get("never") != 0 {
		t.Errorf("loop or branch ran too far: %v", got)
	}
	if _, ok := r.Step("child/double"); !ok {
		t.Error("nested step not found by path")
	}
}

func TestLoopBoundFailsTheRun(t *testing.T) {
	e := newEnv(t)
	never := func(workflow.Check) (bool, error) { return false, nil }
	e.register(t, e.rt, commit(t, workflow.New("spin", "").DoUntil(addStep("s", 1, &counter{}), never, 3)))
	r := wait(t, e.rt, start(t, e.rt, "spin", "maya", `{"n":0}`).ID)
	if r.Status != workflow.StatusFailed || !strings.Contains(r.Error, "ran 3 times") {
		t.Errorf("status %s error %q", r.Status, r.Error)
	}
}

func TestSchemasAreCheckedAtStepBoundaries(t *testing.T) {
	e := newEnv(t)
	wrong := &workflow.Step{ID: "wrong", Output: numSchema, Run: func(context.Context, *workflow.Context) (any, error) {
		return map[string]string{"n": "not a number"}, nil
	}}
	e.register(t, e.rt, commit(t, workflow.New("bad-out", "").Then(wrong)))
	r := wait(t, e.rt, start(t, e.rt, "bad-out", "maya", `{}`).ID)
	if r.Status != workflow.StatusFailed || !strings.Contains(r.Error, "output does not match") {
		t.Errorf("bad output: %s %q", r.Status, r.Error)
	}
	// The next step's input schema is checked too.
	e.register(t, e.rt, commit(t, workflow.New("bad-in", "").
		Then(&workflow.Step{ID: "gives", Run: func(context.Context, *workflow.Context) (any, error) { return "text", nil }}).
		Then(addStep("takes", 1, &counter{}))))
	r = wait(t, e.rt, start(t, e.rt, "bad-in", "maya", `{}`).ID)
	rec, _ := r.Step("takes")
	if r.Status != workflow.StatusFailed || rec.Status != workflow.StepFailed || !strings.Contains(rec.Error, "input does not match") {
		t.Errorf("bad input: %s %q / %+v", r.Status, r.Error, rec)
	}
}

func TestStateIsSharedAndChecked(t *testing.T) {
	e := newEnv(t)
	stateSchema := map[string]any{"type": "object", "properties": map[string]any{"count": map[string]any{"type": "integer", "maximum": 2}}}
	bump := func(id string) *workflow.Step {
		return &workflow.Step{ID: id, State: stateSchema, Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			var st struct{ Count int }
			if err := c.DecodeState(&st); err != nil {
				return nil, err
			}
			return st.Count, c.SetState("count", st.Count+1)
		}}
	}
	e.register(t, e.rt, commit(t, workflow.New("st", "").Schemas(nil, nil, stateSchema).Then(bump("s1")).Then(bump("s2")).Then(bump("s3"))))
	r := wait(t, e.rt, start(t, e.rt, "st", "maya", `{}`).ID)
	// s3 would make count 3, over the state schema's maximum.
	if r.Status != workflow.StatusFailed || !strings.Contains(r.Error, "step s3") || string(r.State) != `{"count":2}` {
		t.Errorf("status %s error %q state %s", r.Status, r.Error, r.State)
	}
	if s2, _ := r.Step("s2"); string(s2.Output) != "1" || string(s2.StatePatch) != `{"count":2}` {
		t.Errorf("s2 %s patch %s", s2.Output, s2.StatePatch)
	}
}

var answerSchema = map[string]any{
	"type": "object", "required": []string{"choice"}, "additionalProperties": false,
	"properties": map[string]any{"choice": map[string]any{"type": "string", "enum": []string{"harder", "same", "easier"}}},
}

// ask suspends with a question until it is resumed, then returns the answer.
func askStep(cnt *counter) *workflow.Step {
	return &workflow.Step{ID: "ask", Resume: answerSchema,
		Suspend: map[string]any{"type": "object", "required": []string{"question"}},
		Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			cnt.inc("ask")
			if ans, ok := c.Resumed(); ok {
				return ans, nil
			}
			return nil, c.Suspend(map[string]any{"question": "Harder, same or easier?", "options": []string{"harder", "same", "easier"}})
		}}
}

func TestSuspendAndResume(t *testing.T) {
	e := newEnv(t)
	cnt := &counter{}
	e.register(t, e.rt, commit(t, workflow.New("review", "").Then(addStep("sum", 1, cnt)).Then(askStep(cnt)).
		Then(&workflow.Step{ID: "act", Input: answerSchema, Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			cnt.inc("act")
			return c.Input(), nil
		}})))
	ctx := context.Background()
	r := wait(t, e.rt, start(t, e.rt, "review", "maya", `{"n":1}`).ID)
	if r.Status != workflow.StatusSuspended {
		t.Fatalf("status %s (%s)", r.Status, r.Error)
	}
	waiting := r.Waiting()
	if len(waiting) != 1 || waiting[0].Path != "ask" || !strings.Contains(string(waiting[0].Suspended), "Harder, same or easier?") {
		t.Fatalf("waiting %+v", waiting)
	}
	list, err := e.rt.Waiting(ctx, "maya")
	if err != nil || len(list) != 1 || list[0].Run != r.ID {
		t.Fatalf("Waiting(maya) = %+v, %v", list, err)
	}
	if other, _ := e.rt.Waiting(ctx, "sam"); len(other) != 0 {
		t.Errorf("sam sees maya's question: %+v", other)
	}
	if got := e.pub.types("member:maya", r.ID); !slices.Contains(got, "step_suspended:ask") {
		t.Errorf("maya's screens did not hear of the question: %v", got)
	}

	// Wrong answers change nothing.
	if _, err := e.rt.Resume(ctx, r.ID, "ask", json.RawMessage(`{"choice":"never"}`)); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("answer outside the schema: %v", err)
	}
	if _, err := e.rt.Resume(ctx, r.ID, "sum", json.RawMessage(`{"choice":"same"}`)); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("resume a step that is not waiting: %v", err)
	}
	if _, err := e.rt.Resume(ctx, r.ID, "nope", json.RawMessage(`{"choice":"same"}`)); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("resume an unknown step: %v", err)
	}
	if _, err := e.rt.Resume(ctx, 999, "ask", json.RawMessage(`{"choice":"same"}`)); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("resume an unknown run: %v", err)
	}

	if _, err := e.rt.Resume(ctx, r.ID, "ask", json.RawMessage(`{"choice":"easier"}`)); err != nil {
		t.Fatal(err)
	}
	// A second answer (a double tap, a retried request) is refused cleanly.
	if _, err := e.rt.Resume(ctx, r.ID, "ask", json.RawMessage(`{"choice":"harder"}`)); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("second resume: %v", err)
	}
	r = wait(t, e.rt, r.ID)
	if r.Status != workflow.StatusSuccess || string(r.Output) != `{"choice":"easier"}` {
		t.Fatalf("after resume: %s %s (%s)", r.Status, r.Output, r.Error)
	}
	if cnt.get("sum") != 1 || cnt.get("ask") != 2 || cnt.get("act") != 1 {
		t.Errorf("executions sum %d ask %d act %d, want 1 2 1 (completed steps never re-run)", cnt.get("sum"), cnt.get("ask"), cnt.get("act"))
	}
	ask, _ := r.Step("ask")
	if ask.Attempts != 2 || string(ask.Resumed) != `{"choice":"easier"}` {
		t.Errorf("ask record %+v", ask)
	}
	if _, err := e.rt.Resume(ctx, r.ID, "ask", json.RawMessage(`{"choice":"same"}`)); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("resume a finished run: %v", err)
	}
}

// A suspended run is stored, not held in memory: a new runtime on the same
// database (a restart) resumes it, running only the suspended step and its
// successors.
func TestSuspendedRunSurvivesARestart(t *testing.T) {
	e := newEnv(t)
	cnt := &counter{}
	def := func() *workflow.Workflow {
		return commit(t, workflow.New("review", "").Then(addStep("sum", 1, cnt)).Then(askStep(cnt)))
	}
	e.register(t, e.rt, def())
	r := wait(t, e.rt, start(t, e.rt, "review", "maya", `{"n":1}`).ID)
	if err := e.rt.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	rt2 := e.runtime(t)
	e.register(t, rt2, def())
	if n, err := rt2.Recover(context.Background()); err != nil || n != 0 {
		t.Fatalf("recover started %d (%v); a suspended run waits", n, err)
	}
	if _, err := rt2.Resume(context.Background(), r.ID, "ask", json.RawMessage(`{"choice":"same"}`)); err != nil {
		t.Fatal(err)
	}
	r = wait(t, rt2, r.ID)
	if r.Status != workflow.StatusSuccess || cnt.get("sum") != 1 {
		t.Errorf("status %s, sum ran %d times", r.Status, cnt.get("sum"))
	}
}

// A run whose process stops mid-step (Close cancels it, as a shutdown or a
// crash leaves it "running") continues at the next start from its last
// completed step: completed steps are not run again, the interrupted one is.
func TestInterruptedRunContinuesFromItsLastCompletedStep(t *testing.T) {
	e := newEnv(t)
	cnt := &counter{}
	started := make(chan struct{}, 1)
	slow := func(block bool) *workflow.Step {
		return &workflow.Step{ID: "slow", Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			cnt.inc("slow")
			if block {
				started <- struct{}{}
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return c.Input(), nil
		}}
	}
	e.register(t, e.rt, commit(t, workflow.New("crash", "").Then(addStep("first", 1, cnt)).Then(slow(true)).Then(addStep("last", 1, cnt))))
	r := start(t, e.rt, "crash", "maya", `{"n":0}`)
	<-started
	if err := e.rt.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	mid, err := e.rt.Get(context.Background(), r.ID)
	if err != nil || mid.Status != workflow.StatusRunning {
		t.Fatalf("after the stop: %s %v", mid.Status, err)
	}
	if s, _ := mid.Step("slow"); s.Status != workflow.StepRunning {
		t.Fatalf("interrupted step stored as %s", s.Status)
	}

	rt2 := e.runtime(t)
	e.register(t, rt2, commit(t, workflow.New("crash", "").Then(addStep("first", 1, cnt)).Then(slow(false)).Then(addStep("last", 1, cnt))))
	if n, err := rt2.Recover(context.Background()); err != nil || n != 1 {
		t.Fatalf("recover: %d %v", n, err)
	}
	r = wait(t, rt2, r.ID)
	if r.Status != workflow.StatusSuccess || string(r.Output) != `{"n":2}` {
		t.Fatalf("status %s output %s (%s)", r.Status, r.Output, r.Error)
	}
	if cnt.get("first") != 1 || cnt.get("slow") != 2 || cnt.get("last") != 1 {
		t.Errorf("executions first %d slow %d last %d, want 1 2 1", cnt.get("first"), cnt.get("slow"), cnt.get("last"))
	}
	if s, _ := r.Step("slow"); s.Attempts != 2 {
		t.Errorf("slow attempts %d, want 2", s.Attempts)
	}
}

func TestRestartAFailedRunFromTheFailedStep(t *testing.T) {
	e := newEnv(t)
	cnt := &counter{}
	flaky := &workflow.Step{ID: "flaky", Run: func(ctx context.Context, c *workflow.Context) (any, error) {
		if cnt.inc("flaky") == 1 {
			return nil, errors.New("the scale did not answer")
		}
		return c.Input(), nil
	}}
	e.register(t, e.rt, commit(t, workflow.New("flaky", "").Then(addStep("first", 1, cnt)).Then(flaky).Then(addStep("last", 1, cnt))))
	ctx := context.Background()
	r := wait(t, e.rt, start(t, e.rt, "flaky", "maya", `{"n":0}`).ID)
	if r.Status != workflow.StatusFailed || !strings.Contains(r.Error, "the scale did not answer") {
		t.Fatalf("status %s error %q", r.Status, r.Error)
	}
	if _, err := e.rt.Resume(ctx, r.ID, "flaky", json.RawMessage(`{}`)); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("resume a failed run: %v", err)
	}
	if _, err := e.rt.Restart(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	r = wait(t, e.rt, r.ID)
	if r.Status != workflow.StatusSuccess || r.Error != "" || cnt.get("first") != 1 || cnt.get("last") != 1 {
		t.Errorf("after restart: %s %q first %d last %d", r.Status, r.Error, cnt.get("first"), cnt.get("last"))
	}
	if _, err := e.rt.Restart(ctx, r.ID); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("restart a successful run: %v", err)
	}
}

func TestPauseAndRestart(t *testing.T) {
	e := newEnv(t)
	cnt := &counter{}
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	gate := &workflow.Step{ID: "gate", Run: func(ctx context.Context, c *workflow.Context) (any, error) {
		if cnt.inc("gate") == 1 {
			entered <- struct{}{}
			<-release
		}
		return c.Input(), nil
	}}
	e.register(t, e.rt, commit(t, workflow.New("p", "").Then(gate).Then(addStep("after", 1, cnt))))
	ctx := context.Background()
	r := start(t, e.rt, "p", "maya", `{"n":0}`)
	<-entered
	paused := make(chan workflow.Run, 1)
	go func() {
		p, err := e.rt.Pause(ctx, r.ID)
		if err != nil {
			t.Error(err)
		}
		paused <- p
	}()
	testkit.WaitFor(t, testkit.Patience, "the pause to be requested", func() bool { return workflow.PauseRequested(e.rt, r.ID) })
	close(release)
	p := <-paused
	if p.Status != workflow.StatusPaused || cnt.get("after") != 0 {
		t.Fatalf("paused run: %s, after ran %d times", p.Status, cnt.get("after"))
	}
	if _, err := e.rt.Restart(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if r = wait(t, e.rt, r.ID); r.Status != workflow.StatusSuccess || cnt.get("gate") != 1 {
		t.Errorf("after restart: %s, gate ran %d times", r.Status, cnt.get("gate"))
	}
	if _, err := e.rt.Pause(ctx, r.ID); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("pause a finished run: %v", err)
	}
}

func TestSingleRunPerMemberSupersedesTheWaitingOne(t *testing.T) {
	e := newEnv(t)
	cnt := &counter{}
	e.register(t, e.rt, commit(t, workflow.New("weekly", "").Single().Then(askStep(cnt))))
	ctx := context.Background()
	old := wait(t, e.rt, start(t, e.rt, "weekly", "maya", `{}`).ID)
	other := wait(t, e.rt, start(t, e.rt, "weekly", "sam", `{}`).ID)
	fresh := wait(t, e.rt, start(t, e.rt, "weekly", "maya", `{}`).ID)
	old, _ = e.rt.Get(ctx, old.ID)
	other, _ = e.rt.Get(ctx, other.ID)
	if old.Status != workflow.StatusFailed || !strings.Contains(old.Error, "superseded") {
		t.Errorf("old run %s %q", old.Status, old.Error)
	}
	if fresh.Status != workflow.StatusSuspended || other.Status != workflow.StatusSuspended {
		t.Errorf("fresh %s, sam's %s", fresh.Status, other.Status)
	}
	if _, err := e.rt.Resume(ctx, old.ID, "ask", json.RawMessage(`{"choice":"same"}`)); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("answer to a superseded question: %v", err)
	}
}

// Complete commits a step's own write and its checkpoint together: when the
// transaction fails, neither is there and the step fails.
func TestCompleteCommitsTheWriteWithTheCheckpoint(t *testing.T) {
	e := newEnv(t)
	if _, err := e.db.Write.Exec(`CREATE TABLE notes (text TEXT NOT NULL CHECK (text <> 'bad'))`); err != nil {
		t.Fatal(err)
	}
	write := &workflow.Step{ID: "write", Run: func(ctx context.Context, c *workflow.Context) (any, error) {
		var in struct{ Text string }
		if err := c.Decode(&in); err != nil {
			return nil, err
		}
		out := map[string]string{"wrote": in.Text}
		err := e.db.Tx(ctx, func(tx *store.Tx) error {
			if err := c.Complete(ctx, tx, out); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO notes (text) VALUES (?)`, in.Text)
			return err
		})
		return out, err
	}}
	e.register(t, e.rt, commit(t, workflow.New("w", "").Then(write)))
	good := wait(t, e.rt, start(t, e.rt, "w", "maya", `{"text":"good"}`).ID)
	bad := wait(t, e.rt, start(t, e.rt, "w", "maya", `{"text":"bad"}`).ID)
	if good.Status != workflow.StatusSuccess || string(good.Output) != `{"wrote":"good"}` {
		t.Errorf("good: %s %s %s", good.Status, good.Output, good.Error)
	}
	rec, _ := bad.Step("write")
	if bad.Status != workflow.StatusFailed || rec.Status != workflow.StepFailed {
		t.Errorf("bad: %s, step %s", bad.Status, rec.Status)
	}
	var n int
	_ = e.db.Read.QueryRow(`SELECT count(*) FROM notes`).Scan(&n)
	if n != 1 {
		t.Errorf("%d notes, want 1", n)
	}
}

func TestListFiltersRuns(t *testing.T) {
	e := newEnv(t)
	cnt := &counter{}
	e.register(t, e.rt, commit(t, workflow.New("add", "").Then(addStep("one", 1, cnt))))
	e.register(t, e.rt, commit(t, workflow.New("ask", "").Then(askStep(cnt))))
	wait(t, e.rt, start(t, e.rt, "add", "maya", `{"n":1}`).ID)
	wait(t, e.rt, start(t, e.rt, "ask", "sam", `{}`).ID)
	ctx := context.Background()
	for f, want := range map[workflow.Filter]int{
		{}: 2, {Member: "sam"}: 1, {Workflow: "add"}: 1, {Status: workflow.StatusSuspended}: 1, {Status: workflow.StatusFailed}: 0,
	} {
		runs, err := e.rt.List(ctx, f)
		if err != nil || len(runs) != want {
			t.Errorf("List(%+v) = %d runs (%v), want %d", f, len(runs), err, want)
		}
	}
	if _, err := e.rt.List(ctx, workflow.Filter{Status: "bogus"}); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("unknown status: %v", err)
	}
	info := e.rt.Workflows()
	if len(info) != 2 || info[1].ID != "ask" || !info[1].Nodes[0].Suspends {
		t.Errorf("workflows %+v", info)
	}
}
