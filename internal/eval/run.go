package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/store"
)

// Options configure a suite run.
type Options struct {
	// Factory builds each scenario's Hearth. Required.
	Factory Factory
	// Parallel is how many scenarios run at once (default 2). With a model,
	// keep it within HEARTH_MODEL_CONCURRENCY (the instances share the
	// model-call slots anyway).
	Parallel int
	// Definition, when set, is saved as the coach's current definition in
	// every instance before the scenario is seeded; DefinitionLabel names
	// it in the report ("v7 (draft)"). Nil: the code defaults.
	Definition      *definition.Definition
	DefinitionLabel string
	// Judge, when set, scores each final plan's tone and helpfulness.
	Judge *Judge
	// Progress is called after each scenario (from the goroutine that ran it).
	Progress func(done, total int, r ScenarioResult)
	// TempDir holds the scenarios' databases while they run (default the
	// system's); each is removed afterwards.
	TempDir string
}

// Run runs every scenario in its own fresh Hearth, grades the plans and
// returns the report. A scenario that cannot be set up is reported with
// its error; the context ends the run early (the scenarios not run are
// left out).
func Run(ctx context.Context, scenarios []*Scenario, opts Options) (*Report, error) {
	if opts.Factory == nil {
		return nil, errors.New("eval: a Factory is required")
	}
	gr, err := NewGrader()
	if err != nil {
		return nil, err
	}
	par := opts.Parallel
	if par <= 0 {
		par = 2
	}
	rep := &Report{StartedAt: time.Now().UTC(), Parallel: par, Definition: "code defaults"}
	if opts.Definition != nil {
		rep.Definition = opts.DefinitionLabel
	}
	if opts.Judge != nil {
		rep.JudgeModel = opts.Judge.Model
	}
	results := make([]ScenarioResult, len(scenarios))
	ran := make([]bool, len(scenarios))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				res := runScenario(ctx, scenarios[i], opts, gr)
				mu.Lock()
				results[i], ran[i] = res, true
				done++
				n := done
				if rep.Runtime == "" {
					rep.Runtime = res.Run.Runtime
				}
				mu.Unlock()
				if opts.Progress != nil {
					opts.Progress(n, len(scenarios), res)
				}
			}
		}()
	}
feed:
	for i := range scenarios {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	for i, ok := range ran {
		if ok {
			rep.Scenarios = append(rep.Scenarios, results[i])
		}
	}
	rep.FinishedAt = time.Now().UTC()
	rep.summarize()
	if ctx.Err() != nil {
		return rep, ctx.Err()
	}
	return rep, nil
}

