package definition

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

func TestInvokeBuildsThePromptAndRecordsARun(t *testing.T) {
	f := newFixture(t)
	d := def("greeter", "agent:greeter\nYou greet members.")
	d.ContextTypes = []string{ContextMemberProfile, ContextDate}
	d.UserTemplate = "Greet {{user.name}} ({{member}}). They said: {{message}}. Week {{extras.week}}. Profile: {{member_profile}}"
	d.Model = "gpt-test"
	f.save(d)
	m := newFakeModel()
	m.reply("greeter", "  Hello Ada!  ")
	prev := []agent.Message{{Role: agent.RoleUser, Content: "earlier"}, {Role: agent.RoleAssistant, Content: "reply"}}
	res, err := f.runner(m).Invoke(context.Background(), "greeter", Params{Member: "ada", Message: "hi coach",
		PreviousMessages: prev, Extras: map[string]any{"week": 4}, Trigger: agent.TriggerManual})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "Hello Ada!" || res.Composed != "Hello Ada!" || res.Version != 1 {
		t.Fatalf("result = %+v", res)
	}
	req := m.requests("greeter")[0]
	for _, want := range []string{"You greet members.", "## Member profile\nMember ada, 36, rows twice a week.",
		"## Date context\nSaturday 14 February 2026, 09:00 (UTC)"} {
		if !strings.Contains(req.System, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, req.System)
		}
	}
	wantUser := "Greet Ada (ada). They said: hi coach. Week 4. Profile: Member ada, 36, rows twice a week."
	if len(req.Messages) != 3 || !reflect.DeepEqual(req.Messages[:2], prev) || req.Messages[2].Content != wantUser {
		t.Fatalf("messages = %+v", req.Messages)
	}
	if req.Model != "gpt-test" || req.MaxIterations != 4 || req.Output != nil || len(req.Tools) != 0 {
		t.Fatalf("request settings = %+v", req)
	}
	run := f.run(res.RunID)
	if run.Agent != "greeter" || run.Assignment != AssignmentInvoke || run.Member != "ada" || run.Trigger != agent.TriggerManual ||
		run.Status != agent.StatusSucceeded || run.Attempts != 1 || run.TokensIn != 10 || run.TokensOut != 5 ||
		run.Model != "gpt-test" || run.CostUSD == 0 || string(run.Output) != `"Hello Ada!"` ||
		run.Prompt == nil || run.Prompt.User != wantUser || run.StartedAt == nil || run.FinishedAt == nil {
		t.Fatalf("run = %+v", run)
	}
	// One run lifecycle, the engine's: queued → phases → succeeded, on the
	// admin and the member topics.
	var phases []string
	for _, p := range f.pub.kind("run") {
		if p.topic == "admin" {
			ev := p.data.(agent.RunEvent)
			phases = append(phases, string(ev.Status)+"/"+ev.Phase)
		}
	}
	if want := []string{"queued/", "running/reason", "running/validate", "running/act", "running/save_memory", "succeeded/"}; !reflect.DeepEqual(phases, want) {
		t.Fatalf("run events = %v, want %v", phases, want)
	}
}

func TestInvokeRefusesWhatCannotRun(t *testing.T) {
	f := newFixture(t)
	f.save(def("greeter", "agent:greeter"))
	m := newFakeModel()
	r := f.runner(m)
	ctx := context.Background()
	if _, err := r.Invoke(ctx, "nobody", Params{Member: "ada", Message: "x"}); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown agent: %v", err)
	}
	if _, err := r.Invoke(ctx, "greeter", Params{Member: "zed", Message: "x"}); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown member: %v", err)
	}
	if _, err := r.Invoke(ctx, "greeter", Params{Message: "x"}); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("no member: %v", err)
	}
	noModel := f.runnerOn(f.engine(nil, agent.Options{}))
	if _, err := noModel.Invoke(ctx, "greeter", Params{Member: "ada", Message: "x"}); !apperr.Is(err, apperr.Conflict) ||
		!strings.Contains(err.Error(), "no language model") {
		t.Fatalf("no model: %v", err)
	}
	// The engine's one budget: a run that spent a token exhausts a 1-token day.
	spentEngine := f.engine(m, agent.Options{Budget: agent.Budget{Tokens: 1}})
	spent := f.runnerOn(spentEngine)
	m.reply("greeter", "hello")
	if _, err := spent.Invoke(ctx, "greeter", Params{Member: "ada", Message: "x"}); err != nil {
		t.Fatalf("first invoke under budget: %v", err)
	}
	if _, err := spent.Invoke(ctx, "greeter", Params{Member: "ada", Message: "x"}); !apperr.Is(err, apperr.Conflict) ||
		!strings.Contains(err.Error(), "budget") {
		t.Fatalf("budget spent: %v", err)
	}
	// Nothing to send is a definition error, recorded as a failed run.
	res, err := r.Invoke(ctx, "greeter", Params{Member: "ada"})
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "nothing to send") {
		t.Fatalf("empty message: %v", err)
	}
	if run := f.run(res.RunID); run.Status != agent.StatusFailed || !strings.Contains(run.Error, "nothing to send") {
		t.Fatalf("run = %+v", run)
	}
}

