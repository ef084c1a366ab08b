package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
)

// smallModel answers the coach (a document with no content and no
// numbers, which passes the coach's checks) and the connection check's
// three questions.
func smallModel(r llmtest.Request) llmtest.Reply {
	first := ""
	for _, m := range r.Messages() {
		if m.Role == "user" {
			first = m.Content
			break
		}
	}
	switch {
	case strings.Contains(first, "2 + 3"):
		return llmtest.Text("```json\n{\"sum\": 5, \"word\": \"five\"}\n```", 0, 0)
	case strings.Contains(first, "add tool"):
		return llmtest.Text("5", 0, 0)
	case strings.Contains(first, "Say hello"):
		return llmtest.Text("Hello to all of you here!", 0, 0)
	}
	doc, _ := json.Marshal(map[string]any{"generated_at": time.Now().UTC().Format(time.RFC3339),
		"curated": map[string]any{"up_next": map[string]any{"primary": nil, "alternates": []any{}}, "playlist_suggestion": []any{}},
		"coach":   map[string]any{"briefing": "Good morning, keep going.", "cta": []any{}, "prompts": []any{}, "feedback": []any{}}})
	return llmtest.Text("Here it is:\n"+string(doc), 0, 0)
}

// Admin → Model and the run page against a minimal server that refuses
// tools and every response format: the coach's run succeeds in text mode
// and its page says why, with the server's words; the page lists what was
// learned, "Test connection" runs and reports, and Reset forgets.
func TestAdminModelPage(t *testing.T) {
	model := llmtest.NewFamily(t, llmtest.Minimal(llmtest.MinimalOptions{}))
	model.Otherwise(smallModel)
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"),
		Location: time.UTC, Demo: true, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices,
		OpenAIBaseURL: model.URL(), Model: "small-model"})
	ctx := context.Background()
	run, err := srv.app.Agents.Run(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID,
		Member: "maya", Trigger: agent.TriggerManual})
	if err != nil || run.Status != agent.StatusSucceeded || run.FallbackReason != "" {
		t.Fatalf("run %+v: %v", run, err)
	}

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) string {
		t.Helper()
		resp, err := c.Get(srv.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %.300s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	runPage := get(fmt.Sprintf("/admin/runs/%d", run.ID))
	for _, want := range []string{"The model server:", "tools off (tool-less mode), because the server answered 400 Bad Request: tools are not supported",
		"response_format type &#39;json_schema&#39; is not supported"} {
		if !strings.Contains(runPage, want) {
			t.Errorf("run page lacks %q", want)
		}
	}

	page := get("/admin/model")
	for _, want := range []string{model.URL(), "small-model", "Test connection", "What worked, per endpoint", "structured output text with the schema in the prompt",
		"tool-less", "tools are not supported", "recognised by not recognised: generic settings"} {
		if !strings.Contains(page, want) {
			t.Errorf("model page lacks %q", want)
		}
	}
	var token string
	u, _ := url.Parse(srv.url)
	for _, ck := range jar.Cookies(u) {
		if ck.Name == "hearth_csrf" {
			token = ck.Value
		}
	}
	post := func(path string, form url.Values) *http.Response {
		t.Helper()
		form.Set("_csrf", token)
		req, _ := http.NewRequest(http.MethodPost, srv.url+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", srv.url)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := post("/admin/model/check", url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("test connection: %d", resp.StatusCode)
	}
	srv.app.Model.Wait()
	page = get("/admin/model")
	for _, want := range []string{"Connection test", "Structured output", "works, adapted", "Tool call", "Streamed reply",
		"The coach can use this model", "last tested"} {
		if !strings.Contains(page, want) {
			t.Errorf("after the check the page lacks %q", want)
		}
	}
	if strings.Contains(page, "checking…") {
		t.Error("a finished check still shows a running step")
	}
	if resp := post("/admin/model/reset", url.Values{"base_url": {model.URL()}, "model": {"small-model"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("reset: %d", resp.StatusCode)
	}
	if page = get("/admin/model"); !strings.Contains(page, "Nothing learned yet") {
		t.Error("reset did not forget the endpoint")
	}
	if resp := post("/admin/model/reset", url.Values{"base_url": {model.URL()}, "model": {"small-model"}}); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("reset of nothing: %d", resp.StatusCode)
	}
	if resp := post("/admin/model/reset", url.Values{}); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("reset without an endpoint: %d", resp.StatusCode)
	}
}
