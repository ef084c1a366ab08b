package app_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/homeassistant"
	"hearth/internal/homeassistant/hatest"
)

// haToken is the long-lived token of the tests' Home Assistant: it must
// reach Home Assistant and nothing else.
const haToken = "ha-secret-token-7f3a9c1e5b"

// fakeHome is a Home Assistant with a living room (a lamp and a
// thermometer) and a kitchen light.
func fakeHome(t *testing.T) *hatest.Server {
	ha := hatest.New(t, haToken)
	ha.AddArea("living_room", "Living Room")
	ha.AddArea("kitchen", "Kitchen")
	ha.Add(hatest.Entity{ID: "light.living_room_lamp", Name: "Living room lamp", State: "off", Area: "living_room"})
	ha.Add(hatest.Entity{ID: "light.kitchen", Name: "Kitchen light", State: "off", Area: "kitchen"})
	ha.Add(hatest.Entity{ID: "sensor.living_room_temperature", Name: "Living room temperature", State: "21.5", Unit: "°C",
		Area: "living_room", Attributes: map[string]any{"device_class": "temperature"}})
	return ha
}

func homeApp(t *testing.T, cfg app.Config) *running {
	t.Helper()
	dir := t.TempDir()
	cfg.Addr, cfg.DataDir, cfg.DBPath, cfg.Location, cfg.KioskIdle = "127.0.0.1:0", dir, filepath.Join(dir, "hearth.db"), time.UTC, 10*time.Minute
	run := startApp(t, cfg)
	seed(t, run.app)
	return run
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %s: %v", url, b, err)
	}
}

func factoryInfo(t *testing.T, base, name string) agent.FactoryInfo {
	t.Helper()
	var body struct{ Factories []agent.FactoryInfo }
	getJSON(t, base+"/api/tool-factories", &body)
	for _, f := range body.Factories {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("GET /api/tool-factories has no %q: %+v", name, body.Factories)
	return agent.FactoryInfo{}
}

func homeRun(t *testing.T, base, message string) agent.Run {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"member": "ada", "message": message})
	resp, err := http.Post(base+"/api/agents/home-controller/run", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var run agent.Run
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &run) != nil {
		t.Fatalf("run the home controller: %d %s", resp.StatusCode, b)
	}
	return run
}

func callNames(run agent.Run) []string {
	var out []string
	for _, c := range run.ToolCalls {
		out = append(out, c.Name)
	}
	return out
}

