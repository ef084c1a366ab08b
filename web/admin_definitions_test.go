package web_test

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent/definition"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/store/storetest"
)

// defsAdmin drives the definition pages (Admin → Agents) of the real app
// (newTestApp) with member ada, its model the fake server, reached through
// the real openai-go client as the app configures it.
type defsAdmin struct {
	t      *testing.T
	app    *app.App
	srv    *served
	svc    *definition.Service
	model  *llmtest.Server
	client *http.Client
	csrf   string
}

func newDefsAdmin(t *testing.T) *defsAdmin {
	t.Helper()
	model := llmtest.New(t)
	ta := newTestApp(t, withModel(model.URL(), "gpt-test"), withEnv("OPENAI_API_KEY", "k"))
	storetest.Member(t, ta.app.DB, "ada")
	d := &defsAdmin{t: t, app: ta.app, svc: ta.app.Definitions, model: model, client: browser(10 * time.Second)}
	d.srv = ta.serve()
	d.get("/admin/definitions")
	u, _ := url.Parse(d.srv.URL)
	for _, c := range d.client.Jar.Cookies(u) {
		if c.Name == "hearth_csrf" {
			d.csrf = c.Value
		}
	}
	if d.csrf == "" {
		t.Fatal("no CSRF cookie")
	}
	return d
}

// raw GETs a page as the browser: status and body as sent.
func (d *defsAdmin) raw(path string) (int, string) {
	d.t.Helper()
	resp, err := d.client.Get(d.srv.URL + path)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// get is raw with the body's entities decoded.
func (d *defsAdmin) get(path string) (int, string) {
	d.t.Helper()
	code, body := d.raw(path)
	return code, html.UnescapeString(body)
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

var (
	formTag     = regexp.MustCompile(`<form [^>]*action="([^"]*)"[^>]*>`)
	inputTag    = regexp.MustCompile(`<input [^>]*>`)
	textareaTag = regexp.MustCompile(`(?s)<textarea [^>]*name="([^"]+)"[^>]*>(.*?)</textarea>`)
	attrName    = regexp.MustCompile(`\bname="([^"]*)"`)
	attrValue   = regexp.MustCompile(`\bvalue="([^"]*)"`)
)

// pageForm is what the browser would submit from the form of page that
// posts to action: its inputs and textareas as rendered (no button).
func (d *defsAdmin) pageForm(page, action string) url.Values {
	d.t.Helper()
	code, body := d.raw(page)
	if code != http.StatusOK {
		d.t.Fatalf("GET %s: %d", page, code)
	}
	for _, m := range formTag.FindAllStringSubmatchIndex(body, -1) {
		if html.UnescapeString(body[m[2]:m[3]]) != action {
			continue
		}
		end := strings.Index(body[m[1]:], "</form>")
		if end < 0 {
			d.t.Fatalf("%s: the form posting to %s does not end", page, action)
		}
		inner, form := body[m[1]:m[1]+end], url.Values{}
		for _, in := range inputTag.FindAllString(inner, -1) {
			if n := attrName.FindStringSubmatch(in); n != nil {
				v := ""
				if m := attrValue.FindStringSubmatch(in); m != nil {
					v = m[1]
				}
				form.Set(html.UnescapeString(n[1]), html.UnescapeString(v))
			}
		}
		for _, ta := range textareaTag.FindAllStringSubmatch(inner, -1) {
			form.Set(html.UnescapeString(ta[1]), html.UnescapeString(ta[2]))
		}
		return form
	}
	d.t.Fatalf("%s has no form posting to %s", page, action)
	return nil
}

// editForm is the edit form as the page submits it for the current version.
func (d *defsAdmin) editForm(id string) url.Values {
	d.t.Helper()
	return d.pageForm("/admin/definitions/"+id, "/admin/definitions/"+id)
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
	form.Set("tool_ids", `["get_weight_trend", "teleport"]`)
	form.Set("output_schema", `{"type": "objekt"}`)
	resp, body = d.post("/admin/definitions/writer", form)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	for _, want := range []string{
		`unknown tool "teleport" (available: ` + strings.Join(d.svc.Registry().ToolIDs(), ", ") + ")", "does not compile",
		"the definition was not saved", `["get_weight_trend", "teleport"]</textarea>`, "You write v2.</textarea>",
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
	form := d.pageForm("/admin/definitions/new", "/admin/definitions")
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
		t.Error("Evaluate is offered for an agent the eval suite does not cover")
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
