package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/proposals"
	"hearth/internal/store"
)

// curatorApplier counts the changes it applies; fail makes them fail.
type curatorApplier struct {
	calls atomic.Int64
	fail  atomic.Bool
}

func (a *curatorApplier) apply(context.Context, json.RawMessage) (string, error) {
	a.calls.Add(1)
	if a.fail.Load() {
		return "", errors.New("Plex answered 503 Service Unavailable")
	}
	return "Collection “Warm-ups” now has 3 items", nil
}

// stageProposal writes p as run runID's commit would.
func stageProposal(t *testing.T, env *adminEnv, runID int64, p proposals.Proposal) string {
	t.Helper()
	ctx := context.Background()
	st := agent.NewStager()
	if err := proposals.Stage(agent.Scope{AgentID: "media-curator", RunID: runID, Now: env.clock.Now()}.WithStager(st), p); err != nil {
		t.Fatal(err)
	}
	if err := env.db.Tx(ctx, func(tx *store.Tx) error {
		_, err := st.Apply(ctx, tx, 0, store.FormatTime(env.clock.Now()))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return itoa(int64(count(t, env, `SELECT max(id) FROM proposals`)))
}

// Admin → Curator: each run's proposals as what will change, with their
// items; a confirmation posted twice applies once; discard; the outcome
// and a failure's error in the decided list; nothing without CSRF.
func TestAdminCuratorConfirmOnceAndDiscard(t *testing.T) {
	env := newAdminEnv(t)
	fake := &curatorApplier{}
	env.app.Proposals.Register("test.collection", fake.apply)
	const page = "/admin/curator"

	code, body := env.page(page)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d", page, code)
	}
	mustContain(t, "the empty page", body, `href="/admin/curator"`,
		"No changes are waiting. Ask the media curator in <a href=\"/admin/chat\">Admin → Chat</a>, or run it from <a href=\"/admin/definitions\">Admin → Agents</a>.")
	mustNotContain(t, "the empty page", body, `id="curator-decided"`)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	live := env.openLive(ctx, "/admin/live/curator")
	live.waitEvent(t, 2*time.Second, `id="curator-lists"`, "No changes are waiting")

	// The model's text (a title with markup) is rendered as text.
	warm := stageProposal(t, env, 41, proposals.Proposal{Kind: "test.collection", Summary: "Collection “Warm-ups” gets 3 items",
		Lines: []string{"Hip opener", "<b>Sun</b> salutation", "Neck release"}, Payload: map[string]any{"keys": []int{1, 2, 3}}})
	label := stageProposal(t, env, 41, proposals.Proposal{Kind: "test.collection", Summary: "Label “10 min” added to 12 items",
		Payload: map[string]any{"keys": []int{4}}})
	failing := stageProposal(t, env, 42, proposals.Proposal{Kind: "test.collection", Summary: "Collection “Cool-downs” gets 1 item",
		Lines: []string{"Child's pose"}, Payload: map[string]any{"keys": []int{5}}})

	_, body = env.page(page)
	mustContain(t, "the waiting changes", body, `<article class="curator-run" data-run="41">`, "media-curator", "run 41",
		"Collection “Warm-ups” gets 3 items", "<li>Hip opener</li>", "<li>&lt;b&gt;Sun&lt;/b&gt; salutation</li>",
		"Label “10 min” added to 12 items", `data-run="42"`,
		`action="/admin/curator/`+warm+`/confirm"`, `action="/admin/curator/`+warm+`/discard"`)
	mustNotContain(t, "the waiting changes", body, "<b>Sun</b>")
	if fake.calls.Load() != 0 {
		t.Fatal("applied before any confirmation")
	}

	// Without the CSRF token nothing is applied.
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+page+"/"+warm+"/confirm", strings.NewReader(""))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if resp, err := env.client.Do(req); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a confirmation without CSRF: %d", resp.StatusCode)
	}
	if fake.calls.Load() != 0 {
		t.Fatal("applied without CSRF")
	}

	// Posted twice (a double click, a retried post): applied once, and
	// both answers lead to its outcome.
	for i := range 2 {
		resp, _ := env.form(page+"/"+warm+"/confirm", nil, false)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != page+"?done=applied" {
			t.Fatalf("confirm #%d: %d %s", i+1, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	if n := fake.calls.Load(); n != 1 {
		t.Fatalf("a confirmation posted twice applied %d times", n)
	}
	live.waitEvent(t, 2*time.Second, `id="curator-decided"`, "Collection “Warm-ups” now has 3 items")

	// Discard: never applied; discarding again changes nothing.
	for range 2 {
		if resp, _ := env.form(page+"/"+label+"/discard", nil, false); resp.StatusCode != http.StatusSeeOther ||
			resp.Header.Get("Location") != page+"?done=discarded" {
			t.Fatalf("discard: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	resp, body := env.form(page+"/"+label+"/confirm", nil, false)
	if resp.StatusCode != http.StatusConflict {
		t.Fatalf("confirming a discarded change: %d", resp.StatusCode)
	}
	mustContain(t, "confirming a discarded change", body, "Nothing was changed: this change was discarded")
	if resp, _ := env.form(page+"/"+warm+"/discard", nil, false); resp.StatusCode != http.StatusConflict {
		t.Fatalf("discarding an applied change: %d", resp.StatusCode)
	}
	if resp, _ := env.form(page+"/999999/confirm", nil, false); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("confirming an unknown change: %d", resp.StatusCode)
	}
	if fake.calls.Load() != 1 {
		t.Fatalf("%d applies, want 1", fake.calls.Load())
	}

	// A failure is shown with its error and can be tried again.
	fake.fail.Store(true)
	if resp, _ := env.form(page+"/"+failing+"/confirm", nil, false); resp.Header.Get("Location") != page+"?done=failed" {
		t.Fatalf("a failing apply: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, body = env.page(page + "?done=failed")
	mustContain(t, "the decided list", body, `id="curator-decided"`, "The change could not be applied",
		`id="proposal-`+failing+`" data-status="failed"`, "Plex answered 503 Service Unavailable", "Try again",
		`id="proposal-`+warm+`" data-status="applied"`, "Collection “Warm-ups” now has 3 items",
		`id="proposal-`+label+`" data-status="discarded"`,
		"No changes are waiting")
	fake.fail.Store(false)
	if resp, _ := env.form(page+"/"+failing+"/confirm", nil, false); resp.Header.Get("Location") != page+"?done=applied" {
		t.Fatalf("trying again: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if fake.calls.Load() != 3 {
		t.Fatalf("%d applies, want 3 (warm-ups, the failure, its retry)", fake.calls.Load())
	}
}

// A kind no integration registered is refused on the page and stays
// waiting.
func TestAdminCuratorUnknownKind(t *testing.T) {
	env := newAdminEnv(t)
	id := stageProposal(t, env, 7, proposals.Proposal{Kind: "plex.nothing", Summary: "Something", Payload: 1})
	resp, body := env.form("/admin/curator/"+id+"/confirm", nil, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("an unknown kind: %d", resp.StatusCode)
	}
	mustContain(t, "an unknown kind", body, "no applier is registered for &#34;plex.nothing&#34; changes",
		`id="proposal-`+id+`" data-status="pending"`)
}
