package faulttest

import (
	"database/sql"
	"fmt"
	"hearth/internal/testkit"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent/llm/llmtest"
)

// browserPost posts form to path as the page at page would: the CSRF
// cookie that page set, the token in the form, a same-origin request. It
// returns the status (0 when the server did not answer).
func (p *proc) browserPost(page, path string, form url.Values, timeout time.Duration) int {
	p.t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(p.base + page)
	if err != nil {
		p.t.Errorf("GET %s: %v", page, err)
		return 0
	}
	resp.Body.Close()
	u, _ := url.Parse(p.base)
	for _, ck := range jar.Cookies(u) {
		if ck.Name == "hearth_csrf" {
			form.Set("_csrf", ck.Value)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, p.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if resp, err = c.Do(req); err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestKillDuringDurableDailyRun: the daily dashboard runs as its workflow
// however it was started, so a SIGKILL while the model thinks is survived
// the same way from the schedule (the daily task's "run now" in admin) and
// from the kiosk's "Prepare my day": after the restart (no model: the
// heuristic coach) the run continues from its last completed step: gather
// is not run again, reason runs twice, act once; the killed attempt's
// engine run stays linked as interrupted and the second one writes today's
// document.
func TestKillDuringDurableDailyRun(t *testing.T) {
	for _, path := range []string{"schedule", "prepare my day"} {
		t.Run(path, func(t *testing.T) {
			dir := t.TempDir()
			startHearth(t, dir).stop() // the database, the demo household and its first plans
			var task int64
			withDB(t, dir, func(db *sql.DB) {
				task = dailyTask(t, db)
				// Prepare my day answers with today's plan when there is one.
				if _, err := db.Exec(`DELETE FROM dashboards WHERE member_id = 'maya' AND day = ?`, time.Now().UTC().Format(time.DateOnly)); err != nil {
					t.Fatal(err)
				}
			})

			model := llmtest.New(t)
			model.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Hang: true} })
			p := startHearth(t, dir, "OPENAI_BASE_URL="+model.URL(), "OPENAI_API_KEY=sk-test")
			posted := make(chan int, 1)
			switch path {
			case "schedule":
				posted <- p.browserPost("/admin/schedules", fmt.Sprintf("/admin/schedules/%d/run", task), url.Values{"back": {"list"}}, 10*time.Second)
				if code := <-posted; code != http.StatusSeeOther {
					t.Fatalf("run the daily task now: %d", code)
				}
			case "prepare my day":
				// The tap waits for the coach, who never answers: the kill ends it.
				go func() { posted <- p.browserPost("/m/maya", "/m/maya/prepare", url.Values{}, time.Minute) }()
			}
			db := openDB(t, dir)
			var run int64
			testkit.WaitFor(t, testkit.Patience, "maya's reason step to wait on the model", func() bool {
				q := `SELECT id FROM workflow_runs WHERE workflow_id = 'daily-dashboard' AND member_id = 'maya' AND triggered_by = 'manual'`
				if path == "schedule" {
					q += fmt.Sprintf(` AND origin = 'task:%d'`, task)
				}
				if err := db.QueryRow(q).Scan(&run); err != nil {
					return false
				}
				st, _ := stepStatus(db, run, "reason")
				return st == "running" && len(model.ChatRequests()) > 0
			})
			p.kill9()
			if path == "prepare my day" {
				if code := <-posted; code != 0 {
					t.Errorf("the tap was answered (%d) though the coach never was", code)
				}
			}

			integrityOK(t, db)
			if st, _ := stepStatus(db, run, "gather"); st != "success" {
				t.Fatalf("gather is %q after the kill, want success", st)
			}
			if n := count(t, db, `SELECT count(*) FROM workflow_runs WHERE id = ? AND status = 'running'`, run); n != 1 {
				t.Fatal("the killed run is not left running")
			}
			_ = db.Close()

			again := startHearth(t, dir) // no model: the heuristic coach finishes the run
			checkContinued(t, again, dir, run)
			withDB(t, dir, func(db *sql.DB) {
				if n := count(t, db, `SELECT count(*) FROM workflow_runs WHERE status = 'running'`); n != 0 {
					t.Errorf("%d workflow runs still running", n)
				}
			})
			again.stop()
		})
	}
}

// checkContinued waits for workflow run id, killed in its reason step, to
// complete after the restart and checks it continued from its last
// completed step: gather once, reason twice, act once, the killed
// attempt's engine run interrupted, the second's succeeded and the author
// of today's document.
func checkContinued(t *testing.T, p *proc, dir string, id int64) {
	t.Helper()
	var done workflowRun
	testkit.WaitFor(t, testkit.Patience, "the run to complete after the restart", func() bool {
		done = p.workflowRun(id)
		return done.Status == "success" || done.Status == "failed"
	})
	if done.Status != "success" {
		t.Fatalf("the continued run %s: %s", done.Status, done.Error)
	}
	attempts := map[string]int{}
	for _, s := range done.Steps {
		attempts[s.Path] = s.Attempts
		if s.Status != "success" {
			t.Errorf("step %s is %s", s.Path, s.Status)
		}
	}
	if attempts["gather"] != 1 || attempts["reason"] != 2 || attempts["act"] != 1 {
		t.Errorf("attempts %v: gather ran once, reason twice (killed, then again), act once", attempts)
	}
	if len(done.AgentRuns) != 2 {
		t.Fatalf("engine runs %v, want the killed attempt's and the one that finished", done.AgentRuns)
	}
	withDB(t, dir, func(db *sql.DB) {
		integrityOK(t, db)
		var first, second, member string
		_ = db.QueryRow(`SELECT status FROM agent_runs WHERE id = ?`, done.AgentRuns[0]).Scan(&first)
		_ = db.QueryRow(`SELECT status, member_id FROM agent_runs WHERE id = ?`, done.AgentRuns[1]).Scan(&second, &member)
		if first != "interrupted" || second != "succeeded" {
			t.Errorf("engine runs: killed attempt %q, second %q", first, second)
		}
		day := time.Now().UTC().Format(time.DateOnly)
		if n := count(t, db, `SELECT count(*) FROM dashboards WHERE member_id = ? AND day = ? AND run_id = ?`, member, day, done.AgentRuns[1]); n != 1 {
			t.Error("today's document is not the continued attempt's")
		}
		checkDashboards(t, db)
	})
}
