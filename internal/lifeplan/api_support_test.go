package lifeplan_test

import (
	"context"
	"slices"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/lifeplan"
)

// Unlinking names the life-plan goal too: a fitness goal serving another
// goal, or another member's goal, is NotFound and keeps its link.
func TestUnlinkFitnessGoalFrom(t *testing.T) {
	s, db, _ := env(t)
	ctx := context.Background()
	hike := goalIn(t, s, "ada", lifeplan.Committed)
	other := goalIn(t, s, "ada", lifeplan.Dream)
	bosGoal := goalIn(t, s, "bo", lifeplan.Dream)
	tenK, err := db.AddGoal(ctx, health.Goal{MemberID: "ada", Kind: "custom", Description: "Run a 10k"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.LinkFitnessGoal(ctx, "ada", hike.ID, tenK.ID); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.UnlinkFitnessGoalFrom(ctx, "ada", other.ID, tenK.ID), apperr.NotFound, "the link of another goal")
	wantCode(t, s.UnlinkFitnessGoalFrom(ctx, "bo", bosGoal.ID, tenK.ID), apperr.NotFound, "through another member")
	wantCode(t, s.UnlinkFitnessGoalFrom(ctx, "bo", hike.ID, tenK.ID), apperr.NotFound, "another member's goal")
	wantCode(t, s.UnlinkFitnessGoalFrom(ctx, "ada", 9999, tenK.ID), apperr.NotFound, "an unknown goal")
	gs, err := s.Goals(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gs[0].FitnessGoalIDs, []int64{tenK.ID}) {
		t.Fatalf("the refused unlinks removed the link: %v", gs[0].FitnessGoalIDs)
	}
	if err := s.UnlinkFitnessGoalFrom(ctx, "ada", hike.ID, tenK.ID); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.UnlinkFitnessGoalFrom(ctx, "ada", hike.ID, tenK.ID), apperr.NotFound, "unlinking twice")
	if gs, err = s.Goals(ctx, "ada"); err != nil || len(gs[0].FitnessGoalIDs) != 0 {
		t.Fatalf("after unlinking: %v %v", gs, err)
	}
}
