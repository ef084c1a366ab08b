package app_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/copilot"
)

// TestCopilotConfigToolsKeepSecrets: with a Plex token and a Home Assistant
// token saved through the settings store (and the model key and admin
// password in the config), a scripted model calls every config tool; no
// request the model gets (tool results included) and no run output holds
// any secret's text, and the tokens read as "set".
func TestCopilotConfigToolsKeepSecrets(t *testing.T) {
	const plexToken, haToken, modelKey, adminPW = "PLEXTOKEN-s3cr3t-1", "HATOKEN-s3cr3t-2", "MODELKEY-s3cr3t-3", "ADMINPW-s3cr3t-4"
	srv := llmtest.New(t)
	final := map[string]any{"message": "Plex is set up; paste the token yourself.", "needs_confirmation": false,
		"commands": []any{map[string]any{"action": "highlight_field", "form": nil, "field": "plex_token", "value": nil, "fields": nil, "to": nil, "text": nil}}}
	srv.Push(
		llmtest.Tool("config_get_system", map[string]any{}),
		llmtest.Tool("config_get_household", map[string]any{}),
		llmtest.Tool("config_list_users", map[string]any{}),
		llmtest.Tool("config_get_user", map[string]any{"id": "ada"}),
		llmtest.Tool("config_list_integrations", map[string]any{}),
		llmtest.Tool("config_validate", map[string]any{"form": "plex", "values": []any{map[string]any{"field": "plex_url", "value": "http://plex.local:32400"}}}),
		llmtest.JSON(final, 5, 5))
	run := homeApp(t, app.Config{OpenAIBaseURL: srv.URL(), OpenAIKey: modelKey, Model: "fake", AdminPassword: adminPW})
	ctx := context.Background()
	for name, v := range map[string]string{"plex.token": plexToken, "homeassistant.token": haToken} {
		if err := run.app.Settings.SetSecret(ctx, name, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := run.app.Settings.Set(ctx, "plex.url", "http://plex.local:32400"); err != nil {
		t.Fatal(err)
	}
	f, _ := copilot.FormByID(copilot.FormPlex)
	ans, err := run.app.AskCopilot(ctx, f, map[string]string{"plex_url": ""}, "connect Plex")
	if err != nil {
		t.Fatal(err)
	}
	if ans.Heuristic || ans.RunID == 0 || ans.Reply.Message != final["message"] || len(ans.Reply.Commands) != 1 {
		t.Fatalf("answer = %+v", ans)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 7 {
		t.Fatalf("%d model requests, want 7", len(reqs))
	}
	last := reqs[len(reqs)-1]
	for _, want := range []string{`\"token\":\"set\"`, `\"openai_api_key\":\"set\"`, `\"admin_password\":\"set\"`, "http://plex.local:32400", `\"name\":\"Ada\"`} {
		if !last.Contains(want) {
			t.Errorf("the tool results lack %s", want)
		}
	}
	for _, r := range reqs {
		for _, secret := range []string{plexToken, haToken, modelKey, adminPW} {
			if r.Contains(secret) {
				t.Fatalf("a model request holds the secret %s", secret)
			}
		}
	}
	got, err := run.app.Agents.Runs().Get(ctx, ans.RunID)
	if err != nil {
		t.Fatal(err)
	}
	calls, _ := json.Marshal(got.ToolCalls)
	raw := string(got.Output) + string(calls)
	if len(got.ToolCalls) < 6 {
		t.Fatalf("run tool calls = %s", calls)
	}
	for _, secret := range []string{plexToken, haToken, modelKey, adminPW} {
		if strings.Contains(raw, secret) {
			t.Fatalf("the run holds the secret %s", secret)
		}
	}
}

// TestCopilotHeuristicWithoutMembers: with no model and no member yet (the
// first thing an admin does), the panel is answered by the heuristic.
func TestCopilotHeuristicWithoutMembers(t *testing.T) {
	run := homeApp(t, app.Config{})
	f, _ := copilot.FormByID(copilot.FormMember)
	ans, err := run.app.AskCopilot(context.Background(), f, nil, "add my daughter Ava, 8, metric")
	if err != nil {
		t.Fatal(err)
	}
	// Ada and Bo are seeded: "ava" is free; the heuristic read the members.
	if !ans.Heuristic || ans.RunID != 0 || len(ans.Reply.Commands) == 0 || ans.Reply.Commands[0].Fields[0].Value != "ava" {
		t.Fatalf("answer = %+v", ans)
	}
}

// TestCopilotModelFailureFallsBack: when the model's run fails (the server
// answers 500 every time), the heuristic answers the panel and says why;
// the failed run is kept.
func TestCopilotModelFailureFallsBack(t *testing.T) {
	srv := llmtest.New(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Error(500) })
	run := homeApp(t, app.Config{OpenAIBaseURL: srv.URL(), OpenAIKey: "k", Model: "fake"})
	f, _ := copilot.FormByID(copilot.FormSchedule)
	ans, err := run.app.AskCopilot(context.Background(), f, nil, "every day at 7pm")
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Heuristic || ans.Fallback == "" || ans.RunID == 0 || len(ans.Reply.Commands) == 0 ||
		ans.Reply.Commands[0].Fields[1].Value != "0 19 * * *" {
		t.Fatalf("answer = %+v", ans)
	}
	r, err := run.app.Agents.Runs().Get(context.Background(), ans.RunID)
	if err != nil || r.Status != "failed" {
		t.Fatalf("run = %+v (%v)", r, err)
	}
}
