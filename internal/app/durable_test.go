package app_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/coach"
	"hearth/internal/schedule"
	"hearth/internal/testkit"
	"hearth/internal/workflow"
)

// workflowOf returns the workflow run the finished engine run id is an
// attempt of (its outcome recorded by then), failing the test when the
// engine run is no attempt or the workflow run is not its success.
func workflowOf(t *testing.T, a *app.App, id int64) workflow.Run {
	t.Helper()
	ctx := context.Background()
	r, err := a.Agents.Runs().Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if r.WorkflowRunID == nil {
		t.Fatalf("engine run %d (%s, %s) is no workflow run's attempt", id, r.Trigger, r.Member)
	}
	wr, err := a.Workflows.Get(ctx, *r.WorkflowRunID)
	if err != nil {
		t.Fatal(err)
	}
	if wr.Workflow != coach.DailyDashboardWorkflowID || wr.Member != r.Member || wr.Status != workflow.StatusSuccess ||
		len(wr.AgentRuns) != 1 || wr.AgentRuns[0] != id || string(wr.Trigger) != string(r.Trigger) || wr.Origin != r.Origin {
		t.Fatalf("workflow run of engine run %d (%s, %q): %+v", id, r.Trigger, r.Origin, wr)
	}
	return wr
}

// The daily dashboard runs as its workflow wherever it starts: the demo's
// first plans, the kiosk's "Prepare my day" and a scheduled run (the task's
// "run now") each create a workflow run whose attempt is the engine run.
func TestDailyDashboardRunsAsItsWorkflowOnEveryPath(t *testing.T) {
	srv := demoApp(t)
	a := srv.app
	ctx := context.Background()
	members, err := a.DB.ListMembers(ctx)
	if err != nil || len(members) < 2 {
		t.Fatalf("members %d %v", len(members), err)
	}
	for _, m := range members {
		runs, err := a.Agents.Runs().List(ctx, agent.RunFilter{Member: m.ID, Assignment: coach.DailyDashboardID})
		if err != nil || len(runs) != 1 || runs[0].Trigger != agent.TriggerDemo {
			t.Fatalf("demo runs of %s: %+v %v", m.ID, runs, err)
		}
		workflowOf(t, a, runs[0].ID)
	}

	// Prepare my day, as the kiosk's form posts it.
	newMember(t, srv, "nova", "Nova")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(srv.url + "/m/nova")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse(srv.url)
	var token string
	for _, ck := range jar.Cookies(u) {
		if ck.Name == "hearth_csrf" {
			token = ck.Value
		}
	}
	req, _ := http.NewRequest(http.MethodPost, srv.url+"/m/nova/prepare", strings.NewReader(url.Values{"_csrf": {token}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", srv.url)
	if resp, err = c.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("prepare: %d", resp.StatusCode)
	}
	runs, err := a.Agents.Runs().List(ctx, agent.RunFilter{Member: "nova"})
	if err != nil || len(runs) != 1 || runs[0].Trigger != agent.TriggerManual || runs[0].Status != agent.StatusSucceeded {
		t.Fatalf("runs of nova: %+v %v", runs, err)
	}
	workflowOf(t, a, runs[0].ID)

	// The default daily task, run now: every member, through the scheduler.
	tasks, err := a.Schedule.List(ctx, schedule.TaskFilter{AgentID: coach.AgentID})
	if err != nil {
		t.Fatal(err)
	}
	var daily *schedule.Task
	for i := range tasks {
		if tasks[i].AssignmentID == coach.DailyDashboardID && tasks[i].Schedule == "0 4 * * *" {
			daily = &tasks[i]
		}
	}
	if daily == nil {
		t.Fatalf("no default daily-dashboard task in %+v", tasks)
	}
	fire, err := a.Schedule.RunNow(ctx, daily.ID)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the task's run to end", func() bool {
		fires, err := a.Schedule.Ledger(ctx, daily.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		return len(fires) > 0 && fires[0].ID == fire.ID && fires[0].Outcome != schedule.OutcomeRunning
	})
	origin := schedule.TaskOrigin(daily.ID)
	ids := []string{"nova"}
	for _, m := range members {
		ids = append(ids, m.ID)
	}
	for _, id := range ids {
		runs, err := a.Agents.Runs().List(ctx, agent.RunFilter{Member: id, Assignment: coach.DailyDashboardID, Limit: 1})
		if err != nil || len(runs) != 1 || runs[0].Origin != origin || runs[0].Status != agent.StatusSucceeded {
			t.Fatalf("the task's run for %s: %+v %v", id, runs, err)
		}
		if wr := workflowOf(t, a, runs[0].ID); wr.Trigger != workflow.TriggerManual {
			t.Errorf("the task's workflow run for %s is triggered by %s", id, wr.Trigger)
		}
	}
}

// A second start of the daily dashboard while one is under way (the model
// is thinking) joins it: the same engine run, one workflow run.
func TestSecondStartJoinsTheDailyWorkflow(t *testing.T) {
	model := llmtest.New(t)
	model.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Hang: true} })
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		Demo: true, KioskIdle: 10 * time.Minute, OpenAIBaseURL: model.URL(), OpenAIKey: "k", Model: "fake"})
	a := srv.app
	ctx := context.Background()
	req := agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID, Member: "maya", Trigger: agent.TriggerManual}
	first, err := a.Agents.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the model to be asked", func() bool { return len(model.ChatRequests()) > 0 })
	again, err := a.Agents.Start(ctx, req)
	if err != nil || again.ID != first.ID {
		t.Fatalf("second start: run %d %v, want %d", again.ID, err, first.ID)
	}
	joined, err := a.Workflows.StartDurable(ctx, req)
	if err != nil || joined.ID != first.ID {
		t.Fatalf("the workflow's start: run %d %v, want %d", joined.ID, err, first.ID)
	}
	running, err := a.Workflows.List(ctx, workflow.Filter{Workflow: coach.DailyDashboardWorkflowID, Member: "maya", Status: workflow.StatusRunning})
	if err != nil || len(running) != 1 {
		t.Fatalf("running workflow runs of maya: %+v %v", running, err)
	}
	if r, err := a.Agents.Runs().Get(ctx, first.ID); err != nil || r.WorkflowRunID == nil || *r.WorkflowRunID != running[0].ID {
		t.Fatalf("engine run %+v %v, want an attempt of %d", r, err, running[0].ID)
	}
}
