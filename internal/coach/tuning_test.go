package coach

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/health"
)

type tuningFunc func() (Tuning, error)

func (f tuningFunc) CoachTuning(context.Context) (Tuning, error) { return f() }

// TestTuningSourceDrivesEveryRun: the definitions' prompts replace the
// built-in ones on the next run, without a code change; a failing source
// or a broken template falls back to the defaults.
func TestTuningSourceDrivesEveryRun(t *testing.T) {
	var calls atomic.Int32
	current := Tuning{SystemPrompt: "CUSTOM SYSTEM v1", UserTemplate: "Member {{member}} on {{date}}, unit {{unit}}.\n{{followups}}"}
	var fail error
	src := tuningFunc(func() (Tuning, error) {
		calls.Add(1)
		return current, fail
	})
	srv := llmtest.New(t)
	rt, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "test", Model: "fake", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fixtureOpts{model: rt, tuning: src})
	seedMaya(f)
	good := modelDoc("local:ember-core-04", "Hollow Body Basics", 16, "Core day.")
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.JSON(good, 10, 10) })

	r := f.run("maya")
	mustStatus(t, r, agent.StatusSucceeded)
	sys := srv.ChatRequests()[0].Messages()[0]
	if sys.Role != "system" || !strings.Contains(sys.Content, "CUSTOM SYSTEM v1") || !strings.HasPrefix(sys.Content, Persona) ||
		strings.Contains(sys.Content, "Your assignment: write today's dashboard") {
		t.Fatalf("system message %q, want the persona and the tuned prompt only", sys.Content)
	}
	user := srv.ChatRequests()[0].LastMessage().Content
	if user != "Member Maya (member id maya) on Wednesday 18 Feb 2026 (2026-02-18), unit kg.\nFollow-ups: none." {
		t.Fatalf("user message %q", user)
	}

	current = Tuning{SystemPrompt: "CUSTOM SYSTEM v2", UserTemplate: "Hi {{member}} {{nope}}"}
	f.clk.Advance(1)
	f.run("maya")
	reqs := srv.ChatRequests()
	last := reqs[len(reqs)-1].Messages()
	if !strings.Contains(last[0].Content, "CUSTOM SYSTEM v2") || !strings.Contains(last[1].Content, "## Content menu") {
		t.Fatalf("v2: system %q / user %q; want the new system prompt and the built-in template", last[0].Content, last[1].Content)
	}

	fail = errors.New("definitions table locked")
	f.run("maya")
	reqs = srv.ChatRequests()
	if sys := reqs[len(reqs)-1].Messages()[0].Content; !strings.Contains(sys, "Your assignment: write today's dashboard") {
		t.Fatalf("a failing source did not fall back to the built-in prompt: %q", sys)
	}
	if calls.Load() != 3 {
		t.Errorf("tuning source asked %d times, want once per run", calls.Load())
	}
}

func TestTemplateRendering(t *testing.T) {
	if err := CheckTemplate(DefaultTuning().UserTemplate); err != nil {
		t.Fatalf("default template: %v", err)
	}
	for _, v := range TemplateVariables() {
		if v != "gathered" && !strings.HasPrefix(v, "user.") && !strings.Contains(DefaultTuning().UserTemplate, "{{"+v+"}}") {
			t.Errorf("the default template does not use {{%s}}", v)
		}
	}
	err := CheckTemplate("{{member}} {{ weather }} {{nope}} {{nope}}")
	if err == nil || !strings.Contains(err.Error(), "weather, nope") {
		t.Fatalf("unknown variables: %v", err)
	}
	out, err := render("A {{ member }} B {{data}}", map[string]string{"member": "Ada {{data}}", "data": "x"})
	if err != nil || out != "A Ada {{data}} B x" {
		t.Fatalf("render = %q, %v (values must not be expanded again)", out, err)
	}
	f := newFixture(t, fixtureOpts{tuning: tuningFunc(func() (Tuning, error) {
		return Tuning{UserTemplate: "All of it: {{gathered}}"}, nil
	})})
	f.member(health.Member{ID: "ada", Name: "Ada"})
	r := f.run("ada")
	if !strings.HasPrefix(r.Prompt.User, `All of it: {"member":{"id":"ada"`) || !strings.Contains(r.Prompt.System, "Your assignment") {
		t.Fatalf("{{gathered}} run prompt: system %q user %.80q", r.Prompt.System, r.Prompt.User)
	}
	// {{user.<field>}}, as the definition editor advertises, is the member.
	f2 := newFixture(t, fixtureOpts{tuning: tuningFunc(func() (Tuning, error) {
		return Tuning{SystemPrompt: "Coach {{user.name}} ({{user.id}}, {{user.unit}}).", UserTemplate: "{{data}}"}, nil
	})})
	f2.member(health.Member{ID: "ada", Name: "Ada", Unit: health.KG})
	if r := f2.run("ada"); !strings.Contains(r.Prompt.System, "Coach Ada (ada, kg).") {
		t.Fatalf("{{user.name}} in the coach's system prompt: %.200q", r.Prompt.System)
	}
}

func TestDefaultPromptIsCompact(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	f.member(health.Member{ID: "nova", Name: "Nova"})
	for _, m := range []string{"maya", "nova"} {
		r := f.run(m)
		// Roughly 4 characters a token: the whole prompt stays a few thousand tokens.
		if n := len(r.Prompt.System) + len(r.Prompt.User); n > 14000 {
			t.Errorf("%s: prompt is %d characters", m, n)
		}
		for _, want := range []string{"## Facts", "## Content menu", "local:", "## Working memory", "### Persistent"} {
			if !strings.Contains(r.Prompt.User, want) {
				t.Errorf("%s: prompt lacks %q", m, want)
			}
		}
	}
}