func TestInvokeResolvesContextTypesInParallel(t *testing.T) {
	f := newFixture(t)
	b := newBarrier(2)
	f.reg.Contexts["slow_a"] = func(ctx context.Context, _ string) (string, error) {
		if !b.wait(ctx) {
			return "", context.DeadlineExceeded
		}
		return "A", nil
	}
	f.reg.Contexts["slow_b"] = func(ctx context.Context, _ string) (string, error) {
		if !b.wait(ctx) {
			return "", context.DeadlineExceeded
		}
		return "B", nil
	}
	f.repo = NewRepo(f.db, f.reg)
	d := def("ctx", "agent:ctx")
	d.ContextTypes = []string{"slow_a", "slow_b"}
	d.UserTemplate = "{{slow_a}}{{slow_b}}"
	f.save(d)
	m := newFakeModel()
	m.reply("ctx", "ok")
	if _, err := f.runner(m).Invoke(context.Background(), "ctx", Params{Member: "ada"}); err != nil {
		t.Fatalf("contexts did not resolve at the same time: %v", err)
	}
	req := m.requests("ctx")[0]
	if req.Messages[0].Content != "AB" || !strings.Contains(req.System, "## Slow a\nA\n\n## Slow b\nB") {
		t.Fatalf("request = %+v", req)
	}
}

func TestInvokeFailsOnDefinitionErrorsAtRunTime(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	// A tool that was removed from the registry after the definition was saved.
	d := def("tooly", "agent:tooly")
	d.ToolIDs = []string{"get_weight"}
	f.save(d)
	f.force(func() Definition { d := d; d.ToolIDs = []string{"get_weight", "gone_tool"}; return d }())
	m := newFakeModel()
	m.reply("tooly", "x")
	res, err := f.runner(m).Invoke(ctx, "tooly", Params{Member: "ada", Message: "go"})
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), `unknown tool "gone_tool"`) {
		t.Fatalf("unknown tool: %v", err)
	}
	if run := f.run(res.RunID); run.Status != agent.StatusFailed || !strings.Contains(run.Error, "gone_tool") {
		t.Fatalf("run = %+v", run)
	}
	// A template variable with no value at run time.
	tm := def("templ", "agent:templ")
	tm.UserTemplate = "{{extras.week}} {{input.x}}"
	f.save(tm)
	_, err = f.runner(m).Invoke(ctx, "templ", Params{Member: "ada", Message: "x"})
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "no value for {{extras.week}}, {{input.x}}") {
		t.Fatalf("missing variables: %v", err)
	}
}