// runScenario builds a fresh Hearth, seeds the scenario, runs the daily
// dashboard for its subject through the orchestrator and grades the
// outcome.
func runScenario(ctx context.Context, sc *Scenario, opts Options, gr *Grader) (res ScenarioResult) {
	res = ScenarioResult{ID: sc.ID, Title: sc.Title, Covers: sc.Covers}
	fail := func(err error) ScenarioResult {
		res.Error = err.Error()
		res.Passed = false
		return res
	}
	dir, err := os.MkdirTemp(opts.TempDir, "hearth-eval-"+sc.ID+"-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	clk := &Clock{}
	clk.Set(sc.today.Add(-seedLead))
	inst, err := opts.Factory(ctx, InstanceSpec{Dir: dir, Location: sc.loc, Now: clk.Now, BudgetTokens: sc.BudgetTokens})
	if err != nil {
		return fail(fmt.Errorf("build: %w", err))
	}
	defer func() {
		if err := inst.Close(); err != nil && res.Error == "" {
			res.Error = "close: " + err.Error()
		}
	}()
	if opts.Definition != nil {
		if _, err := inst.Definitions.Save(ctx, *opts.Definition, "eval", "definition under evaluation"); err != nil {
			return fail(fmt.Errorf("definition: %w", err))
		}
	}
	setup, err := seed(ctx, sc, inst, clk)
	if err != nil {
		return fail(fmt.Errorf("seed: %w", err))
	}
	for _, r := range setup {
		res.SetupTokens += r.TokensIn + r.TokensOut
		res.SetupCostUSD += r.CostUSD
	}
	facts, err := gatherFacts(ctx, sc, inst)
	if err != nil {
		return fail(fmt.Errorf("facts: %w", err))
	}
	start := time.Now()
	run, err := inst.Agents.Run(ctx, agent.Request{Agent: coach.AgentID,
		Assignment: coach.DailyDashboardID, Member: sc.Subject, Trigger: agent.TriggerSchedule})
	if err != nil {
		return fail(fmt.Errorf("run: %w", err))
	}
	res.Run = runInfo(run, time.Since(start))
	res.Run.Runtime = inst.Runtime
	// What the model was told is fact too: the prompt and its tool results.
	if run.Prompt != nil {
		facts.Numbers.AddText(run.Prompt.System)
		facts.Numbers.AddText(run.Prompt.User)
	}
	for _, tc := range run.ToolCalls {
		facts.Numbers.AddJSON(tc.Result)
	}
	for _, a := range run.ValidationErrors {
		if a.Output != "" {
			res.Outputs = append(res.Outputs, gr.Grade(ParsePlan(a.Output, a.Source), facts))
		}
	}
	var final *Plan
	if len(run.Output) > 0 {
		p := ParsePlan(string(run.Output), outputSource(run))
		res.Outputs = append(res.Outputs, gr.Grade(p, facts))
	}
	if run.Status == agent.StatusSucceeded || run.Status == agent.StatusFellBack {
		st, err := inst.Dashboards.Get(ctx, sc.Subject, sc.today.Format(time.DateOnly))
		if err != nil {
			return fail(fmt.Errorf("the run %s but today's plan cannot be read: %w", run.Status, err))
		}
		raw, err := json.Marshal(st.Document)
		if err != nil {
			return fail(err)
		}
		p := ParsePlan(string(raw), "stored")
		final = &p
		res.Document = raw
	}
	after, err := afterState(ctx, sc, inst, run)
	if err != nil {
		return fail(fmt.Errorf("state after the run: %w", err))
	}
	after.Chat = chatReplies(setup, sc.Subject)
	res.Checks = grade(sc, gr, final, facts, after, inst.Runtime == RuntimeHeuristic)
	res.Passed = true
	for _, c := range res.Checks {
		if c.Status == StatusFail {
			res.Passed = false
		}
	}
	if opts.Judge != nil && final != nil {
		res.Judge = opts.Judge.Score(ctx, sc, final.Raw)
	}
	return res
}

// chatReplies are the coach's replies to member's chat turns among runs.
func chatReplies(runs []agent.Run, member string) []string {
	var out []string
	for _, r := range runs {
		if r.Assignment != "" || r.ThreadID == nil || r.Member != member {
			continue
		}
		var o struct {
			Reply string `json:"reply"`
		}
		if json.Unmarshal(r.Output, &o) == nil && o.Reply != "" {
			out = append(out, o.Reply)
		}
	}
	return out
}

// outputSource says where a run's accepted output came from.
func outputSource(r agent.Run) string {
	switch {
	case r.ReusedFrom != nil:
		return agent.SourceReuse
	case r.FallbackReason != "" || r.Model == "heuristic":
		return agent.SourceHeuristic
	}
	return agent.SourceModel
}

func runInfo(r agent.Run, took time.Duration) RunInfo {
	info := RunInfo{ID: r.ID, Status: string(r.Status), Model: r.Model, FallbackReason: r.FallbackReason, Error: r.Error,
		Attempts: r.Attempts, TokensIn: r.TokensIn, TokensOut: r.TokensOut, CostUSD: r.CostUSD,
		LatencyMS: float64(took.Microseconds()) / 1000}
	for _, a := range r.ValidationErrors {
		if a.Source == agent.SourceModel {
			info.Retries++
		}
	}
	return info
}

// grade runs the generic graders on the plan the member sees and the
// scenario's expectations.
func grade(sc *Scenario, gr *Grader, final *Plan, facts Facts, after After, heuristicOnly bool) []CheckResult {
	runtime := RuntimeModel
	if heuristicOnly {
		runtime = RuntimeHeuristic
	}
	// Known gaps are the heuristic coach's: they excuse its plans (also as
	// a model's fallback), while a model's plan is held to every rule.
	excused := outputSource(after.Run) == agent.SourceHeuristic
	var out []CheckResult
	outcome := func(name, detail, why, gap, only string) {
		c := CheckResult{Name: name, Why: why, KnownGap: gap, Detail: detail}
		switch {
		case only != "" && only != runtime:
			c.Status, c.Detail = StatusSkip, "for the "+only+" runtime only"
		case detail == "" && gap != "":
			c.Status = StatusGapMet
		case detail == "":
			c.Status = StatusPass
		case gap != "":
			c.Status = StatusGap
		default:
			c.Status = StatusFail
		}
		if c.Status == StatusGap || c.Status == StatusGapMet {
			c.KnownGap = gap
		}
		out = append(out, c)
	}
	var pg PlanGrade
	if final != nil {
		pg = gr.Grade(*final, facts)
	}
	for _, g := range GenericGraders() {
		detail := "no plan was written"
		if final != nil {
			r := pg.Result(g)
			detail = strings.Join(r.Problems, "; ")
		}
		gap := ""
		if excused {
			gap = sc.KnownGaps[g]
		}
		outcome(g, detail, "", gap, "")
	}
	var d *dashboard.Document
	if final != nil {
		d = final.Doc
	}
	for i := range sc.Expect {
		e := &sc.Expect[i]
		gap := ""
		if excused {
			gap = e.KnownGap
		}
		outcome(e.Label(), e.evaluate(d, facts.Catalog, after), e.Why, gap, e.Runtime)
	}
	return out
}

// gatherFacts collects what the run will be graded against, before it
// runs: the coach's gathered data (through its own gather, on the same
// tools, memory and clock as the run), the catalog, and the truth of the
// member's records.
func gatherFacts(ctx context.Context, sc *Scenario, inst *Instance) (Facts, error) {
	f := Facts{Member: sc.Subject, Numbers: NewNumbers(), Catalog: map[string]content.Item{}}
	m, err := inst.DB.Member(ctx, sc.Subject)
	if err != nil {
		return f, err
	}
	f.Unit = m.Unit
	items, err := inst.Catalog.List(ctx, content.Filter{Limit: content.MaxLimit})
	if err != nil {
		return f, err
	}
	for _, it := range items {
		f.Catalog[it.ID] = it
	}
	box, err := inst.Agents.Toolbox(coach.AgentID)
	if err != nil {
		return f, err
	}
	mem, err := inst.Agents.Memory().Load(ctx, coach.AgentID, sc.Subject)
	if err != nil {
		return f, err
	}
	mem.Prune()
	dd := coach.NewDailyDashboard(coach.Deps{DB: inst.DB, Catalog: inst.Catalog, Programs: inst.Programs,
		Dashboards: inst.Dashboards, Location: sc.loc})
	g, err := dd.Gather(ctx, &agent.Env{Scope: agent.Scope{AgentID: coach.AgentID, MemberID: sc.Subject, Now: sc.today, Memory: mem},
		Memory: mem, Tools: box})
	if err != nil {
		return f, err
	}
	raw, err := json.Marshal(g)
	if err != nil {
		return f, err
	}
	f.Numbers.AddJSON(raw)
	f.Truth, err = truthOf(ctx, sc, inst)
	return f, err
}

// truthOf reads the member's records around today.
func truthOf(ctx context.Context, sc *Scenario, inst *Instance) (Truth, error) {
	t := Truth{Now: sc.today, FinishedToday: map[string]bool{}}
	member, db := sc.Subject, inst.DB
	yesterday, today, now := sc.dayStart(1), sc.dayStart(0), sc.today.Add(time.Second)
	ws, err := db.Weights(ctx, member, store.Range{To: now, Desc: true, Limit: 1})
	if err != nil {
		return t, err
	}
	if len(ws) > 0 {
		at := ws[0].MeasuredAt
		t.LastWeighIn = &at
		if !at.Before(yesterday) {
			t.WeighInsRecent = 1
		}
	}
	ms, err := db.Meals(ctx, member, store.Range{From: yesterday, To: now})
	if err != nil {
		return t, err
	}
	for _, m := range ms {
		if m.EatenAt.Before(today) {
			t.MealsYesterday++
		} else {
			t.MealsToday++
		}
	}
	wos, err := db.Workouts(ctx, member, store.Range{From: yesterday, To: now})
	if err != nil {
		return t, err
	}
	t.WorkoutsRecent = len(wos)
	for _, w := range wos {
		if w.ContentID != "" && !w.StartedAt.Before(today) {
			t.FinishedToday[w.ContentID] = true
		}
	}
	done, err := inst.Dashboards.ConsumedSince(ctx, member, today)
	if err != nil {
		return t, err
	}
	for id := range done {
		t.FinishedToday[id] = true
	}
	return t, nil
}

// afterState reads the memory, program and goals the run left.
func afterState(ctx context.Context, sc *Scenario, inst *Instance, run agent.Run) (After, error) {
	a := After{Run: run}
	var err error
	if a.Memory, err = inst.Agents.Memory().Entries(ctx, coach.AgentID, sc.Subject); err != nil {
		return a, err
	}
	st, err := inst.Programs.Current(ctx, sc.Subject)
	switch {
	case err == nil:
		a.Program = &ProgramAfter{ProgramID: st.ProgramID, Status: string(st.Status), Day: st.CurrentDay}
	case !apperr.Is(err, apperr.NotFound):
		return a, err
	}
	a.Goals, err = inst.DB.Goals(ctx, sc.Subject, false)
	return a, err
}
