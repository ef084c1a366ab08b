package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/app"
	"hearth/internal/coach"
)

// definitionForm is the Admin → Agents edit form filled with d, as the
// page renders it.
func definitionForm(t *testing.T, d definition.Definition) url.Values {
	t.Helper()
	js := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	f := url.Values{"system_prompt": {d.SystemPrompt}, "user_template": {d.UserTemplate}, "model": {d.Model},
		"max_tokens": {strconv.Itoa(d.MaxTokens)}, "max_iterations": {strconv.Itoa(d.MaxIterations)},
		"max_retries": {strconv.Itoa(d.MaxRetries)}, "tool_ids": {js(d.ToolIDs)}, "context_types": {js(d.ContextTypes)},
		"validation_rules": {js(d.ValidationRules)}, "sub_agents": {js(d.SubAgents)}, "hooks": {js(d.Hooks)},
		"tool_hooks": {js(d.ToolHooks)}, "output_schema": {js(d.OutputSchema)}}
	if d.Temperature != nil {
		f.Set("temperature", strconv.FormatFloat(*d.Temperature, 'f', -1, 64))
	}
	return f
}

func demoServer(t *testing.T) *running {
	dir := t.TempDir()
	return startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Demo: true,
		Location: time.UTC, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices, ModelConcurrency: 2})
}

// The run page shows the prompt the active definition gives, also for a
// run the built-in coach answered, and says plainly that no model saw it:
// an edit saved in Admin → Agents is on the page of the next run, with
// the version it came from. Checked by not marking heuristic runs (the
// page lacks "Not sent (heuristic run)") and by dropping the source.
func TestRunPageShowsTheActiveDefinitionsPromptMarkedNotSent(t *testing.T) {
	srv := demoServer(t)
	ctx := context.Background()
	a := newAdminClient(t, srv.url)
	cur, err := srv.app.Definitions.Active(ctx, coach.AgentID)
	if err != nil {
		t.Fatal(err)
	}
	form := definitionForm(t, cur.Definition)
	form.Set("system_prompt", cur.SystemPrompt+"\nAlways name the household's pineapple rule.")
	form.Set("change_note", "pineapple rule")
	resp, body := a.post("/admin/definitions/health-coach", form)
	want := fmt.Sprintf("/admin/definitions/health-coach?saved=%d", cur.Number+1)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
		t.Fatalf("save: %d %s\n%s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	resp, _ = a.post("/admin/assignments/health-coach/daily-dashboard/run", url.Values{"member": {"maya"}})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/admin/runs/") {
		t.Fatalf("run now: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(resp.Header.Get("Location"), "/admin/runs/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	r, err := srv.app.Agents.Wait(ctx, id)
	if err != nil || r.Model != "heuristic" || r.Status != agent.StatusSucceeded {
		t.Fatalf("run %d: %s %s %v", id, r.Status, r.Model, err)
	}
	code, page := a.get(fmt.Sprintf("/admin/runs/%d", id))
	for _, w := range []string{"Not sent (heuristic run)", fmt.Sprintf("Instructions from definition health-coach v%d.", cur.Number+1),
		"Always name the household's pineapple rule."} {
		if code != http.StatusOK || !strings.Contains(page, w) {
			t.Errorf("run page (%d) lacks %q", code, w)
		}
	}
}

// A member field that does not exist is refused on save, with a field
// error that names the fields there are, and the agent keeps its version.
// Checked by accepting every user.<field> again: the save went through.
func TestDefinitionSaveRefusesAnUnknownMemberField(t *testing.T) {
	srv := demoServer(t)
	ctx := context.Background()
	a := newAdminClient(t, srv.url)
	cur, err := srv.app.Definitions.Active(ctx, coach.AgentID)
	if err != nil {
		t.Fatal(err)
	}
	form := definitionForm(t, cur.Definition)
	form.Set("system_prompt", cur.SystemPrompt+"\nMention {{user.favourite_food}}.")
	resp, body := a.post("/admin/definitions/health-coach", form)
	want := `<span class="field-error" role="alert">unknown member field {{user.favourite_food}}: the member's fields are {{user.id}}, {{user.name}}, {{user.unit}}</span>`
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, want) {
		t.Fatalf("save with {{user.favourite_food}}: %d, want 400 with %s\n%.3000s", resp.StatusCode, want, body)
	}
	if now, err := srv.app.Definitions.Active(ctx, coach.AgentID); err != nil || now.Number != cur.Number {
		t.Fatalf("active version %d (%v), want %d unchanged", now.Number, err, cur.Number)
	}
}
