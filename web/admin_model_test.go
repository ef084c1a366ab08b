package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/testkit"
)

// Admin → Model follows a connection check live: the page's stream shows
// each step as it runs and then the verdict, with the server's words as
// element text; a forged reset without the CSRF token changes nothing.
func TestAdminModelLiveCheck(t *testing.T) {
	model := llmtest.NewFamily(t, llmtest.VLLM(llmtest.VLLMOptions{Served: "qwen"}))
	// The server holds its first answer until the test lets it go: the
	// check is provably running while the test looks at it.
	release := make(chan struct{})
	var once sync.Once
	model.Otherwise(func(r llmtest.Request) llmtest.Reply {
		<-release
		if strings.Contains(r.Messages()[0].Content, "2 + 3") {
			return llmtest.Text(`{"sum":5,"word":"<b>five</b>"}`, 5, 5)
		}
		return llmtest.Text("Hello to the whole household!", 5, 5)
	})
	env := newAdminEnv(t, withModel(model.URL(), "qwen"))
	adm, ends := env.app.Model, llm.NewEndpoints(env.db)
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // before the app stops and waits for the check

	code, page := env.page("/admin/model")
	if code != 200 || !strings.Contains(page, "Test connection") || !strings.Contains(page, "Nothing learned yet") ||
		!strings.Contains(page, `/admin/live/model`) {
		t.Fatalf("page: %d %.400s", code, page)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience)
	defer cancel()
	s := env.openLive(ctx, "/admin/live/model")
	s.waitEvent(t, 5*time.Second, `id="model-status"`, "Test connection")
	if resp, _ := env.form("/admin/model/check", nil, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d", resp.StatusCode)
	}
	s.waitEvent(t, 5*time.Second, "Testing the connection", "checking…")
	// A second start while the check runs is refused with the page and a
	// message, not an error page.
	if resp, body := env.form("/admin/model/check", nil, false); resp.StatusCode != http.StatusConflict || !strings.Contains(body, "already running") {
		t.Fatalf("second start while running: %d", resp.StatusCode)
	}
	once.Do(func() { close(release) })
	done := s.waitEvent(t, 10*time.Second, "The coach can use this model", "Tool call", "works, adapted",
		"--enable-auto-tool-choice", "vllm")
	if strings.Contains(done, "<b>five</b>") {
		t.Fatal("the model's text reached the page unescaped")
	}
	adm.Wait()

	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/admin/model/reset",
		strings.NewReader(url.Values{"base_url": {model.URL()}, "model": {"qwen"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := env.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("reset without a token: %d", resp.StatusCode)
	}
	if list, _ := ends.List(context.Background()); len(list) != 1 {
		t.Fatalf("a refused reset changed the endpoints: %+v", list)
	}
	if resp, _ := env.form("/admin/model/reset", url.Values{"base_url": {model.URL()}, "model": {"qwen"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("reset: %d", resp.StatusCode)
	}
	s.waitEvent(t, 5*time.Second, "Nothing learned yet")
}
