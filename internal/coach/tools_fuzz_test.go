package coach_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/demo"
	"hearth/internal/live"
	"hearth/internal/program"
	"hearth/internal/store/storetest"
)

// FuzzCoachToolArgs calls every coach tool with arbitrary arguments, as a
// confused or prompt-injected model might: the toolbox's schema check and
// the tools themselves refuse or handle them; nothing panics, and a refusal
// of bad arguments is an *agent.ArgsError the runtime can feed back.
//
//	go test -run '^$' -fuzz FuzzCoachToolArgs -fuzztime 30s ./internal/coach/
func FuzzCoachToolArgs(f *testing.F) {
	ctx := context.Background()
	db := storetest.Open(f)
	now := time.Now()
	if _, err := demo.Seed(ctx, db, now, time.UTC, rand.New(rand.NewPCG(1, 2))); err != nil {
		f.Fatal(err)
	}
	cat := content.NewCatalog(db, nil)
	if _, err := cat.LoadDemo(ctx); err != nil {
		f.Fatal(err)
	}
	hub := live.NewHub()
	f.Cleanup(hub.Close)
	deps := coach.Deps{DB: db, Catalog: cat, Programs: program.New(db, cat, time.UTC),
		Dashboards: dashboard.NewStore(db, hub, time.UTC), Location: time.UTC}
	box, err := agent.NewToolbox(coach.NewTools(deps).All()...)
	if err != nil {
		f.Fatal(err)
	}
	names := box.Names()
	for _, seed := range []string{
		`{}`, `{"days": 7}`, `{"days": -1}`, `{"days": 1e9}`, `{"limit": "ten"}`, `{"member": "theo"}`,
		`{"query": "<script>sweep(1)</script>", "max_duration": 20}`, `{"action": "advance"}`, `{"action": "substitute", "content_id": "local:x"}`,
		`{"note": ""}`, `{"document": {}}`, `{"generated_at": "x"}`, `null`, `[]`, `"x"`, `{"a":`,
	} {
		for i := range len(names) {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, tool uint8, args []byte) {
		name := names[int(tool)%len(names)]
		scope := agent.Scope{AgentID: coach.AgentID, MemberID: "maya", Now: now, Memory: agent.NewMemory(coach.AgentID, "maya", time.Now)}
		out, err := box.Call(ctx, scope, name, json.RawMessage(args))
		var ae *agent.ArgsError
		if err != nil && !json.Valid(args) && len(args) > 0 && !errors.As(err, &ae) {
			t.Fatalf("%s(%q): invalid JSON was not refused as bad arguments: %v", name, args, err)
		}
		if err == nil {
			if _, merr := json.Marshal(out); merr != nil {
				t.Fatalf("%s(%q): result does not marshal for the model: %v", name, args, merr)
			}
		}
	})
}
