package coach

import (
	"fmt"
	"slices"
	"strings"

	"hearth/internal/dashboard"
)

// Prompt classes, in PromptPriority order.
const (
	PromptReading    = "reading confirmation"   // confirm-weight-YYYYMMDD: a set-aside weigh-in
	PromptInjury     = "injury follow-up"       // injury-<part>-YYYYMMDD
	PromptCondition  = "condition follow-up"    // condition-<name>-YYYYMMDD
	PromptWorkflow   = "workflow question"      // a waiting workflow question (issue 18 adds its id prefix)
	PromptGoalDate   = "missed goal date"       // goal-date-<id>-<date>
	PromptGoal       = "goal question"          // goal, goal-proposal-<hash> (a goal said in passing), program-next after a program
	PromptProgram    = "program question"       // program-behind
	PromptCheckIn    = "check-in"               // checkin-energy after rest days, the daily checkin-<kind>-YYYYMMDD
	PromptOnboarding = "tell me about yourself" // onboarding-notes
)

// PromptPriority is the one written priority among the coach's prompts: a
// document holds at most dashboard.MaxPrompts, taken in this order (in a class,
// in the order the planner found them). Safety comes first (a reading that
// may be wrong, an injury, a health condition), then what the member is in
// the middle of (a workflow's waiting question), then goals, the program,
// the check-in and the open invitation. To add a class, add it here and to promptClassOf.
var PromptPriority = []string{PromptReading, PromptInjury, PromptCondition, PromptWorkflow, PromptGoalDate, PromptGoal, PromptProgram,
	PromptCheckIn, PromptOnboarding}

// AheadOfWorkflowQuestions reports whether a document prompt ranks above a
// waiting workflow question (a reading to confirm, an injury follow-up):
// the kiosk, which adds workflow questions to the document's prompts, keeps
// such prompts first and within the limit.
func AheadOfWorkflowQuestions(promptID string) bool {
	return slices.Index(PromptPriority, promptClassOf(promptID)) < slices.Index(PromptPriority, PromptWorkflow) &&
		promptClassOf(promptID) != ""
}

// promptClassOf names a prompt's class from its id ("" ranks last).
func promptClassOf(id string) string {
	switch {
	case strings.HasPrefix(id, promptConfirmPrefix):
		return PromptReading
	case strings.HasPrefix(id, promptInjuryPrefix):
		return PromptInjury
	case strings.HasPrefix(id, promptConditionPrefix):
		return PromptCondition
	case strings.HasPrefix(id, promptGoalDatePrefix):
		return PromptGoalDate
	case id == promptGoal || id == promptNext || strings.HasPrefix(id, promptGoalProposalPrefix):
		return PromptGoal
	case id == promptBehind:
		return PromptProgram
	case id == promptCheckIn || strings.HasPrefix(id, dailyPrefix):
		return PromptCheckIn
	case id == promptOnboarding:
		return PromptOnboarding
	}
	return ""
}

// byPriority orders prompts by PromptPriority, stably.
func byPriority(ps []dashboard.Prompt) {
	rank := func(p dashboard.Prompt) int {
		if i := slices.Index(PromptPriority, promptClassOf(p.ID)); i >= 0 {
			return i
		}
		return len(PromptPriority)
	}
	slices.SortStableFunc(ps, func(a, b dashboard.Prompt) int { return rank(a) - rank(b) })
}

// priorityText is the priority and the limits as the model's prompt
// states them (the system prompt leaves the numbers to this line).
func priorityText() string {
	return fmt.Sprintf("Limits: at most %d calls to action (cta), the most important first. Prompt priority (at most %d prompts, in this order): %s",
		dashboard.MaxCTAs, dashboard.MaxPrompts, strings.Join(PromptPriority, " > "))
}