// TestHomeControllerTurnsOnALight: the seeded home controller, asked
// through the API with a (scripted) model, finds the living room's lights
// with home_list_entities and turns the lamp on with home_call_service:
// Home Assistant receives light.turn_on for that entity with the token.
// The token reaches nothing else: not the model's requests, not the run
// record, not the factory listing.
func TestHomeControllerTurnsOnALight(t *testing.T) {
	ha := fakeHome(t)
	srv := llmtest.New(t)
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		last := r.LastMessage()
		switch {
		case last.Role != "tool":
			return llmtest.Tool("home_list_entities", map[string]any{"domain": "light", "area": "living room"})
		case strings.Contains(last.Content, `"total"`):
			return llmtest.Tool("home_call_service", map[string]any{"domain": "light", "service": "turn_on",
				"entity_id": "light.living_room_lamp", "data": nil})
		}
		return llmtest.Text("The living room lamp is on.", 5, 5)
	})
	run := homeApp(t, app.Config{OpenAIBaseURL: srv.URL(), OpenAIKey: "k", Model: "fake", HAURL: ha.URL(), HAToken: haToken})

	f := factoryInfo(t, run.url, homeassistant.FactoryName)
	if !f.Configured || !slices.Equal(f.Tools, []string{"home_list_entities", "home_get_state", "home_call_service"}) {
		t.Fatalf("factory = %+v", f)
	}
	r := homeRun(t, run.url, "Turn on the living room lights")
	if r.Status != agent.StatusSucceeded || !strings.Contains(string(r.Output), "lamp is on") {
		t.Fatalf("run %d: %s %s (%s)", r.ID, r.Status, r.Output, r.Error)
	}
	calls := ha.Calls()
	if len(calls) != 1 || calls[0].Domain != "light" || calls[0].Service != "turn_on" || !calls[0].Authorized ||
		calls[0].Data["entity_id"] != "light.living_room_lamp" {
		t.Fatalf("Home Assistant received %+v", calls)
	}
	if st, _ := ha.State("light.living_room_lamp"); st.State != "on" {
		t.Fatalf("lamp is %q", st.State)
	}
	stored, err := run.app.Agents.Runs().Get(context.Background(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := callNames(stored); !slices.Equal(got, []string{"home_list_entities", "home_call_service"}) {
		t.Fatalf("recorded calls %v", got)
	}
	raw, _ := json.Marshal(stored)
	if strings.Contains(string(raw), haToken) {
		t.Fatal("the run record holds the Home Assistant token")
	}
	for i, req := range srv.Requests() {
		if req.Contains(haToken) {
			t.Fatalf("model request %d holds the Home Assistant token", i)
		}
	}
	var listing json.RawMessage
	getJSON(t, run.url+"/api/tool-factories", &listing)
	if strings.Contains(string(listing), haToken) {
		t.Fatal("the factory listing holds the token")
	}
}

// TestHomeControllerWithoutAModel: with no model the home controller still
// does the plain forms (a chat turn and the API), through its tools, and
// the run records the calls; what it cannot do it says.
func TestHomeControllerWithoutAModel(t *testing.T) {
	ha := fakeHome(t)
	run := homeApp(t, app.Config{HAURL: ha.URL(), HAToken: haToken})
	code, answer := chatTurn(t, run.url, "home-controller", "turn on the kitchen light")
	if code != http.StatusOK || !strings.Contains(strings.ToLower(answer), "kitchen") {
		t.Fatalf("chat: %d %q", code, answer)
	}
	if calls := ha.Calls(); len(calls) != 1 || calls[0].Service != "turn_on" || calls[0].Data["entity_id"] != "light.kitchen" {
		t.Fatalf("Home Assistant received %+v", calls)
	}
	r := homeRun(t, run.url, "what's the temperature in the living room?")
	if r.Status != agent.StatusSucceeded || !strings.Contains(string(r.Output), "21.5") || len(r.ToolCalls) == 0 {
		t.Fatalf("temperature: %s %s calls %v", r.Status, r.Output, callNames(r))
	}
	r = homeRun(t, run.url, "order a pizza")
	if r.Status != agent.StatusSucceeded || len(ha.Calls()) != 1 || !strings.Contains(string(r.Output), "language model") {
		t.Fatalf("what it cannot do: %s %s; calls %+v", r.Status, r.Output, ha.Calls())
	}
}

// TestHomeAssistantNotConfigured: without Home Assistant the factory
// reports "not configured", the home controller says so (with or without a
// model), and the rest of Hearth is unaffected.
func TestHomeAssistantNotConfigured(t *testing.T) {
	run := homeApp(t, app.Config{})
	f := factoryInfo(t, run.url, homeassistant.FactoryName)
	if f.Configured || !strings.Contains(f.Status, "not configured") {
		t.Fatalf("factory = %+v", f)
	}
	if h := factoryInfo(t, run.url, "health"); !h.Configured {
		t.Fatalf("health factory = %+v", h)
	}
	r := homeRun(t, run.url, "turn on the kitchen light")
	if r.Status != agent.StatusSucceeded || !strings.Contains(string(r.Output), "not set up") {
		t.Fatalf("home controller: %s %s (%s)", r.Status, r.Output, r.Error)
	}
	// The coach's day is prepared as before.
	if _, err := run.app.Agents.Run(context.Background(), agent.Request{Agent: "health-coach", Assignment: "daily-dashboard",
		Member: "ada", Trigger: agent.TriggerManual}); err != nil {
		t.Fatalf("coach: %v", err)
	}
}
