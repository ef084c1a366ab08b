package talos_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/internal/homeassistant"
	"hearth/internal/homeassistant/hatest"
	"hearth/internal/household"
	"hearth/internal/store/storetest"
	"hearth/internal/talos"
)

// TestGateCapsActionsPerHour: a child's actions are counted from the
// record; the one past the cap is refused (child.per_hour) and reaches
// nothing, reads are not counted, and an hour later the child may act
// again.
func TestGateCapsActionsPerHour(t *testing.T) {
	db := storetest.Open(t)
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	ctx := context.Background()
	if _, err := db.CreateMember(ctx, health.Member{ID: "kit", Name: "Kit", Role: health.RoleChild}); err != nil {
		t.Fatal(err)
	}
	ha := hatest.New(t, "tok")
	ha.Add(hatest.Entity{ID: "light.kitchen", Name: "Kitchen", State: "off"})
	st := talos.NewStore(db, db.Now)
	p := talos.DefaultPolicy()
	child := p.Roles[health.RoleChild]
	child.PerHour = 2
	p.Roles[health.RoleChild] = child
	if err := st.SavePolicy(ctx, p, talos.ToolNames, "test"); err != nil {
		t.Fatal(err)
	}
	gate := talos.NewGate(talos.GateOptions{Store: st, Household: household.New(db, nil), Location: time.UTC, Now: db.Now})
	box, err := agent.NewToolbox(agent.ToolFactoryFunc(func() []agent.Tool { return gate.Wrap(homeassistant.Tools(ha.Connect()).Tools()) }))
	if err != nil {
		t.Fatal(err)
	}
	call := box.Caller(agent.Scope{MemberID: "kit"})
	toggle := json.RawMessage(`{"domain": "light", "service": "toggle", "entity_id": "light.kitchen", "data": null}`)
	read := json.RawMessage(`{"entity_id": "light.kitchen"}`)
	for i := 0; i < 2; i++ {
		if _, err := call(ctx, talos.ToolCallService, toggle); err != nil {
			t.Fatalf("action %d: %v", i+1, err)
		}
		if _, err := call(ctx, talos.ToolGetState, read); err != nil {
			t.Fatalf("read %d: %v", i+1, err)
		}
	}
	_, err = call(ctx, talos.ToolCallService, toggle)
	var r *talos.Refusal
	if !errors.As(err, &r) || r.Rule != "child.per_hour" || len(ha.Calls()) != 2 {
		t.Fatalf("third action: %v; Home Assistant received %d calls", err, len(ha.Calls()))
	}
	now = now.Add(time.Hour)
	if _, err := call(ctx, talos.ToolCallService, toggle); err != nil || len(ha.Calls()) != 3 {
		t.Fatalf("an hour later: %v (%d calls)", err, len(ha.Calls()))
	}
}
