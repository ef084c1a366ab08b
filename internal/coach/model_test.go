package coach

import (
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// modelFixture is a fixture whose coach reasons with the fake OpenAI
// server through the real openai-go client.
func modelFixture(t *testing.T) (*fixture, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t)
	rt, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "test", Model: "fake", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	return newFixture(t, fixtureOpts{model: rt}), srv
}

// modelDoc is a dashboard a model might write: Up Next is the given
// content (duration as given), the briefing the given text.
func modelDoc(id, title string, duration int, briefing string) dashboard.Document {
	main := dashboard.ContentRef{ContentID: id, Title: title, Duration: duration, ProgramContext: "Ember Core 30 · Week 1, Day 4", Reason: "program_day"}
	return dashboard.Document{
		Curated: dashboard.Curated{
			UpNext: dashboard.UpNext{Primary: &main, Alternates: []dashboard.ContentRef{
				{ContentID: "local:stretch-full-body-10", Title: "10-Minute Full-Body Stretch", Duration: 10, Reason: "lighter_option"},
			}},
			PlaylistSuggestion: []dashboard.ContentRef{
				{ContentID: "local:warmup-full-body-5", Title: "5-Minute Full-Body Warm-Up", Duration: 5},
				main,
			},
		},
		Coach: dashboard.Coach{Briefing: briefing, CTA: []dashboard.CTA{}, Prompts: []dashboard.Prompt{}, Feedback: []string{}},
	}
}

func seedMaya(f *fixture) {
	for _, h := range households {
		if h.id == "maya" {
			h.seed(f, h.id)
		}
	}
}

// TestModelHallucinatedContentRejectedThenCorrected is acceptance 2 (first
// half): a reply naming content that is not in the catalog fails domain
// validation, the errors go back to the model, and the corrected reply is
// the stored document.
func TestModelHallucinatedContentRejectedThenCorrected(t *testing.T) {
	f, srv := modelFixture(t)
	seedMaya(f)
	bad := modelDoc("local:p90x-day-23", "Shoulders & Arms", 60, "Strong week so far. Today is core day.")
	good := modelDoc("local:ember-core-04", "Hollow Body Basics", 16, "Strong week so far. Today is core day: Hollow Body Basics.")
	srv.Push(llmtest.JSON(bad, 900, 300), llmtest.JSON(good, 1200, 300))

	r := f.run("maya")
	mustStatus(t, r, agent.StatusSucceeded)
	if r.Attempts != 2 || r.Model != "fake" || r.FallbackReason != "" {
		t.Fatalf("run attempts %d model %q fallback %q, want 2 model attempts", r.Attempts, r.Model, r.FallbackReason)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d chat requests, want 2", len(reqs))
	}
	retry := reqs[1].LastMessage().Content
	if !strings.Contains(retry, "local:p90x-day-23") || !strings.Contains(retry, "not in the catalog") ||
		!strings.Contains(retry, "/curated/up_next/primary/content_id") {
		t.Fatalf("the retry does not carry the domain error:\n%s", retry)
	}
	if rf := reqs[0].ResponseFormat(); rf == nil {
		t.Error("the request asked for no structured output")
	}
	d := f.today("maya").Document
	if d.Coach.Briefing != good.Coach.Briefing || d.Curated.UpNext.Primary.ContentID != "local:ember-core-04" {
		t.Fatalf("stored %q / %s, want the corrected reply", d.Coach.Briefing, d.Curated.UpNext.Primary.ContentID)
	}
	if len(r.ValidationErrors) != 1 || r.ValidationErrors[0].Source != agent.SourceModel {
		t.Errorf("validation errors recorded: %+v", r.ValidationErrors)
	}
}