func TestSubAgentBatchesRunInParallelAndInOrder(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	obj := map[string]any{"type": "object"}
	for _, id := range []string{"left", "right", "after"} {
		d := def(id, "agent:"+id)
		d.OutputSchema = obj
		f.save(d)
	}
	parent := def("parent", "agent:parent")
	parent.OutputSchema = obj
	parent.SubAgents = []SubAgent{
		{Batch: 1, Key: "summary", AgentID: "after", Input: map[string]any{"l": "$result.left.side", "r": "$result.right.side"}},
		{Batch: 0, Key: "left", AgentID: "left", Input: map[string]any{"overview": "$result.overview"}},
		{Batch: 0, Key: "right", AgentID: "right", Input: "$result.overview"},
	}
	f.save(parent)

	m := newFakeModel()
	m.reply("parent", `{"overview": "three days"}`)
	b := newBarrier(2)
	var mu sync.Mutex
	spans := map[string][2]time.Time{}
	side := func(id string) func(ctx context.Context, req agent.ModelRequest) (string, error) {
		return func(ctx context.Context, req agent.ModelRequest) (string, error) {
			start := time.Now()
			met := b.wait(ctx)
			mu.Lock()
			spans[id] = [2]time.Time{start, time.Now()}
			mu.Unlock()
			if !met {
				return `{"side": "alone"}`, nil
			}
			return `{"side": "` + id + `"}`, nil
		}
	}
	m.on("left", side("left"))
	m.on("right", side("right"))
	m.on("after", func(_ context.Context, req agent.ModelRequest) (string, error) {
		mu.Lock()
		spans["after"] = [2]time.Time{time.Now(), time.Now()}
		mu.Unlock()
		return `{"seen": ` + req.Messages[0].Content + `}`, nil
	})
	res, err := f.runner(m).Invoke(ctx, "parent", Params{Member: "ada", Message: "plan my week"})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Composed.(map[string]any)
	if c["overview"] != "three days" || c["left"].(map[string]any)["side"] != "left" || c["right"].(map[string]any)["side"] != "right" {
		t.Fatalf("composed = %v (the batch-0 sub-agents did not overlap)", c)
	}
	// Batch 1 starts after both batch-0 agents finished and sees their results.
	if s := spans["after"][0]; s.Before(spans["left"][1]) || s.Before(spans["right"][1]) {
		t.Fatalf("batch 1 started before batch 0 ended: %v", spans)
	}
	if !reflect.DeepEqual(c["summary"], map[string]any{"seen": map[string]any{"l": "left", "r": "right"}}) {
		t.Fatalf("summary = %v", c["summary"])
	}
	// The sub-agents got their mapped inputs as JSON / text.
	if got := m.requests("left")[0].Messages[0].Content; got != "{\n  \"overview\": \"three days\"\n}" {
		t.Fatalf("left input = %q", got)
	}
	if got := m.requests("right")[0].Messages[0].Content; got != "three days" {
		t.Fatalf("right input = %q", got)
	}
	if len(res.Steps) != 4 || res.Steps[0].AgentID != "parent" || res.Steps[3].Key != "summary" || res.Steps[3].Depth != 1 {
		t.Fatalf("steps = %+v", res.Steps)
	}
	if run := f.run(res.RunID); run.Attempts != 4 || run.TokensIn != 40 {
		t.Fatalf("run usage = %d attempts, %d tokens in", run.Attempts, run.TokensIn)
	}
}

