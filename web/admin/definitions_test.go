package admin

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/household"
	"hearth/internal/live"
	"hearth/internal/store/storetest"
	"hearth/views"
	"hearth/web/adminauth"
	"hearth/web/httpkit"
)

// defsAdmin drives the definition pages over real services, a real SQLite
// file and the real OpenAI runtime pointed at the fake server.
type defsAdmin struct {
	t      *testing.T
	srv    *httptest.Server
	svc    *definition.Service
	model  *llmtest.Server
	client *http.Client
	csrf   string
}

func newDefsAdmin(t *testing.T) *defsAdmin {
	t.Helper()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	hub := live.NewHub()
	t.Cleanup(hub.Close)
	box, err := agent.NewToolbox(agent.ToolFactoryFunc(func() []agent.Tool {
		return []agent.Tool{{Name: "get_weight", Description: "Latest weight.",
			Execute: func(context.Context, agent.Scope, json.RawMessage) (any, error) {
				return map[string]float64{"kg": 70}, nil
			}}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	repo := definition.NewRepo(db, definition.Registry{Tools: box, Hooks: definition.BuiltinHooks(hub, nil),
		Contexts: map[string]definition.ContextResolver{definition.ContextDate: definition.DateContext(nil, time.UTC)}})
	model := llmtest.New(t)
	rt, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: model.URL(), APIKey: "k", Model: "gpt-test"})
	if err != nil {
		t.Fatal(err)
	}
	engine, err := agent.NewOrchestrator(db, agent.Runtimes{Model: rt, Heuristic: llm.Heuristic{}}, nil, hub, nil, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = engine.Close(context.Background()) })
	runner, err := definition.NewRunner(repo, engine, definition.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := adminauth.New("", "", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	discard := slog.New(slog.DiscardHandler)
	e := echo.New()
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		code, body := httpkit.Classify(err)
		_ = httpkit.Render(c, code, views.ErrorPage(code, http.StatusText(code), body.Error))
	}
	d := &defsAdmin{t: t, svc: definition.NewService(repo, runner), model: model}
	mw := httpkit.Middleware{Request: []echo.MiddlewareFunc{testCSRF}, Admin: a.Require,
		Idempotent: func(next echo.HandlerFunc) echo.HandlerFunc { return next }}
	Routes(e, Deps{Auth: a, Household: household.New(db, hub), Definitions: d.svc},
		Options{Location: time.UTC, Logger: discard}, mw)
	d.srv = httptest.NewServer(e)
	t.Cleanup(d.srv.Close)
	jar, _ := cookiejar.New(nil)
	d.client = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	d.get("/admin/definitions")
	u, _ := url.Parse(d.srv.URL)
	for _, c := range jar.Cookies(u) {
		if c.Name == httpkit.CSRFCookie {
			d.csrf = c.Value
		}
	}
	if d.csrf == "" {
		t.Fatal("no CSRF cookie")
	}
	return d
}

// testCSRF stands in for the assembly's CSRF middleware: a double-submit
// cookie, and the form field must match it on a post.
func testCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		tok := "test-token"
		if ck, err := c.Cookie(httpkit.CSRFCookie); err == nil {
			tok = ck.Value
		} else {
			c.SetCookie(&http.Cookie{Name: httpkit.CSRFCookie, Value: tok, Path: "/"})
		}
		httpkit.SetCSRFToken(c, tok)
		if c.Request().Method == http.MethodPost && c.FormValue(httpkit.CSRFField) != tok {
			return echo.NewHTTPError(http.StatusForbidden, "missing or invalid CSRF token")
		}
		return next(c)
	}
}

func (d *defsAdmin) get(path string) (int, string) {
	d.t.Helper()
	resp, err := d.client.Get(d.srv.URL + path)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, html.UnescapeString(string(b))
}

