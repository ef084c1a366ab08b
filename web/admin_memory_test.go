package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
)

func memForm(kv ...string) url.Values {
	v := url.Values{"agent": {"tester"}, "member": {"ada"}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

func TestMemoryEditAndUndoThroughThePages(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	resp, _ := env.form("/admin/memory", memForm("key", "mood", "value", "tired", "ttl", "2h"), false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/memory?agent=tester&done=saved&member=ada" {
		t.Fatalf("add: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	code, body := env.page("/admin/memory?agent=tester&member=ada")
	if code != 200 {
		t.Fatalf("memory page: %d", code)
	}
	mustContain(t, "entry", body, "<code>mood</code>", "tired", `class="countdown"`, "in 2h", "admin:admin", "(new)",
		"/admin/live/memory/tester/ada")
	if !regexp.MustCompile(`data-expires="2\d{3}-\d\d-\d\dT`).MatchString(body) {
		t.Fatal("the entry carries no expiry for the countdown")
	}
	// Edit: persistent now (no TTL), new value.
	if resp, _ := env.form("/admin/memory", memForm("key", "mood", "value", "rested", "ttl", ""), false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit: %d", resp.StatusCode)
	}
	entries, _ := env.orch.Memory().Entries(ctx, "tester", "ada")
	if len(entries) != 1 || entries[0].Value != "rested" || entries[0].ExpiresAt != nil {
		t.Fatalf("after edit: %+v", entries)
	}
	history, _ := env.orch.Memory().History(ctx, "tester", "ada", 10)
	if len(history) != 2 {
		t.Fatalf("history has %d changes, want 2", len(history))
	}
	// Undo the edit through the page: the old value and its expiry come back.
	// An undo that does not name the change's memory is not our form: refused.
	if resp, _ := env.form("/admin/memory/undo/"+itoa(history[0].ID), memForm("member", "bo"), false); resp.StatusCode != 400 {
		t.Fatalf("undo for the wrong member: %d", resp.StatusCode)
	}
	if resp, _ := env.form("/admin/memory/undo/"+itoa(history[0].ID), nil, false); resp.StatusCode != 400 {
		t.Fatalf("undo without the form: %d", resp.StatusCode)
	}
	resp, _ = env.form("/admin/memory/undo/"+itoa(history[0].ID), memForm(), false)
	if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "done=undone") {
		t.Fatalf("undo: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	entries, _ = env.orch.Memory().Entries(ctx, "tester", "ada")
	if len(entries) != 1 || entries[0].Value != "tired" || entries[0].ExpiresAt == nil {
		t.Fatalf("after undo: %+v", entries)
	}
	_, body = env.page("/admin/memory?agent=tester&member=ada&done=undone")
	mustContain(t, "after undo", body, "Undone.", "undid change "+itoa(history[0].ID))
	// Delete, then undo the delete.
	if resp, _ := env.form("/admin/memory/delete", memForm("key", "mood"), false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if entries, _ = env.orch.Memory().Entries(ctx, "tester", "ada"); len(entries) != 0 {
		t.Fatalf("after delete: %+v", entries)
	}
	history, _ = env.orch.Memory().History(ctx, "tester", "ada", 1)
	env.form("/admin/memory/undo/"+itoa(history[0].ID), memForm(), false)
	if entries, _ = env.orch.Memory().Entries(ctx, "tester", "ada"); len(entries) != 1 || entries[0].Value != "tired" {
		t.Fatalf("undo delete: %+v", entries)
	}
	// Deleting what is not there is shown, not crashed on.
	resp, body = env.form("/admin/memory/delete", memForm("key", "nothing"), false)
	if resp.StatusCode != 404 || !strings.Contains(body, "nothing") {
		t.Fatalf("delete missing: %d", resp.StatusCode)
	}
	if resp, _ := env.form("/admin/memory/undo/99999", memForm(), false); resp.StatusCode != 404 {
		t.Fatalf("undo unknown change: %d", resp.StatusCode)
	}
}

func TestMemoryFormErrorsKeepInput(t *testing.T) {
	env := newAdminEnv(t)
	resp, body := env.form("/admin/memory", memForm("key", "goal", "value", "run a 10k", "ttl", "soon"), false)
	if resp.StatusCode != 400 {
		t.Fatalf("bad ttl: %d", resp.StatusCode)
	}
	mustContain(t, "bad ttl", body, "must be a duration", `value="goal"`, "run a 10k", `value="soon"`)
	resp, body = env.form("/admin/memory", memForm("key", " ", "value", "x"), false)
	if resp.StatusCode != 400 || !strings.Contains(body, "memory key must be one non-empty line") {
		t.Fatalf("empty key: %d", resp.StatusCode)
	}
	if entries, _ := env.orch.Memory().Entries(context.Background(), "tester", "ada"); len(entries) != 0 {
		t.Fatalf("refused edits wrote %v", entries)
	}
	if code, _ := env.page("/admin/memory?agent=nobody&member=ada"); code != 404 {
		t.Fatalf("unknown agent: %d", code)
	}
	if code, _ := env.page("/admin/memory?agent=tester&member=zed"); code != 404 {
		t.Fatalf("unknown member: %d", code)
	}
}

func TestExpiredMemoryIsNeverShown(t *testing.T) {
	env := newAdminEnv(t, withAgentClock())
	ctx := context.Background()
	mem := env.orch.Memory()
	if _, err := mem.Set(ctx, "tester", "ada", "fleeting", "gone soon", time.Hour, agent.AdminActor("t")); err != nil {
		t.Fatal(err)
	}
	if _, err := mem.Set(ctx, "tester", "ada", "lasting", "stays", 0, agent.AdminActor("t")); err != nil {
		t.Fatal(err)
	}
	_, body := env.page("/admin/memory?agent=tester&member=ada")
	mustContain(t, "before expiry", body, `class="memory-value">gone soon<`, `class="memory-value">stays<`)
	env.clock.Advance(time.Hour + time.Second)
	_, body = env.page("/admin/memory?agent=tester&member=ada")
	mustNotContain(t, "after expiry", body, `class="memory-value">gone soon<`)
	mustContain(t, "after expiry", body, `class="memory-value">stays<`, "persistent")
}

func TestMemoryPageUpdatesAfterARun(t *testing.T) {
	env := newAdminEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := env.openLive(ctx, "/admin/live/memory/tester/ada")
	s.waitEvent(t, 2*time.Second, `id="memory"`, "Nothing remembered")
	if _, err := env.orch.Run(ctx, agent.Request{Agent: "tester", Assignment: "note", Member: "ada"}); err != nil {
		t.Fatal(err)
	}
	s.waitEvent(t, 3*time.Second, `id="memory"`, "last_note", "Keep going, ada!", "run:1")
}
