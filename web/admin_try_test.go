package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// "Try it" with no model configured answers with the built-in heuristic,
// and the page says so (before and after).
func TestTryItWithoutAModel(t *testing.T) {
	s := newSweepServer(t)
	page := s.do(swReq{method: http.MethodGet, path: "/admin/definitions/health-coach"})
	if page.Code != 200 || !strings.Contains(page.Body.String(), `id="try-no-model"`) {
		t.Fatalf("edit page (%d) does not say Try it runs without a model", page.Code)
	}
	form := url.Values{"member": {"maya"}, "message": {"How am I doing this week?"}}
	rec := s.do(swReq{method: http.MethodPost, path: "/admin/definitions/health-coach/try", ctype: "application/x-www-form-urlencoded",
		body: []byte(form.Encode())})
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, `id="try-heuristic"`) || !strings.Contains(body, "built-in heuristic") ||
		strings.Contains(body, "The agent failed") || !strings.Contains(body, "briefing") {
		i := strings.Index(body, `id="try"`)
		t.Fatalf("try without a model: %d\n%.3000s", rec.Code, body[max(i, 0):])
	}
}
