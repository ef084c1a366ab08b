package app_test

import (
	"bufio"
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/coach"
	hearthEval "hearth/internal/eval"
	"hearth/internal/testkit"
)

// adminClient is a browser without JavaScript on the admin pages of an
// open-mode (loopback) Hearth: cookies, the CSRF field, same-origin posts.
type adminClient struct {
	t    *testing.T
	base string
	c    *http.Client
	csrf string
}

func newAdminClient(t *testing.T, base string) *adminClient {
	jar, _ := cookiejar.New(nil)
	a := &adminClient{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	a.get("/admin/evals")
	u, _ := url.Parse(base)
	for _, ck := range jar.Cookies(u) {
		if ck.Name == "hearth_csrf" {
			a.csrf = ck.Value
		}
	}
	if a.csrf == "" {
		t.Fatal("no CSRF cookie")
	}
	return a
}

func (a *adminClient) get(path string) (int, string) {
	a.t.Helper()
	resp, err := a.c.Get(a.base + path)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, html.UnescapeString(string(b))
}

func (a *adminClient) post(path string, form url.Values) (*http.Response, string) {
	a.t.Helper()
	form.Set("_csrf", a.csrf)
	req, _ := http.NewRequest(http.MethodPost, a.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := a.c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, html.UnescapeString(string(b))
}

// waitRun waits for eval run id to finish.
func waitRun(t *testing.T, s *hearthEval.Service, id int64) hearthEval.StoredRun {
	t.Helper()
	var r hearthEval.StoredRun
	testkit.WaitFor(t, 3*time.Minute, fmt.Sprintf("eval run %d to finish", id), func() bool {
		var err error
		if r, err = s.Get(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		return r.Status != "running"
	})
	return r
}

// TestAdminEvalsRunsADraftBeforeItIsActivated is point 4: a draft of the
// coach's definition is evaluated from Admin → Evals (the suite runs in
// the background, the page follows it live), its report shows the score,
// and the next run is compared with it.
func TestAdminEvalsRunsADraftBeforeItIsActivated(t *testing.T) {
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"),
		Location: time.UTC, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices, ModelConcurrency: 2})
	ctx := context.Background()
	cur, err := srv.app.Definitions.Active(ctx, coach.AgentID)
	if err != nil {
		t.Fatal(err)
	}
	d := cur.Definition
	d.SystemPrompt += "\nKeep the briefing to three sentences."
	draft, err := srv.app.Definitions.SaveDraft(ctx, d, "admin", "shorter briefing")
	if err != nil {
		t.Fatal(err)
	}
	a := newAdminClient(t, srv.url)
	code, body := a.get(fmt.Sprintf("/admin/evals?version=%d", draft.Number))
	for _, want := range []string{"Run the suite", "v1 (current)", `value="2" selected`, "v2 (draft)", "heuristic", "No eval runs yet"} {
		if code != 200 || !strings.Contains(body, want) {
			t.Fatalf("evals page (%d) lacks %q:\n%s", code, want, body)
		}
	}
	if code, body := a.get("/admin/definitions/health-coach/history"); code != 200 || !strings.Contains(body, "draft") ||
		!strings.Contains(body, "/admin/evals?version=2") || !strings.Contains(body, "/versions/2/activate") {
		t.Fatalf("history page (%d) does not offer to evaluate and activate the draft:\n%s", code, body)
	}

	resp, body := a.post("/admin/evals", url.Values{"version": {"99"}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "choose one of the coach's definition versions") {
		t.Fatalf("unknown version: %d\n%s", resp.StatusCode, body)
	}
	resp, body = a.post("/admin/evals", url.Values{"version": {"2"}, "only": {"(unclosed"}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "not a regular expression") {
		t.Fatalf("bad filter: %d\n%s", resp.StatusCode, body)
	}
	// Three scenarios keep the test short; the whole suite runs the same way.
	only := "^(mid-program-on-track|weight-flat-three-weeks|new-member-no-data)$"
	resp, _ = a.post("/admin/evals", url.Values{"version": {"2"}, "only": {only}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/evals?done=started" {
		t.Fatalf("start: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	runs, _ := srv.app.Evals.List(ctx, 5)
	if len(runs) != 1 || runs[0].Definition != "v2 (draft)" || runs[0].Scenarios != 3 || runs[0].Filter != only {
		t.Fatalf("runs: %+v", runs)
	}
	// A second start while the first runs is refused with a clear notice.
	if _, ok := srv.app.Evals.Current(); ok {
		if resp, body := a.post("/admin/evals", url.Values{"version": {"1"}}); resp.StatusCode != http.StatusConflict ||
			!strings.Contains(body, "already going") {
			t.Errorf("second start while running: %d", resp.StatusCode)
		}
	}
	first := waitRun(t, srv.app.Evals, runs[0].ID)
	if first.Status != "done" || first.Summary == nil || first.Summary.DesignedPassRate != 1 {
		t.Fatalf("first run: %+v", first)
	}
	code, body = a.get(fmt.Sprintf("/admin/evals/%d", first.ID))
	for _, want := range []string{"v2 (draft) with heuristic", "designed pass rate", "100.0%", "The first finished run",
		"mid-program-on-track", "known gap", "<th>Tokens in/out</th>", "<td>–</td>"} { // the heuristic sends no request
		if code != 200 || !strings.Contains(body, want) {
			t.Fatalf("report page (%d) lacks %q", code, want)
		}
	}
	// The draft still is not what runs.
	if cur, _ := srv.app.Definitions.Active(ctx, coach.AgentID); cur.Number != 1 {
		t.Fatalf("evaluating a draft made it current (v%d)", cur.Number)
	}

	id2, err := srv.app.Evals.Start(ctx, 0, only)
	if err != nil {
		t.Fatal(err)
	}
	second := waitRun(t, srv.app.Evals, id2)
	code, body = a.get(fmt.Sprintf("/admin/evals/%d", second.ID))
	for _, want := range []string{"v1 with heuristic", fmt.Sprintf("run #%d (v2 (draft), heuristic)", first.ID),
		"Regressions (0)", "Improvements (0)"} {
		if code != 200 || !strings.Contains(body, want) {
			t.Fatalf("second report (%d) lacks %q", code, want)
		}
	}
	if code, _ := a.get("/admin/evals/999"); code != http.StatusNotFound {
		t.Fatalf("missing run: %d", code)
	}

	// The live part renders the runs from current state.
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(sctx, http.MethodGet, srv.url+"/admin/live/evals", nil)
	req.Header.Set("Datastar-Request", "true")
	resp, err = a.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	seen := ""
	for sc.Scan() && !strings.Contains(seen, "#"+fmt.Sprint(second.ID)) {
		seen += sc.Text() + "\n"
	}
	if !strings.Contains(seen, `id="eval-status"`) || !strings.Contains(seen, "#"+fmt.Sprint(second.ID)) {
		t.Fatalf("live stream:\n%s", seen)
	}
}
