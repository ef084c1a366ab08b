package adminview

import (
	"fmt"

	"hearth/views"
)

// AdminLifePlan is a member's life plan in admin: the plan as the member
// sees it, each goal's history and moves (by the admin, with a reason),
// and the links from the member's fitness goals. Suggested evidence is
// shown, never decided here: only the member decides, on their screen.
type AdminLifePlan struct {
	AdminPage
	ID, Name string
	View     views.PlanView
	// History is each goal's history, oldest first ("dream → considered:
	// reason (member, 28 Nov 10:00)").
	History map[int64][]string
	// Fitness are the member's fitness goals to link under a life goal.
	Fitness []views.Option
	// GoalID is the goal the last action was about; Note what it did,
	// Error why it was refused.
	GoalID int64
	Note   string
	Error  string
}

func lifePlanGoalURL(member string, id int64, suffix string) string {
	return fmt.Sprintf("/admin/household/%s/lifeplan/goals/%d%s", member, id, suffix)
}

func lifePlanUnlinkURL(member string, fitness int64) string {
	return fmt.Sprintf("/admin/household/%s/lifeplan/fitness/%d/unlink", member, fitness)
}
