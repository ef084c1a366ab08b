package app

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/agent/definition"
	"hearth/internal/agent/llm/llmtest"
)

// TestUserIsTheMemberAndLogNoteIsRegistered: {{user.name}} and the other
// profile fields render in an admin-made agent's prompt (before, $user held
// only the member id and {{user.name}} failed the run), and its log_note
// hook writes a coaching note.
func TestUserIsTheMemberAndLogNoteIsRegistered(t *testing.T) {
	ctx := context.Background()
	a, srv := modelApp(t)
	m, err := a.DB.Member(ctx, "maya")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Definitions.Save(ctx, definition.Definition{AgentID: "greeter", SystemPrompt: "Greet the member.",
		UserTemplate: "Hello {{user.name}} ({{user.unit}}): {{message}}", MaxIterations: 1,
		Hooks: definition.Hooks{After: []definition.HookRef{{Hook: definition.HookLogNote}}}}, "admin", ""); err != nil {
		t.Fatal(err)
	}
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Text("Greeted warmly.", 5, 5) })
	res, err := a.Definitions.Invoke(ctx, "greeter", definition.Params{Member: "maya", Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.ChatRequests()
	if got, want := reqs[len(reqs)-1].LastMessage().Content, "Hello "+m.Name+" ("+string(m.Unit)+"): hi"; got != want {
		t.Fatalf("user message = %q, want %q", got, want)
	}
	var note string
	var run int64
	err = a.DB.Read.QueryRowContext(ctx, `SELECT note, coalesce(run_id, 0) FROM coaching_notes
		WHERE member_id = 'maya' ORDER BY created_at DESC, id DESC LIMIT 1`).Scan(&note, &run)
	if err != nil || note != "Greeted warmly." || run != res.RunID {
		t.Fatalf("latest note = %q (run %d), %v; want the log_note hook's note from run %d", note, run, err, res.RunID)
	}
	if !strings.Contains(strings.Join(res.Steps[0].Notes, " "), `hook log_note (after_agent) fired with "Greeted warmly."`) {
		t.Fatalf("step notes = %v", res.Steps[0].Notes)
	}
}
