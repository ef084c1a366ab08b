package coach

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/internal/program"
	"hearth/internal/store"
)

var coachTools = []string{"get_weight_trend", "get_today_nutrition", "get_nutrition_history", "get_recent_workouts",
	"get_health_summary", "get_recent_meals", "get_body_composition", "get_history_summary", "get_user_goals", "calculate_goal_progress",
	"suggest_calorie_target", "calculate_remaining_macros", "get_fitness_content", "get_program_state",
	"update_program_state", "get_voice_memos", "get_prompt_responses", "write_dashboard", "log_coaching_note"}

// TestToolSchemasAreStrict: every coach tool has an object schema with all
// properties required and no others allowed (OpenAI strict mode).
func TestToolSchemasAreStrict(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	var names []string
	for _, fac := range NewTools(f.deps).All() {
		for _, tool := range fac.Tools() {
			names = append(names, tool.Name)
			p := tool.Parameters
			props, _ := p["properties"].(map[string]any)
			req, _ := p["required"].([]string)
			if p["type"] != "object" || p["additionalProperties"] != false || !slices.Equal(req, slices.Sorted(maps.Keys(props))) {
				t.Errorf("%s: schema is not strict: %v", tool.Name, p)
			}
			if tool.Description == "" {
				t.Errorf("%s has no description", tool.Name)
			}
		}
	}
	if !slices.Equal(names, coachTools) {
		t.Errorf("tools = %v, want %v", names, coachTools)
	}
	box, _ := f.orch.Toolbox(AgentID)
	for _, n := range []string{"remember", "forget"} {
		if !slices.Contains(box.Names(), n) {
			t.Errorf("the coach lacks the memory tool %s", n)
		}
	}
}

// TestToolsReadOnlyTheRunsMember: a model calling a tool with another
// member's name is refused by the schema, and every tool result of the run
// is the run's member's (a kiosk chat: the daily run offers the model no
// read tools, its gather phase read the facts).
func TestToolsReadOnlyTheRunsMember(t *testing.T) {
	f, srv := modelFixture(t)
	seedMaya(f)
	f.member(health.Member{ID: "bob", Name: "Bob"})
	f.meal("bob", 1, "BobsSecretStew", 900, 30)
	f.meal("maya", 0, "MayasOats", 400, 20)
	f.clk.Advance(10 * time.Hour)
	srv.Push(
		llmtest.Tool("get_recent_meals", `{"member":"bob","days":7,"limit":null}`),
		llmtest.Tool("get_recent_meals", `{"days":7,"limit":null}`),
		llmtest.Tool("get_weight_trend", `{}`),
		llmtest.Text("Oats this morning; your trend is down.", 100, 100),
	)
	r, err := f.orch.Run(f.ctx, agent.Request{Agent: AgentID, Member: "maya", Message: "What did I eat?", Chat: true,
		FromMember: true, Surface: agent.SurfaceKiosk})
	if err != nil {
		t.Fatal(err)
	}
	mustStatus(t, r, agent.StatusSucceeded)
	if len(r.ToolCalls) != 3 {
		t.Fatalf("tool calls %+v", r.ToolCalls)
	}
	if r.ToolCalls[0].Error == "" || !strings.Contains(r.ToolCalls[0].Error, "member") {
		t.Errorf("a call naming another member was not refused: %+v", r.ToolCalls[0])
	}
	for _, c := range r.ToolCalls {
		if strings.Contains(string(c.Result), "Bob") || strings.Contains(c.Error, "Bob") {
			t.Errorf("bob's data reached maya's run: %s", c.Result)
		}
	}
	if !strings.Contains(string(r.ToolCalls[1].Result), "MayasOats") {
		t.Errorf("maya's meals missing: %s", r.ToolCalls[1].Result)
	}
	var w WeightView
	if err := json.Unmarshal(r.ToolCalls[2].Result, &w); err != nil || w.Readings != 14 {
		t.Errorf("weight result %s is not maya's", r.ToolCalls[2].Result)
	}
	// The toolbox binds the scope: a direct call for bob reads bob.
	meals := f.tool("bob", "get_recent_meals", map[string]any{"days": 7, "limit": nil}).(map[string]any)["meals"].([]MealLine)
	if len(meals) != 1 || meals[0].Name != "BobsSecretStew" {
		t.Errorf("bob's own call: %+v", meals)
	}
}

