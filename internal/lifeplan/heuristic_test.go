package lifeplan_test

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/lifeplan"
)

// TestGuidedFlowMovesAGoal: with values, a purpose and a goal kept, the
// guided flow moves the goal with the member's reason, quoted or not
// (history: who "agent:lifeplan-coach", the reason); a move without a
// reason asks for one and writes nothing; a move the goal's state does
// not allow answers the service's reason; an unknown goal names the
// member's goals.
func TestGuidedFlowMovesAGoal(t *testing.T) {
	s, db, _ := env(t)
	ctx := context.Background()
	run := newToolRun(t, db, s, "ada")
	turn := func(msg, want string) {
		t.Helper()
		run.scope = run.scope.WithStager(run.st)
		if got := lifeplan.Reply(ctx, run.box.Caller(run.scope), msg); !strings.Contains(got, want) {
			t.Fatalf("%q answered %q, want %q in it", msg, got, want)
		}
		run.commit()
	}
	turn("Family, Health, Adventure", "Your values: Family, Health, Adventure")
	turn("My purpose is to be there for the people I love", "Kept your purpose")
	turn("My goal is to run a 10k", "Added “Run a 10k” as a dream")
	turn("Move “Run a 10k” to considered", "Why move “Run a 10k” to considered?")
	if p, _ := s.Plan(ctx, "ada"); p.Goals[0].State != lifeplan.Dream {
		t.Fatalf("moved without a reason: %+v", p.Goals[0])
	}
	turn("Move “Run a 10k” to achieved because I feel like it", "“Run a 10k” stays dream: a goal cannot move from dream to achieved; from dream it can move to considered, abandoned.")
	turn("Move “Run a 10k” to considered because we found a plan", "Moved “Run a 10k” from dream to considered: We found a plan.")
	turn("move run a 10K to ready: the first run is on Saturday", "Moved “Run a 10k” from considered to ready")
	turn("Move “Swim the channel” to ready because why not", "I can't find a goal called “Swim the channel”. Your goals: “Run a 10k”.")
	p, err := s.Plan(ctx, "ada")
	if err != nil || len(p.Goals) != 1 || p.Goals[0].State != lifeplan.Ready {
		t.Fatalf("plan = %+v (%v)", p, err)
	}
	h, err := s.GoalHistory(ctx, "ada", p.Goals[0].ID)
	if err != nil || len(h) != 3 || h[1].To != lifeplan.Considered || h[1].Reason != "We found a plan" || h[1].By != "agent:lifeplan-coach" ||
		h[2].Reason != "The first run is on Saturday" {
		t.Fatalf("history = %+v (%v)", h, err)
	}
	if got := lifeplan.MovePrompt("Run a 10k", lifeplan.Considered); got != "Move “Run a 10k” to considered" {
		t.Fatalf("MovePrompt = %q", got)
	}
}
