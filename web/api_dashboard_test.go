package web_test

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestDashboardAPI(t *testing.T) {
	k := newKiosk(t)
	doc := sampleDoc("Morning.")
	k.putDoc("ada", today(), doc)
	for _, date := range []string{"today", today()} {
		resp, err := http.Get(k.srv.URL + "/api/v1/health-dashboard/ada/" + date)
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]json.RawMessage
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var keys []string
		for k := range body {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if resp.StatusCode != 200 || strings.Join(keys, ",") != "coach,curated,generated_at,run_id" {
			t.Fatalf("%s: %d keys %v", date, resp.StatusCode, keys)
		}
		var gen time.Time
		_ = json.Unmarshal(body["generated_at"], &gen)
		if !gen.Equal(doc.GeneratedAt) || string(body["run_id"]) != "7" || !strings.Contains(string(body["coach"]), `"briefing":"Morning."`) {
			t.Errorf("%s: generated_at %v run_id %s", date, gen, body["run_id"])
		}
	}
	cases := map[string]struct {
		code     int
		fallback bool
	}{
		"/api/v1/health-dashboard/bo/today":       {404, true},
		"/api/v1/health-dashboard/ada/2001-01-01": {404, true},
		"/api/v1/health-dashboard/nobody/today":   {404, true},
		"/api/v1/health-dashboard/ada/yesterday":  {400, false},
	}
	for path, want := range cases {
		code, body := do(t, "GET", k.srv.URL+path, "")
		if code != want.code || body["error"] == nil || (body["fallback"] == "live") != want.fallback {
			t.Errorf("GET %s: %d %v, want %d fallback=%v", path, code, body, want.code, want.fallback)
		}
	}
}

func TestCatalogAPI(t *testing.T) {
	k := newKiosk(t)
	code, body := do(t, "GET", k.srv.URL+"/api/v1/catalog", "")
	items, _ := body["items"].([]any)
	if code != 200 || len(items) < 10 {
		t.Fatalf("catalog: %d, %d items", code, len(items))
	}
	first := items[0].(map[string]any)
	for _, f := range []string{"id", "title", "duration", "kind"} {
		if first[f] == nil {
			t.Errorf("catalog item lacks %q: %v", f, first)
		}
	}
	code, body = do(t, "GET", k.srv.URL+"/api/v1/catalog?program=ember-core-30&limit=3", "")
	items, _ = body["items"].([]any)
	if code != 200 || len(items) != 3 || items[0].(map[string]any)["program"] != "ember-core-30" {
		t.Fatalf("filtered catalog: %d %v", code, body)
	}
	if code, _ := do(t, "GET", k.srv.URL+"/api/v1/catalog?limit=0", ""); code != 400 {
		t.Errorf("limit=0: %d", code)
	}
}

func TestAnswerAPI(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	url := k.srv.URL + "/api/v1/members/ada/prompts/p1/answer"
	if code, body := do(t, "POST", url, `{"answer":"Something lighter"}`); code != 201 || body["answer"] != "Something lighter" || body["kind"] != "tap" {
		t.Fatalf("answer: %d %v", code, body)
	}
	if code, _ := do(t, "POST", url, `{"answer":"Rest day"}`); code != 409 {
		t.Errorf("second answer: %d, want 409", code)
	}
	for body, want := range map[string]int{`{"answer":"not an option"}`: 400, `{}`: 400, `{"answer":1}`: 400, `{"answer":"x","extra":1}`: 400} {
		if code, _ := do(t, "POST", k.srv.URL+"/api/v1/members/ada/prompts/p2/answer", body); code != want {
			t.Errorf("POST %s: %d, want %d", body, code, want)
		}
	}
	if code, _ := do(t, "POST", k.srv.URL+"/api/v1/members/ada/prompts/nope/answer", `{"answer":"x"}`); code != 404 {
		t.Errorf("unknown prompt: %d", code)
	}
	_, page := k.get("/m/ada")
	if !strings.Contains(page, `<span class="answer-text">Something lighter</span>`) {
		t.Error("API answer not shown on the dashboard")
	}
}