func TestToolsOutsideAMemberRunAreRefused(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	box, _ := f.orch.Toolbox(AgentID)
	for _, n := range []string{"get_weight_trend", "get_program_state", "get_fitness_content", "log_coaching_note"} {
		args := map[string]json.RawMessage{
			"get_fitness_content": json.RawMessage(`{"kind":null,"program":null,"query":null,"max_duration":null,"limit":null}`),
			"log_coaching_note":   json.RawMessage(`{"note":"x"}`),
		}[n]
		if _, err := box.Call(f.ctx, agent.Scope{AgentID: AgentID}, n, args); err == nil || !strings.Contains(err.Error(), "not for one member") {
			t.Errorf("%s without a member: %v", n, err)
		}
	}
}

func TestUpdateProgramStateTool(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "ada", Name: "Ada"})
	call := func(args map[string]any) (ProgramView, error) {
		full := map[string]any{"action": nil, "program_id": nil, "start_date": nil, "pattern": nil, "day": nil,
			"original": nil, "actual": nil, "reason": nil, "note": nil}
		maps.Copy(full, args)
		raw, _ := json.Marshal(full)
		box, _ := f.orch.Toolbox(AgentID)
		st := agent.NewStager()
		scope := agent.Scope{AgentID: AgentID, MemberID: "ada", Now: f.clk.Now()}.WithStager(st)
		before, _ := f.progs.Current(f.ctx, "ada")
		if _, err := box.Call(f.ctx, scope, "update_program_state", raw); err != nil {
			return ProgramView{}, err
		}
		// Checked now, written only when the run commits.
		if now, _ := f.progs.Current(f.ctx, "ada"); now.UpdatedAt != before.UpdatedAt || now.ID != before.ID || st.Len() != 1 {
			t.Fatalf("%v: the tool wrote before the commit (or staged %d writes)", args["action"], st.Len())
		}
		if _, err := applyStaged(f.ctx, f.db, st); err != nil {
			return ProgramView{}, err
		}
		return NewTools(f.deps).c.programView(f.ctx, "ada", f.clk.Now())
	}
	if _, err := call(map[string]any{"action": "advance"}); err == nil || !strings.Contains(err.Error(), "advance refused: ada has no current program") {
		t.Fatalf("advance without a program: %v", err)
	}
	v, err := call(map[string]any{"action": "declare", "program_id": "ironwood-strength-6", "start_date": "monday", "pattern": "mon,wed,fri"})
	if err != nil || v.StartDate != "2026-02-23" || v.Today != string(program.DayNotStarted) {
		t.Fatalf("declare: %+v, %v", v, err)
	}
	if _, err := call(map[string]any{"action": "declare", "program_id": "nope"}); err == nil || !strings.Contains(err.Error(), "no program \"nope\"") {
		t.Errorf("unknown program: %v", err)
	}
	if v, err = call(map[string]any{"action": "advance"}); err != nil || v.Day != 2 {
		t.Fatalf("advance: %+v, %v", v, err)
	}
	if v, err = call(map[string]any{"action": "substitute", "day": 1, "actual": "30-min bike ride", "reason": "knee"}); err != nil ||
		len(v.Substitutions) != 1 || v.Substitutions[0].Original != "local:ironwood-foundation-a" {
		t.Fatalf("substitute: %+v, %v", v, err)
	}
	if v, err = call(map[string]any{"action": "pause", "note": "travel"}); err != nil || v.Status != "paused" {
		t.Fatalf("pause: %+v, %v", v, err)
	}
	if v, err = call(map[string]any{"action": "resume"}); err != nil || v.Status != "active" {
		t.Fatalf("resume: %+v, %v", v, err)
	}
	if v, err = call(map[string]any{"action": "complete"}); err != nil || v.Today != string(program.DayCompleted) {
		t.Fatalf("complete: %+v, %v", v, err)
	}
}