func TestSubAgentConditionSkips(t *testing.T) {
	f := newFixture(t)
	obj := map[string]any{"type": "object"}
	s := def("structured", "agent:structured")
	s.OutputSchema = obj
	f.save(s)
	p := def("profile", "agent:profile")
	p.OutputSchema = obj
	p.SubAgents = []SubAgent{{Key: "structured", AgentID: "structured", Condition: []Rule{{Path: "wasUpdated", Op: OpTruthy}}}}
	f.save(p)
	m := newFakeModel()
	m.reply("structured", `{"fields": 3}`)
	r := f.runner(m)

	m.reply("profile", `{"wasUpdated": false, "profile": "same"}`)
	res, err := r.Invoke(context.Background(), "profile", Params{Member: "ada", Message: "no news"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ran := res.Composed.(map[string]any)["structured"]; ran || len(m.requests("structured")) != 0 {
		t.Fatalf("skipped sub-agent ran: %v", res.Composed)
	}
	if st := res.Steps[1]; !st.Skipped || st.Key != "structured" || !strings.Contains(strings.Join(st.Notes, " "), `"wasUpdated" must be set`) {
		t.Fatalf("skip step = %+v", st)
	}

	m.reply("profile", `{"wasUpdated": true, "profile": "new"}`)
	res, err = r.Invoke(context.Background(), "profile", Params{Member: "ada", Message: "I moved"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Composed.(map[string]any)["structured"]; !reflect.DeepEqual(got, map[string]any{"fields": 3.0}) {
		t.Fatalf("structured = %v", got)
	}
}

func TestSubAgentDepthLimitAndCyclesAtRunTime(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	m := newFakeModel()
	// A chain six levels deep, written by hand past validation.
	for i := 0; i <= MaxDepth+1; i++ {
		id := "d" + string(rune('0'+i))
		d := def(id, "agent:"+id)
		if i <= MaxDepth {
			d.SubAgents = []SubAgent{{Key: "next", AgentID: "d" + string(rune('1'+i))}}
		}
		f.force(d)
		m.reply(id, "level "+id)
	}
	_, err := f.runner(m).Invoke(ctx, "d0", Params{Member: "ada", Message: "go"})
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "deeper than 5 levels: d0 → d1 → d2 → d3 → d4 → d5 → d6") {
		t.Fatalf("depth: %v", err)
	}
	// Five levels is fine.
	res, err := f.runner(m).Invoke(ctx, "d1", Params{Member: "ada", Message: "go"})
	if err != nil {
		t.Fatalf("five levels: %v", err)
	}
	deepest, _ := Lookup(res.Composed, "next.next.next.next.next")
	if deepest != "level d6" {
		t.Fatalf("deepest = %v in %v", deepest, res.Composed)
	}

	// A cycle, written by hand.
	a := def("cyc-a", "agent:cyc-a")
	a.SubAgents = []SubAgent{{Key: "b", AgentID: "cyc-b"}}
	b := def("cyc-b", "agent:cyc-b")
	b.SubAgents = []SubAgent{{Key: "a", AgentID: "cyc-a"}}
	f.force(a)
	f.force(b)
	m.reply("cyc-a", "a")
	m.reply("cyc-b", "b")
	res, err = f.runner(m).Invoke(ctx, "cyc-a", Params{Member: "ada", Message: "go"})
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "cycle: cyc-a → cyc-b → cyc-a") {
		t.Fatalf("cycle: %v", err)
	}
	if run := f.run(res.RunID); run.Status != agent.StatusFailed {
		t.Fatalf("cycle run = %s", run.Status)
	}
}

func TestHooksFireAroundAgentsToolsAndSubAgents(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	obj := map[string]any{"type": "object"}
	child := def("child", "agent:child")
	child.OutputSchema = obj
	f.save(child)
	d := def("hooked", "agent:hooked")
	d.OutputSchema = obj
	d.ToolIDs = []string{"send_update", "remember"}
	d.Hooks = Hooks{Before: []HookRef{{Hook: "notify", Source: "message"}}, After: []HookRef{{Hook: "log_note", Source: "summary"}, {Hook: "broken"}}}
	d.ToolHooks = map[string]Hooks{"send_update": {
		Before: []HookRef{{Hook: "trace", Source: "args.message"}, {Hook: "notify", Source: "args.message"}},
		After:  []HookRef{{Hook: "trace", Source: "result.sent"}},
	}}
	d.SubAgents = []SubAgent{{Key: "child", AgentID: "child", After: []HookRef{{Hook: "notify", Source: "tip"}, {Hook: "trace", Source: "nope"}}}}
	f.save(d)
	m := newFakeModel()
	m.on("hooked", func(ctx context.Context, req agent.ModelRequest) (string, error) {
		if _, err := req.CallTool(ctx, "send_update", json.RawMessage(`{"message":"On it, one moment."}`)); err != nil {
			return "", err
		}
		if _, err := req.CallTool(ctx, "remember", json.RawMessage(`{"key":"mood","value":"upbeat","ttl_hours":0}`)); err != nil {
			return "", err
		}
		if _, err := req.CallTool(ctx, "get_weight", nil); err == nil {
			t.Error("a tool outside the definition's tool ids was callable")
		}
		return `{"summary": "Asked for an update."}`, nil
	})
	m.reply("child", `{"tip": "Drink water."}`)
	res, err := f.runner(m).Invoke(ctx, "hooked", Params{Member: "ada", Message: "how am I doing?"})
	if err != nil {
		t.Fatal(err)
	}
	// Tool hooks wrap the tool's execution.
	if got := f.tools.all(); !reflect.DeepEqual(got, []string{"hook before_tool On it, one moment.", "exec send_update", "hook after_tool true"}) {
		t.Fatalf("tool order = %v", got)
	}
	var notices []string
	for _, p := range f.pub.kind(string(NotifyKind)) {
		if p.topic != "member:ada" {
			t.Errorf("notify topic = %s", p.topic)
		}
		notices = append(notices, p.data.(Notification).Message)
	}
	if !reflect.DeepEqual(notices, []string{"how am I doing?", "On it, one moment.", "Drink water."}) {
		t.Fatalf("notifications = %v", notices)
	}
	if got := f.notes.all(); !reflect.DeepEqual(got, []string{"ada/hooked: Asked for an update."}) {
		t.Fatalf("notes = %v", got)
	}
	notes := strings.Join(append(res.Steps[0].Notes, res.Steps[1].Notes...), "\n")
	for _, want := range []string{"hook broken (after_agent) failed: hook exploded", `hook trace (after_sub_agent): nothing at source "nope"`} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// The remember tool wrote working memory, saved with the run.
	mem, err := agent.NewMemoryStore(f.db, nil).Load(ctx, "hooked", "ada")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := mem.Get("mood"); !ok || v != "upbeat" {
		t.Fatalf("memory mood = %q, %v", v, ok)
	}
	if run := f.run(res.RunID); run.Status != agent.StatusSucceeded {
		t.Fatalf("run = %+v", run)
	}
}

func TestWorkingMemoryContext(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := agent.NewMemoryStore(f.db, nil).Set(ctx, "mem-agent", "ada", "knee", "sore left knee", 0, agent.AdminActor("t")); err != nil {
		t.Fatal(err)
	}
	d := def("mem-agent", "agent:mem-agent")
	d.ContextTypes = []string{ContextWorkingMemory}
	f.save(d)
	m := newFakeModel()
	m.reply("mem-agent", "noted")
	if _, err := f.runner(m).Invoke(ctx, "mem-agent", Params{Member: "ada", Message: "hi"}); err != nil {
		t.Fatal(err)
	}
	if sys := m.requests("mem-agent")[0].System; !strings.Contains(sys, "## Working memory") || !strings.Contains(sys, "sore left knee") {
		t.Fatalf("system = %s", sys)
	}
}

func TestInvokesOfOneAgentAndMemberMayOverlap(t *testing.T) {
	f := newFixture(t)
	f.save(def("greeter", "agent:greeter"))
	b := newBarrier(2)
	m := newFakeModel()
	m.on("greeter", func(ctx context.Context, _ agent.ModelRequest) (string, error) {
		if !b.wait(ctx) {
			return "", context.DeadlineExceeded
		}
		return "hi", nil
	})
	r := f.runner(m)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = r.Invoke(context.Background(), "greeter", Params{Member: "ada", Message: "hello"})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("overlapping invokes: %v", err)
		}
	}
}