// TestModelNeverValidFallsBackToHeuristic is acceptance 2 (second half):
// when no reply validates, the heuristic document is stored and the run
// says fell_back.
func TestModelNeverValidFallsBackToHeuristic(t *testing.T) {
	f, srv := modelFixture(t)
	seedMaya(f)
	bad := modelDoc("local:does-not-exist", "Ghost Workout", 30, "Today is a good day.")
	srv.Push(llmtest.JSON(bad, 900, 300), llmtest.JSON(bad, 900, 300), llmtest.JSON(bad, 900, 300))

	r := f.run("maya")
	mustStatus(t, r, agent.StatusFellBack)
	if !strings.HasPrefix(r.FallbackReason, "invalid_output") || len(srv.ChatRequests()) != 3 {
		t.Fatalf("fallback %q after %d requests, want invalid_output after 3", r.FallbackReason, len(srv.ChatRequests()))
	}
	d := f.today("maya").Document
	if p := d.Curated.UpNext.Primary; p == nil || p.ContentID != "local:ember-core-04" || p.Reason != ReasonProgramDay {
		t.Fatalf("stored up next %+v, want the heuristic's program day", p)
	}
	if !strings.Contains(d.Coach.Briefing, "Week 1, Day 4 of Ember Core 30") {
		t.Fatalf("stored briefing %q is not the heuristic's", d.Coach.Briefing)
	}
	checkCatalog(t, f, d)
}

// TestModelInventedNumberRejected: a briefing figure that no tool returned
// is a domain error sent back to the model.
func TestModelInventedNumberRejected(t *testing.T) {
	f, srv := modelFixture(t)
	seedMaya(f)
	invented := modelDoc("local:ember-core-04", "Hollow Body Basics", 16, "You walked 12,345 steps yesterday and weigh 69.2 kg.")
	fixed := modelDoc("local:ember-core-04", "Hollow Body Basics", 16, "You weigh 69.2 kg, down 0.4 kg over 7 days.")
	srv.Push(llmtest.JSON(invented, 900, 300), llmtest.JSON(fixed, 900, 300))

	r := f.run("maya")
	mustStatus(t, r, agent.StatusSucceeded)
	retry := srv.ChatRequests()[1].LastMessage().Content
	if !strings.Contains(retry, "12,345") || !strings.Contains(retry, "/coach/briefing") {
		t.Fatalf("the retry does not name the invented number:\n%s", retry)
	}
	if strings.Contains(retry, "the number 69.2") || strings.Contains(retry, "the number 0.4") {
		t.Fatalf("real figures were rejected:\n%s", retry)
	}
	if got := f.today("maya").Document.Coach.Briefing; got != fixed.Coach.Briefing {
		t.Fatalf("stored briefing %q", got)
	}
}

// TestModelMayNotReaskAnsweredPrompt: a prompt that memory marks answered
// is refused, with the reason sent back.
func TestModelMayNotReaskAnsweredPrompt(t *testing.T) {
	f, srv := modelFixture(t)
	f.member(health.Member{ID: "nova", Name: "Nova"})
	if _, err := f.orch.Memory().Set(f.ctx, AgentID, "nova", keyAnswered+promptGoal, optStronger, 0, agent.AdminActor("test")); err != nil {
		t.Fatal(err)
	}
	again := modelDoc("local:main-first-week-sampler", "First Week Sampler", 20, "Welcome!")
	again.Coach.Prompts = []dashboard.Prompt{{ID: promptGoal, Type: dashboard.PromptMultipleChoice, Question: "What's your main goal right now?",
		Options: []string{optLoseWeight, optStronger}}}
	fine := modelDoc("local:main-first-week-sampler", "First Week Sampler", 20, "Welcome!")
	srv.Push(llmtest.JSON(again, 900, 300), llmtest.JSON(fine, 900, 300))

	r := f.run("nova")
	mustStatus(t, r, agent.StatusSucceeded)
	retry := srv.ChatRequests()[1].LastMessage().Content
	if !strings.Contains(retry, "already answered") || !strings.Contains(retry, "/coach/prompts/0") {
		t.Fatalf("the retry does not refuse the answered prompt:\n%s", retry)
	}
	if !strings.Contains(srv.ChatRequests()[0].LastMessage().Content, "goal: answered") {
		t.Error("the prompt did not tell the model the goal prompt was answered")
	}
}