func TestWriteDashboardToolValidatesContent(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "ada", Name: "Ada"})
	box, _ := f.orch.Toolbox(AgentID)
	write := func(d dashboard.Document) error {
		st := agent.NewStager()
		scope := agent.Scope{AgentID: AgentID, MemberID: "ada", Now: f.clk.Now(), RunID: 0}.WithStager(st)
		raw, _ := json.Marshal(map[string]any{"document": d})
		if _, err := box.Call(f.ctx, scope, "write_dashboard", raw); err != nil {
			return err
		}
		_, err := applyStaged(f.ctx, f.db, st)
		return err
	}
	bad := modelDoc("local:ember-core-04", "Hollow Body Basics", 45, "Hi.")
	if err := write(bad); err == nil || !strings.Contains(err.Error(), "duration 45 does not match") {
		t.Fatalf("wrong duration accepted: %v", err)
	}
	ghost := modelDoc("local:ghost", "Ghost", 10, "Hi.")
	if err := write(ghost); err == nil || !strings.Contains(err.Error(), "not in the catalog") {
		t.Fatalf("unknown content accepted: %v", err)
	}
	if _, err := f.dash.Get(f.ctx, "ada", "2026-02-18"); err == nil {
		t.Fatal("a refused document was stored")
	}
	good := modelDoc("local:ember-core-04", "Hollow Body Basics", 16, "Hi.")
	if err := write(good); err != nil {
		t.Fatalf("valid document refused: %v", err)
	}
	if st := f.today("ada"); st.Document.Coach.Briefing != "Hi." || st.Sources != "coach tool" {
		t.Errorf("stored %+v", st)
	}
}

func TestLogCoachingNoteTool(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "ada", Name: "Ada"})
	box, _ := f.orch.Toolbox(AgentID)
	st := agent.NewStager()
	scope := agent.Scope{AgentID: AgentID, MemberID: "ada", RunID: 42, Now: f.clk.Now()}.WithStager(st)
	if _, err := box.Call(f.ctx, scope, "log_coaching_note", json.RawMessage(`{"note":"Responds well to direct feedback."}`)); err != nil {
		t.Fatal(err)
	}
	if notes, _ := Notes(f.ctx, f.db, "ada", 0); len(notes) != 0 {
		t.Fatalf("the note was written before the run committed: %+v", notes)
	}
	if _, err := applyStaged(f.ctx, f.db, st); err != nil {
		t.Fatal(err)
	}
	notes, err := Notes(f.ctx, f.db, "ada", 0)
	if err != nil || len(notes) != 1 || notes[0].Note != "Responds well to direct feedback." || notes[0].RunID != 42 {
		t.Fatalf("notes %+v, %v", notes, err)
	}
}

