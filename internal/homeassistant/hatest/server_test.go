package hatest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/homeassistant"
	"hearth/internal/homeassistant/hatest"
)

// The fake must refuse what a real instance refuses, or client bugs pass
// its tests: these are the shapes from docs/api/rest.md and HA-core.
func TestFakeChecksRequestShapes(t *testing.T) {
	ha := hatest.New(t, "tok")
	ha.Add(hatest.Entity{ID: "light.lamp", State: "off"})
	cases := []struct {
		name, method, path, ctype, body, auth string
		status                                int
		want                                  string
	}{
		{"no token", "GET", "/api/", "", "", "", 401, "401: Unauthorized"},
		{"wrong token", "GET", "/api/states", "", "", "Bearer nope", 401, "401: Unauthorized"},
		{"ping", "GET", "/api/", "", "", "Bearer tok", 200, `{"message":"API running."}`},
		{"unknown entity", "GET", "/api/states/light.none", "", "", "Bearer tok", 404, `{"message":"Entity not found."}`},
		{"bad JSON", "POST", "/api/services/light/turn_on", "application/json", "{", "Bearer tok", 400, `{"message":"Data should be valid JSON."}`},
		{"body without JSON type", "POST", "/api/services/light/turn_on", "text/plain", `{"entity_id":"light.lamp"}`, "Bearer tok", 400, "Data should be valid JSON."},
		{"unknown service", "POST", "/api/services/light/blink", "application/json", `{"entity_id":"light.lamp"}`, "Bearer tok", 400, "400: Bad Request"},
		{"other template", "POST", "/api/template", "application/json", `{"template":"{{ states('light.lamp') }}"}`, "Bearer tok", 400, "Error rendering template"},
		{"history without filter", "GET", "/api/history/period/2026-11-20T00:00:00Z", "", "", "Bearer tok", 400, "filter_entity_id is missing"},
		{"history with a '+' left unescaped", "GET", "/api/history/period/2026-11-20T00:00:00Z?filter_entity_id=light.lamp&end_time=2026-11-21T00:00:00+00:00", "", "", "Bearer tok", 400, "Invalid end_time"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, ha.URL()+c.path, strings.NewReader(c.body))
			if c.ctype != "" {
				req.Header.Set("Content-Type", c.ctype)
			}
			if c.auth != "" {
				req.Header.Set("Authorization", c.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status || !strings.Contains(string(body), c.want) {
				t.Fatalf("%d %s, want %d containing %s", resp.StatusCode, body, c.status, c.want)
			}
		})
	}
	calls := ha.Calls()
	if len(calls) != 3 || calls[2].Service != "blink" {
		t.Fatalf("calls = %+v", calls)
	}
	if s, _ := ha.State("light.lamp"); s.State != "off" {
		t.Fatalf("a refused call changed the lamp: %+v", s)
	}
}

func TestFakeTemplateAnswersPlainText(t *testing.T) {
	ha := hatest.New(t, "tok")
	body, _ := json.Marshal(map[string]string{"template": homeassistant.AreasTemplate})
	req, _ := http.NewRequest("POST", ha.URL()+"/api/template", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// Other engineers' tests poll the fake while seeding it; run with -race.
func TestFakeIsSafeForConcurrentUse(t *testing.T) {
	ha := hatest.New(t, "tok")
	ha.AddArea("hall", "Hall")
	ha.Add(hatest.Entity{ID: "light.hall", State: "off", Area: "hall"})
	c := ha.Client(t)
	start := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			ctx := context.Background()
			for j := range 20 {
				switch (i + j) % 5 {
				case 0:
					_, _ = c.CallService(ctx, "light", "toggle", map[string]any{"entity_id": "light.hall"})
				case 1:
					_, _ = c.States(ctx)
				case 2:
					_, _ = c.Areas(ctx)
				case 3:
					_, _ = c.History(ctx, "sensor.w", start, start.Add(time.Hour))
				default:
					ha.SetState("sensor.w", strconv.Itoa(j), map[string]any{"unit_of_measurement": "kg"}, start.Add(time.Duration(j)*time.Minute))
					_ = ha.Calls()
				}
			}
		})
	}
	wg.Wait()
	if n := len(ha.Calls()); n != 32 {
		t.Fatalf("%d calls recorded, want 32", n)
	}
}
