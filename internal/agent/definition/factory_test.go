package definition

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

// withLights replaces the fixture's registry with one that also has a
// named factory, "lights" (switch_light, light_state), whose switch_light
// records what it was asked.
func withLights(f *fixture) *[]string {
	var switched []string
	lightsStatus = ""
	type switchArgs struct {
		Name string `json:"name"`
		On   bool   `json:"on"`
	}
	lights := agent.NewFactory("lights", "Lights", "The house's lights.",
		agent.NewTool("switch_light", "Switch a light.", func(_ context.Context, _ agent.Scope, a switchArgs) (map[string]any, error) {
			switched = append(switched, a.Name)
			return map[string]any{"name": a.Name, "on": a.On}, nil
		}),
		agent.NewTool("light_state", "A light's state.", func(_ context.Context, _ agent.Scope, a struct {
			Name string `json:"name"`
		}) (string, error) {
			return "off", nil
		})).WithStatus(func(context.Context) string { return lightsStatus })
	box, err := agent.NewToolbox(agent.MemoryTools(), lights)
	if err != nil {
		f.t.Fatal(err)
	}
	f.reg.Tools = box
	f.repo = NewRepo(f.db, f.reg)
	return &switched
}

// lightsStatus is the lights factory's status ("" = configured).
var lightsStatus string

// TestDefinitionListsFactories: a definition listing a factory gets every
// tool of it (and its single tools), the list is stored with the version,
// and an unknown or repeated factory is refused when saved.
func TestDefinitionListsFactories(t *testing.T) {
	f := newFixture(t)
	withLights(f)
	if got := f.reg.FactoryNames(); !slices.Equal(got, []string{"memory", "lights"}) {
		t.Fatalf("factories = %v", got)
	}
	d := def("house", "agent:house\nYou run the house.")
	d.Factories, d.ToolIDs = []string{"lights"}, []string{"remember", "light_state"}
	v := f.save(d)
	if got, err := f.repo.Active(context.Background(), "house"); err != nil || !slices.Equal(got.Factories, []string{"lights"}) || v.Number != 1 {
		t.Fatalf("stored factories = %v, %v", got.Factories, err)
	}
	if got := f.reg.AgentTools(d); !slices.Equal(got, []string{"switch_light", "light_state", "remember"}) {
		t.Fatalf("agent tools = %v", got)
	}

	m := newFakeModel()
	m.reply("house", "Done.")
	if _, err := f.runner(m).Invoke(context.Background(), "house", Params{Member: "ada", Message: "lights on"}); err != nil {
		t.Fatal(err)
	}
	// A factory whose system is not set up still offers its tools (their
	// calls fail with why); the run's step says so.
	lightsStatus = "the lights are not set up"
	res, err := f.runner(m).Invoke(context.Background(), "house", Params{Member: "ada", Message: "lights on"})
	if err != nil || !slices.Contains(res.Steps[0].Notes, "tool factory lights: the lights are not set up") {
		t.Fatalf("not configured: notes %v, %v", res.Steps, err)
	}
	var offered []string
	for _, s := range m.requests("house")[0].Tools {
		offered = append(offered, s.Name)
	}
	if !slices.Equal(offered, []string{"switch_light", "light_state", "remember"}) {
		t.Fatalf("the model was offered %v", offered)
	}

	for _, c := range []struct {
		factories []string
		want      string
	}{
		{[]string{"garage"}, `unknown tool factory "garage" (available: memory, lights)`},
		{[]string{"lights", "lights"}, `"lights" is listed twice`},
	} {
		bad := def("house", "agent:house\nYou run the house.")
		bad.Factories = c.factories
		_, err := f.repo.Save(context.Background(), bad, "test", "")
		var ae *apperr.Error
		if !errorsAs(err, &ae) || !strings.Contains(ae.Fields["factories"], c.want) {
			t.Errorf("factories %v: %v, want %q on the factories field", c.factories, err, c.want)
		}
	}
}

// TestToolHeuristicAnswersEverywhereWithoutAModel: an agent with a tool
// heuristic answers the API without a model (not "needs a model"), its
// tool calls run through the definition's tools and are recorded on the
// run; a tool the definition does not list is refused.
func TestToolHeuristicAnswersEverywhereWithoutAModel(t *testing.T) {
	f := newFixture(t)
	switched := withLights(f)
	d := def("house", "agent:house\nYou run the house.")
	d.Factories = []string{"lights"}
	f.save(d)
	r, err := NewInvoker(f.repo, f.engine(nil, agent.Options{}), Options{ToolHeuristics: map[string]ToolHeuristic{
		"house": func(ctx context.Context, call agent.ToolCaller, message string) (string, error) {
			if _, err := call(ctx, "remember", json.RawMessage(`{"key":"k","value":"v","ttl_hours":1}`)); err == nil {
				return "", apperr.Invalidf("remember is not this agent's tool, yet it ran")
			}
			res, err := call(ctx, "switch_light", json.RawMessage(`{"name":"porch","on":true}`))
			if err != nil {
				return "", err
			}
			b, _ := json.Marshal(res)
			return "Asked: " + message + "; " + string(b), nil
		}}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := r.Answer(context.Background(), agent.Request{Agent: "house", Member: "ada", Message: "porch light on"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != agent.StatusSucceeded || !strings.Contains(string(run.Output), `Asked: porch light on; {\"name\":\"porch\",\"on\":true}`) {
		t.Fatalf("run = %s %s (%s)", run.Status, run.Output, run.Error)
	}
	if !slices.Equal(*switched, []string{"porch"}) {
		t.Fatalf("switched %v", *switched)
	}
	stored := f.run(run.ID)
	var names []string
	for _, c := range stored.ToolCalls {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"remember", "switch_light"}) || stored.ToolCalls[0].Error == "" || stored.ToolCalls[1].Error != "" {
		t.Fatalf("recorded calls = %+v", stored.ToolCalls)
	}

	// An agent without one still says it needs a model.
	f.save(def("greeter", "agent:greeter\nYou greet."))
	run, err = r.Answer(context.Background(), agent.Request{Agent: "greeter", Member: "ada", Message: "hi"}, true)
	if err != nil || run.FallbackReason != FallbackNeedsModel {
		t.Fatalf("greeter: %+v, %v", run, err)
	}
}