func TestSubAgentTemplateUsesItsMappedInput(t *testing.T) {
	f := newFixture(t)
	f.save(def("plan-message", "agent:plan-message"))
	parent := def("plan-generate", "agent:plan-generate")
	parent.OutputSchema = map[string]any{"type": "object"}
	parent.SubAgents = []SubAgent{{Key: "message", AgentID: "plan-message",
		Input: map[string]any{"userName": "$user.name", "overview": "$result.overview", "asked": "$parentInput", "missing": "$extras.nope"}}}
	f.save(parent)
	child := def("plan-message", "agent:plan-message")
	child.UserTemplate = "Name: {{userName}}\nPlan: {{overview}}\nWeek {{extras.week}}; asked: {{input.asked}}; member said: {{message}}"
	f.save(child)
	m := newFakeModel()
	m.reply("plan-generate", `{"overview": "Three strength days."}`)
	m.reply("plan-message", "Hi Ada, your plan is ready.")
	res, err := f.runner(m).Invoke(context.Background(), "plan-generate", Params{Member: "ada", Message: "make me a plan",
		Extras: map[string]any{"week": 2}})
	if err != nil {
		t.Fatal(err)
	}
	want := "Name: Ada\nPlan: Three strength days.\nWeek 2; asked: make me a plan; member said: make me a plan"
	if got := m.requests("plan-message")[0].Messages[0].Content; got != want {
		t.Fatalf("sub-agent message = %q, want %q", got, want)
	}
	if got := res.Composed.(map[string]any)["message"]; got != "Hi Ada, your plan is ready." {
		t.Fatalf("composed message = %v", got)
	}
	if notes := strings.Join(res.Steps[1].Notes, ";"); !strings.Contains(notes, "$extras.nope not found") {
		t.Fatalf("missing input reference not noted: %q", notes)
	}
}

// Definitions run on the engine: its one model-call limit covers their
// parallel sub-agents too (the runner used to have its own limit of 4).
func TestInvokesShareTheEnginesModelLimit(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c"} {
		f.save(def("leaf-"+id, "agent:leaf-"+id))
	}
	parent := def("fan", "agent:fan")
	parent.SubAgents = []SubAgent{{Key: "a", AgentID: "leaf-a"}, {Key: "b", AgentID: "leaf-b"}, {Key: "c", AgentID: "leaf-c"}}
	f.save(parent)
	m := newFakeModel()
	m.reply("fan", "go")
	var mu sync.Mutex
	inFlight, most := 0, 0
	for _, id := range []string{"a", "b", "c"} {
		m.on("leaf-"+id, func(context.Context, agent.ModelRequest) (string, error) {
			mu.Lock()
			inFlight++
			most = max(most, inFlight)
			mu.Unlock()
			time.Sleep(30 * time.Millisecond)
			mu.Lock()
			inFlight--
			mu.Unlock()
			return id, nil
		})
	}
	r := f.runnerOn(f.engine(m, agent.Options{MaxConcurrentModelCalls: 1}))
	if _, err := r.Invoke(ctx, "fan", Params{Member: "ada", Message: "go"}); err != nil {
		t.Fatal(err)
	}
	if most != 1 {
		t.Fatalf("%d model calls at once, want the engine's limit of 1", most)
	}
}

