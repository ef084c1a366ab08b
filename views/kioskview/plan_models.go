package kioskview

import (
	"fmt"

	"hearth/views"
)

// PlanPage is a member's Life plan page on the kiosk: their plan, the
// goals' moves and the evidence to accept, and "Talk it through" (a chat
// sheet with the life-plan coach). It is shown only on a screen the
// member unlocked.
type PlanPage struct {
	Page     views.Page
	MemberID string
	Name     string
	Color    string
	// Chat offers "Talk it through" (the life-plan coach is on this server).
	Chat bool
	Body PlanBody
}

// PlanBody is the plan itself, patched whole after a tap: with what
// became of the last one (Note) or why it was refused (Error), shown at
// the goal (GoalID) it was about, else at the top (an evidence note's:
// one decided leaves the suggested list).
type PlanBody struct {
	MemberID   string
	CSRF       string
	View       views.PlanView
	GoalID     int64
	EvidenceID int64
	Note       string
	Error      string
}

// LockedPlan is the Life plan page on a screen the member has not
// unlocked: their name and the way to unlock, nothing of the plan.
type LockedPlan struct {
	Page   views.Page
	Member MemberHead
}

func planGoalURL(member string, id int64) string {
	return fmt.Sprintf("/m/%s/plan/goals/%d", member, id)
}

func planEvidenceURL(member string, id int64) string {
	return fmt.Sprintf("/m/%s/plan/evidence/%d", member, id)
}

func planGoalID(id int64) string { return fmt.Sprintf("plan-goal-%d", id) }