func TestAnalysisTools(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	birth := time.Date(1990, 5, 1, 0, 0, 0, 0, time.UTC)
	f.member(health.Member{ID: "ada", Name: "Ada", Sex: "female", HeightCm: ptr(168.0), BirthDate: &birth,
		ActivityLevel: "moderate", GoalWeightKg: ptr(65.0), Targets: health.Targets{Calories: ptr(1900.0), ProteinG: ptr(110.0)}})
	f.member(health.Member{ID: "bob", Name: "Bob"})
	f.weigh("ada", 1, 70)
	f.meal("ada", 0, "Oats", 400, 20)
	f.clk.Advance(10 * time.Hour)

	s := f.tool("ada", "suggest_calorie_target", map[string]any{"weight": nil}).(health.CalorieSuggestion)
	want, _ := health.SuggestCalorieTarget(health.Member{Sex: "female", HeightCm: ptr(168.0), BirthDate: &birth,
		ActivityLevel: "moderate", GoalWeightKg: ptr(65.0)}, 70, f.clk.Now())
	if s.Calories != want.Calories || s.Direction != health.DirectionLose {
		t.Errorf("calorie target %+v, want %+v", s, want)
	}
	box, _ := f.orch.Toolbox(AgentID)
	_, err := box.Call(f.ctx, agent.Scope{AgentID: AgentID, MemberID: "bob", Now: f.clk.Now()}, "suggest_calorie_target", json.RawMessage(`{"weight":80}`))
	if err == nil || !strings.Contains(err.Error(), "missing sex, height, birth date") {
		t.Errorf("incomplete profile: %v", err)
	}
	rem := f.tool("ada", "calculate_remaining_macros", map[string]any{"date": nil}).(map[string]any)
	if b := rem["remaining"].(health.MacroBudget); *b.Calories.Remaining != 1500 || *b.Protein.Remaining != 90 {
		t.Errorf("remaining %+v", b)
	}
	g := f.tool("ada", "calculate_goal_progress", map[string]any{"goal_weight": nil}).(GoalView)
	if g.Goal == nil || *g.Goal != 65 || g.ToGo == nil || *g.ToGo != -5 {
		t.Errorf("goal progress %+v", g)
	}
	c := f.tool("ada", "get_fitness_content", map[string]any{"kind": "yoga", "program": nil, "query": nil, "max_duration": 20, "limit": 3}).(ContentView)
	if len(c.Items) != 3 || !c.Truncated {
		t.Errorf("filtered content %+v", c.Items)
	}
	for _, it := range c.Items {
		if it.Kind != "yoga" || it.DurationMin > 20 {
			t.Errorf("filter let through %+v", it)
		}
	}
}

func TestNoModelReply(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	r, err := f.orch.Run(f.ctx, agent.Request{Agent: AgentID, Member: "maya", Message: "How is my weight doing?"})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := f.orch.Threads().Messages(f.ctx, *r.ThreadID, 0, 10)
	if err != nil || len(msgs) != 4 || msgs[1].ToolName != "get_weight_trend" || msgs[1].Content != "checked your weight trend" {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	w := f.tool("maya", "get_weight_trend", nil).(WeightView)
	reply := msgs[3].Content
	if !strings.Contains(reply, w.Text) || strings.Contains(reply, "Program:") || !strings.Contains(reply, replyNote) {
		t.Errorf("reply %q, want the weight summary %q only", reply, w.Text)
	}
}

// pubSpy records what was published.
type pubSpy struct {
	mu        sync.Mutex
	published []string
}

func (s *pubSpy) Publish(topic string, kind live.Kind, _ any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.published = append(s.published, topic+" "+string(kind))
}

// TestNewWiresToolsAndPublishesAfterCommit: New adds the scheduling tools
// it is given, and a run tells the member's screens once it committed.
func TestNewWiresToolsAndPublishesAfterCommit(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "ada", Name: "Ada"})
	spy := &pubSpy{}
	deps := f.deps
	deps.Dashboards = dashboard.NewStore(f.db, spy, time.UTC)
	deps.Schedule = agent.ToolFactoryFunc(func() []agent.Tool {
		return []agent.Tool{agent.NewTool("schedule_action", "Schedule.", func(context.Context, agent.Scope, noArgs) (string, error) { return "ok", nil })}
	})
	a := New(deps)
	a.ID = "coach-under-test"
	if err := f.orch.Register(a); err != nil {
		t.Fatal(err)
	}
	info, _ := f.orch.Agent("coach-under-test")
	if !slices.Contains(info.Tools, "schedule_action") || !slices.Contains(info.Tools, "remember") || len(info.Assignments) != 1 ||
		info.Assignments[0].Schedule != DailyDashboardSchedule {
		t.Fatalf("agent info %+v", info)
	}
	r, err := f.orch.Run(f.ctx, agent.Request{Agent: "coach-under-test", Assignment: DailyDashboardID, Member: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	mustStatus(t, r, agent.StatusSucceeded)
	if !slices.Equal(spy.published, []string{"member:ada dashboard"}) {
		t.Errorf("published %v, want the new document once", spy.published)
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