// A failed invoke applies nothing its tools staged: the model remembered
// something and then never produced valid output.
func TestFailedInvokeAppliesNoStagedWrites(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	d := def("forgetful", "agent:forgetful")
	d.OutputSchema = map[string]any{"type": "object", "required": []any{"ok"}}
	d.ToolIDs = []string{"remember"}
	d.MaxRetries = 1
	f.save(d)
	m := newFakeModel()
	m.on("forgetful", func(ctx context.Context, req agent.ModelRequest) (string, error) {
		if _, err := req.CallTool(ctx, "remember", json.RawMessage(`{"key":"mood","value":"grumpy","ttl_hours":0}`)); err != nil {
			return "", err
		}
		return `{"nope": true}`, nil
	})
	res, err := f.runner(m).Invoke(ctx, "forgetful", Params{Member: "ada", Message: "hi"})
	if err == nil || !strings.Contains(err.Error(), "still invalid after 2 attempts") {
		t.Fatalf("invoke: %v", err)
	}
	mem, err := agent.NewMemoryStore(f.db, nil).Load(ctx, "forgetful", "ada")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := mem.Get("mood"); ok {
		t.Fatalf("a failed invoke saved the model's memory write %q", v)
	}
	run := f.run(res.RunID)
	if run.Status != agent.StatusFailed || len(run.Effects) != 1 || run.Effects[0].Outcome != agent.EffectDiscarded {
		t.Fatalf("run = %s, effects %+v; want failed with the staged write discarded", run.Status, run.Effects)
	}
}

// Placeholders in the system prompt are expanded like the template's, so
// none reaches the model as written.
func TestSystemPromptPlaceholdersAreExpanded(t *testing.T) {
	f := newFixture(t)
	d := def("greeter", "agent:greeter\nYou coach {{user.name}} ({{member}}).")
	f.save(d)
	m := newFakeModel()
	m.reply("greeter", "hi")
	if _, err := f.runner(m).Invoke(context.Background(), "greeter", Params{Member: "ada", Message: "hello"}); err != nil {
		t.Fatal(err)
	}
	if sys := m.requests("greeter")[0].System; !strings.Contains(sys, "You coach Ada (ada).") || strings.Contains(sys, "{{") {
		t.Fatalf("system prompt sent: %q", sys)
	}
}

// Without a model an invoke runs on the agents' heuristics (when each has
// one), is recorded as the heuristic's, and says so.
func TestInvokeWithoutAModelUsesTheHeuristic(t *testing.T) {
	f := newFixture(t)
	f.save(def("greeter", "agent:greeter\nYou greet."))
	var got struct{ user string }
	r, err := NewInvoker(f.repo, f.engine(nil, agent.Options{}), Options{Heuristics: map[string]Heuristic{
		"greeter": func(_ context.Context, s agent.Scope, _, user string, structured bool) (string, error) {
			got.user = user
			if structured || s.MemberID != "ada" {
				t.Errorf("heuristic scope %+v structured=%v", s, structured)
			}
			return "Hello from the heuristic", nil
		}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Invoke(context.Background(), "greeter", Params{Member: "ada", Message: "hi there", Trigger: agent.TriggerManual})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Heuristic || res.Output != "Hello from the heuristic" || got.user != "hi there" {
		t.Fatalf("result %+v (heuristic saw %q)", res, got.user)
	}
	if len(res.Steps) != 1 || !slices.Contains(res.Steps[0].Notes, HeuristicNote) {
		t.Fatalf("steps %+v", res.Steps)
	}
	if run := f.run(res.RunID); run.Status != agent.StatusSucceeded || run.Model != "heuristic" {
		t.Fatalf("run %+v", run)
	}
	// An agent without one is still refused with the clear message.
	f.save(def("other", "agent:other\nYou answer."))
	if _, err := r.Invoke(context.Background(), "other", Params{Member: "ada", Message: "x"}); !apperr.Is(err, apperr.Conflict) ||
		!strings.Contains(err.Error(), "no language model") {
		t.Fatalf("no heuristic: %v", err)
	}
}
