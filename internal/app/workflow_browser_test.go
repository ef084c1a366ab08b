package app_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/coach"
	"hearth/internal/dashboard"
	"hearth/internal/store"
	"hearth/internal/testkit"
	"hearth/internal/workflow"
)

// A weekly review waiting for the member is a tap-to-answer prompt on the
// kiosk, placed by the coach's one prompt priority (after a reading to
// confirm, before the other prompts) within the limit of three (the
// document's last prompt waits); the tap resumes the run, which
// completes with the member's choice, and the prompt goes.
func TestKioskWorkflowQuestionInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := seededApp(t)
	ctx := newTab(t, browser, 60*time.Second)
	bg := context.Background()
	// Today's document with three prompts, the most it may have; the first
	// a reading to confirm, which the coach's one priority puts ahead of a
	// workflow's question.
	now := time.Now().UTC()
	doc := adaDoc(now)
	confirm := "confirm-weight-" + now.Format("20060102")
	doc.Coach.Prompts = append([]dashboard.Prompt{{ID: confirm, Type: dashboard.PromptMultipleChoice, Question: "Was 6.9 kg right?",
		Options: []string{"Yes", "No, a mistake"}}}, doc.Coach.Prompts...)
	if err := srv.app.DB.Tx(bg, func(tx *store.Tx) error {
		return srv.app.Dashboards.PutTx(bg, tx, now, "ada", now.Format(time.DateOnly), 3, doc, "three prompts")
	}); err != nil {
		t.Fatal(err)
	}
	wf := srv.app.Workflows
	r, err := wf.Start(bg, workflow.StartRequest{Workflow: coach.WeeklyReviewID, Member: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	waitWorkflow(t, wf, r.ID, workflow.StatusSuspended)

	open(t, ctx, srv.url+"/m/ada")
	first := fmt.Sprintf("wfq-%d", r.ID)
	until(t, ctx, 5*time.Second, `(() => { const ps = [...document.querySelectorAll('#prompts > .prompt')];
		return ps.length === 3 && ps[0].id === 'prompt-`+confirm+`' && ps[1].id === '`+first+`' && ps[2].id === 'prompt-p1' &&
			ps[1].querySelector('.question').textContent.includes('Harder, same, or easier') })()`)
	click(t, ctx, `#`+first+` button.option:nth-of-type(2)`) // "Same"
	r = waitWorkflow(t, wf, r.ID, workflow.StatusSuccess)
	if r.Output == nil || !strings.Contains(string(r.Output), `"`+coach.ChoiceSame+`"`) {
		t.Fatalf("the run ended with %s, want the member's choice %q", r.Output, coach.ChoiceSame)
	}
	// The answered question goes; the document's third prompt has room again.
	until(t, ctx, 5*time.Second, `!document.getElementById('`+first+`') && document.querySelectorAll('#prompts > .prompt').length === 3 &&
		document.getElementById('prompt-p2')`)
}

func waitWorkflow(t *testing.T, wf interface {
	Get(context.Context, int64) (workflow.Run, error)
}, id int64, want workflow.Status) workflow.Run {
	t.Helper()
	var r workflow.Run
	var last workflow.Status
	testkit.WaitFor(t, testkit.Patience, fmt.Sprintf("workflow run %d to be %s", id, want), func() bool {
		var err error
		if r, err = wf.Get(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		if r.Status != last {
			t.Logf("workflow run %d: %s %s", id, r.Status, r.Error) // shown if the wait fails
			last = r.Status
		}
		return r.Status == want
	})
	return r
}

// TestSuspendedWorkflowSurvivesRestartAndResumesFromKioskTap: a weekly
// review waiting for the member is still waiting after the server restarts
// on the same database, shows on the new server's kiosk, and the tap there
// resumes it to the end. (A run killed mid-step is the fault test's, in
// internal/faulttest; a suspended run has nothing in flight, its state is
// stored when it suspends.)
func TestSuspendedWorkflowSurvivesRestartAndResumesFromKioskTap(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	dir := t.TempDir()
	cfg := app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC, KioskIdle: 10 * time.Minute}
	before := startApp(t, cfg)
	seed(t, before.app)
	bg := context.Background()
	r, err := before.app.Workflows.Start(bg, workflow.StartRequest{Workflow: coach.WeeklyReviewID, Member: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	waitWorkflow(t, before.app.Workflows, r.ID, workflow.StatusSuspended)
	before.stop(t)

	after := startApp(t, cfg)
	if got, err := after.app.Workflows.Get(bg, r.ID); err != nil || got.Status != workflow.StatusSuspended {
		t.Fatalf("after the restart the run is %s (%v), want still suspended", got.Status, err)
	}
	ctx := newTab(t, browser, 60*time.Second)
	open(t, ctx, after.url+"/m/ada")
	q := fmt.Sprintf("wfq-%d", r.ID)
	until(t, ctx, 5*time.Second, `document.getElementById('`+q+`')?.querySelector('.question').textContent.includes('Harder, same, or easier')`)
	click(t, ctx, `#`+q+` button.option:nth-of-type(3)`) // "Easier"
	done := waitWorkflow(t, after.app.Workflows, r.ID, workflow.StatusSuccess)
	if done.Output == nil || !strings.Contains(string(done.Output), `"`+coach.ChoiceEasier+`"`) {
		t.Fatalf("the run ended with %s, want the member's choice %q", done.Output, coach.ChoiceEasier)
	}
	until(t, ctx, 5*time.Second, `!document.getElementById('`+q+`')`)
}
