package proposals_test

import (
	"context"
	"errors"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/proposals"
	"hearth/internal/store/storetest"
)

// Through the engine: a chat turn whose tool stages a proposal writes it
// in the run's commit; a turn that fails after staging writes nothing, so
// a run that did not succeed proposes nothing to the admin.
func TestStageIsWrittenOnlyByARunThatSucceeds(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	orch, err := agent.NewOrchestrator(db, agent.Runtimes{Heuristic: llm.Heuristic{}}, nil, nil, nil, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = orch.Close(ctx) })
	if err := orch.Register(agent.Agent{ID: "media-curator", Reply: func(_ context.Context, s agent.Scope, turn agent.ChatTurn) (string, error) {
		if err := proposals.Stage(s, collection(turn.Message)); err != nil {
			return "", err
		}
		if turn.Message == "fail" {
			return "", errors.New("the run fails after staging")
		}
		return "Proposed.", nil
	}}); err != nil {
		t.Fatal(err)
	}
	svc := proposals.NewService(db, nil)

	failed, err := orch.Run(ctx, agent.Request{Agent: "media-curator", Member: "ada", Message: "fail", Chat: true})
	if err != nil {
		t.Fatal(err)
	}
	if failed.Status != agent.StatusFailed {
		t.Fatalf("the failing run: %s", failed.Status)
	}
	if l, err := svc.List(ctx, proposals.Filter{}); err != nil || len(l.Waiting)+len(l.Decided) != 0 {
		t.Fatalf("a failed run proposed %+v (%v)", l, err)
	}

	ok, err := orch.Run(ctx, agent.Request{Agent: "media-curator", Member: "ada", Message: "Warm-ups", Chat: true})
	if err != nil {
		t.Fatal(err)
	}
	if ok.Status != agent.StatusSucceeded {
		t.Fatalf("the run: %s %s", ok.Status, ok.Error)
	}
	l, err := svc.List(ctx, proposals.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Waiting) != 1 || l.Waiting[0].RunID != ok.ID || l.Waiting[0].AgentID != "media-curator" ||
		len(l.Waiting[0].Items) != 1 || l.Waiting[0].Items[0].Summary != "Collection “Warm-ups” gets 3 items" {
		t.Fatalf("waiting = %+v", l.Waiting)
	}
}

// Stage refuses a proposal without a kind or a summary, and outside a run.
func TestStageRefuses(t *testing.T) {
	st := agent.NewStager()
	in := agent.Scope{AgentID: "media-curator", RunID: 1}.WithStager(st)
	if err := proposals.Stage(in, proposals.Proposal{Kind: "plex.collection"}); err == nil {
		t.Fatal("a proposal without a summary was staged")
	}
	if err := proposals.Stage(agent.Scope{}, collection("x")); err == nil {
		t.Fatal("staged outside a run")
	}
	if st.Len() != 0 {
		t.Fatalf("%d staged", st.Len())
	}
}