// post submits a form like the page does (same-origin, _csrf field).
func (d *defsAdmin) post(path string, form url.Values) (*http.Response, string) {
	d.t.Helper()
	form.Set("_csrf", d.csrf)
	req, _ := http.NewRequest(http.MethodPost, d.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := d.client.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, html.UnescapeString(string(b))
}

func (d *defsAdmin) seed(id, system string) {
	d.t.Helper()
	def := definition.Definition{AgentID: id, SystemPrompt: system, MaxIterations: 4, MaxRetries: 1}
	if _, err := d.svc.Save(context.Background(), def, "test", "first"); err != nil {
		d.t.Fatal(err)
	}
}

// editForm is the edit form as the page would submit it for the current version.
func (d *defsAdmin) editForm(id string) url.Values {
	d.t.Helper()
	v, err := d.svc.Active(context.Background(), id)
	if err != nil {
		d.t.Fatal(err)
	}
	form := url.Values{}
	for k, val := range definitionFormValues(v.Definition) {
		form.Set(k, val)
	}
	return form
}

func (d *defsAdmin) activePrompt(id string) string {
	d.t.Helper()
	v, err := d.svc.Active(context.Background(), id)
	if err != nil {
		d.t.Fatal(err)
	}
	return v.SystemPrompt
}

func TestAdminDefinitionSaveWithErrorsShowsThemInlineAndKeepsTheValues(t *testing.T) {
	d := newDefsAdmin(t)
	d.seed("writer", "You write v1.")

	// JSON that does not parse.
	form := d.editForm("writer")
	form.Set("system_prompt", "You write v2, with care.")
	form.Set("output_schema", "{\n  \"type\": \"object\",\n}")
	form.Set("change_note", "try a schema")
	resp, body := d.post("/admin/definitions/writer", form)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	for _, want := range []string{
		`<span class="field-error" role="alert">is not valid JSON`, "(line 3, column 1)",
		"You write v2, with care.</textarea>", "{\n  \"type\": \"object\",\n}</textarea>", `value="try a schema"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}

	// A definition that parses but does not validate (unknown tool, bad schema).
	form = d.editForm("writer")
	form.Set("system_prompt", "You write v2.")
	form.Set("tool_ids", `["get_weight", "teleport"]`)
	form.Set("output_schema", `{"type": "objekt"}`)
	resp, body = d.post("/admin/definitions/writer", form)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	for _, want := range []string{
		`unknown tool "teleport" (available: get_weight)`, "does not compile", "the definition was not saved",
		`["get_weight", "teleport"]</textarea>`, "You write v2.</textarea>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if got := d.activePrompt("writer"); got != "You write v1." {
		t.Fatalf("active prompt = %q: a refused edit changed the agent", got)
	}
}

func TestAdminDefinitionSaveHistoryDiffAndRollback(t *testing.T) {
	d := newDefsAdmin(t)
	d.seed("writer", "Line one.\nLine two.")
	form := d.editForm("writer")
	form.Set("system_prompt", "Line one.\nLine 2!")
	form.Set("change_note", "punchier")
	resp, _ := d.post("/admin/definitions/writer", form)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/definitions/writer?saved=2" {
		t.Fatalf("save: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, body := d.get("/admin/definitions/writer?saved=2"); !strings.Contains(body, "Saved as version 2") ||
		!strings.Contains(body, "Line 2!</textarea>") {
		t.Fatalf("edit page after save lacks the notice or the new prompt")
	}
	code, body := d.get("/admin/definitions/writer/history")
	if code != http.StatusOK {
		t.Fatalf("history: %d", code)
	}
	for _, want := range []string{"punchier", "Changes from v1 to v2", ">- Line two.</div>", ">+ Line 2!</div>", ">  Line one.</div>",
		"Roll back the current version"} {
		if !strings.Contains(body, want) {
			t.Errorf("history lacks %q", want)
		}
	}
	// Diff the other way round.
	if _, body := d.get("/admin/definitions/writer/history?a=2&b=1"); !strings.Contains(body, ">+ Line two.</div>") {
		t.Errorf("reverse diff lacks the re-added line")
	}

	resp, _ = d.post("/admin/definitions/writer/rollback", url.Values{})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/definitions/writer/history?rolledback=1" {
		t.Fatalf("rollback: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := d.activePrompt("writer"); got != "Line one.\nLine two." {
		t.Fatalf("after rollback the prompt is %q", got)
	}
	if _, body := d.get("/admin/definitions/writer/history?rolledback=1"); !strings.Contains(body, "Rolled back: v1 is current again.") ||
		!strings.Contains(body, "rolled back") || strings.Contains(body, "Roll back the current version") {
		t.Fatalf("history after rollback:\n%s", body)
	}
	resp, body = d.post("/admin/definitions/writer/rollback", url.Values{})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "nothing to roll back to") {
		t.Fatalf("second rollback: %d", resp.StatusCode)
	}
	// Editing from an old version prefills the form with it.
	if _, body := d.get("/admin/definitions/writer?from=2"); !strings.Contains(body, "loaded from v2") || !strings.Contains(body, "Line 2!</textarea>") {
		t.Fatalf("edit from v2 lacks its prompt")
	}
}

func TestAdminDefinitionListAndCreate(t *testing.T) {
	d := newDefsAdmin(t)
	d.seed("writer", "You write.")
	if code, body := d.get("/admin/definitions"); code != http.StatusOK || !strings.Contains(body, ">writer</a>") || !strings.Contains(body, "v1") {
		t.Fatalf("list: %d", code)
	}
	if code, body := d.get("/admin/definitions/new"); code != http.StatusOK || !strings.Contains(body, `name="agent_id"`) {
		t.Fatalf("new form: %d", code)
	}
	form := url.Values{}
	for k, v := range newDefinitionFormValues() {
		form.Set(k, v)
	}
	form.Set("agent_id", "writer")
	form.Set("system_prompt", "Another writer.")
	resp, body := d.post("/admin/definitions", form)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "is taken") || !strings.Contains(body, "Another writer.</textarea>") {
		t.Fatalf("duplicate create: %d", resp.StatusCode)
	}
	form.Set("agent_id", "plan:message")
	resp, _ = d.post("/admin/definitions", form)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/definitions/plan:message?saved=1" {
		t.Fatalf("create: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if code, body := d.get("/admin/definitions/plan:message"); code != http.StatusOK || !strings.Contains(body, "Another writer.</textarea>") {
		t.Fatalf("created agent page: %d", code)
	}
	if code, _ := d.get("/admin/definitions/nobody"); code != http.StatusNotFound {
		t.Fatalf("unknown agent: %d", code)
	}
}

func TestAdminDefinitionTryIt(t *testing.T) {
	d := newDefsAdmin(t)
	d.seed("writer", "You write.")
	d.model.Push(llmtest.Text("A short note for Ada.", 10, 5))
	resp, body := d.post("/admin/definitions/writer/try", url.Values{"member": {"ada"}, "message": {"Write a note"}, "extras": {`{"week": 3}`}})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("try: %d", resp.StatusCode)
	}
	for _, want := range []string{"A short note for Ada.", `href="/admin/runs/1"`, "#1", `<option value="ada" selected>`, "Write a note</textarea>"} {
		if !strings.Contains(body, want) {
			t.Errorf("try page lacks %q", want)
		}
	}
	if reqs := d.model.ChatRequests(); len(reqs) != 1 || reqs[0].LastMessage().Content != "Write a note" {
		t.Fatalf("model requests = %d", len(reqs))
	}
	// A failing invoke shows why, with the run.
	d.model.Push(llmtest.Error(http.StatusBadRequest))
	_, body = d.post("/admin/definitions/writer/try", url.Values{"member": {"ada"}, "message": {"again"}})
	if !strings.Contains(body, "The agent failed:") || !strings.Contains(body, `href="/admin/runs/2"`) {
		t.Fatalf("failed try page lacks the failure")
	}
	// Bad extras are a form error; nothing runs.
	resp, body = d.post("/admin/definitions/writer/try", url.Values{"member": {"ada"}, "message": {"x"}, "extras": {"[1]"}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "must be a JSON object") || len(d.model.ChatRequests()) != 2 {
		t.Fatalf("bad extras: %d", resp.StatusCode)
	}
}

// A draft saved from the edit form changes nothing until it is activated
// from the history; a discarded draft cannot be activated.
func TestAdminDefinitionDraftActivateAndDiscard(t *testing.T) {
	d := newDefsAdmin(t)
	d.seed("writer", "You write v1.")
	if _, body := d.get("/admin/definitions/writer"); !strings.Contains(body, `name="draft" value="1"`) {
		t.Fatal("the edit form offers no draft")
	}
	form := d.editForm("writer")
	form.Set("system_prompt", "You write v2, a draft.")
	form.Set("draft", "1")
	resp, _ := d.post("/admin/definitions/writer", form)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/definitions/writer/history?drafted=2" {
		t.Fatalf("save draft: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := d.activePrompt("writer"); got != "You write v1." {
		t.Fatalf("a draft became current: %q", got)
	}
	_, body := d.get("/admin/definitions/writer/history?drafted=2")
	for _, want := range []string{"Saved as draft v2: nothing runs it until you activate it.", `<span class="badge">draft</span>`,
		"/admin/definitions/writer/versions/2/activate"} {
		if !strings.Contains(body, want) {
			t.Errorf("history lacks %q", want)
		}
	}
	if strings.Contains(body, "/admin/evals?version=") {
		t.Error("Evaluate is offered without an eval service (and for an agent the suite does not cover)")
	}
	if _, body := d.get("/admin/definitions"); !strings.Contains(body, "1 draft") {
		t.Error("the agents list does not count the draft")
	}
	resp, _ = d.post("/admin/definitions/writer/versions/2/activate", url.Values{})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/definitions/writer/history?activated=2" {
		t.Fatalf("activate: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := d.activePrompt("writer"); got != "You write v2, a draft." {
		t.Fatalf("after activation the prompt is %q", got)
	}
	if _, body := d.get("/admin/definitions/writer/history?activated=2"); !strings.Contains(body, "Activated: v2 is current") ||
		!strings.Contains(body, "activated ") {
		t.Error("history after activation lacks the notice or when it was activated")
	}
	resp, body = d.post("/admin/definitions/writer/versions/2/activate", url.Values{})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "is not a draft") {
		t.Fatalf("activating twice: %d", resp.StatusCode)
	}

	form = d.editForm("writer")
	form.Set("system_prompt", "A bad idea.")
	form.Set("draft", "1")
	d.post("/admin/definitions/writer", form)
	resp, _ = d.post("/admin/definitions/writer/versions/3/discard", url.Values{})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/definitions/writer/history?discarded=3" {
		t.Fatalf("discard: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, body := d.get("/admin/definitions/writer/history?discarded=3"); !strings.Contains(body, "draft discarded") {
		t.Error("history does not show the discarded draft")
	}
	if resp, _ := d.post("/admin/definitions/writer/versions/3/activate", url.Values{}); resp.StatusCode != http.StatusConflict {
		t.Fatalf("activating a discarded draft: %d", resp.StatusCode)
	}
	if code, _ := d.get("/admin/definitions/writer/versions/x/activate"); code != http.StatusMethodNotAllowed && code != http.StatusNotFound {
		t.Fatalf("GET on the activate route: %d", code)
	}
	if got := d.activePrompt("writer"); got != "You write v2, a draft." {
		t.Fatalf("current prompt = %q", got)
	}
}
