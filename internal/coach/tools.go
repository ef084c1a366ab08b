package coach

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/health"
)

// Tools builds the coach's tools over its services. Every tool acts for
// scope.MemberID (set by the run, never taken from arguments), has a strict
// parameter schema and returns a compact summary.
type Tools struct{ c *core }

// NewTools returns the coach's tool factories over deps (see Deps for
// what is required).
func NewTools(deps Deps) *Tools { return &Tools{c: newCore(deps)} }

// Health returns the health read and analysis tools: get_weight_trend,
// get_today_nutrition, get_nutrition_history, get_recent_workouts,
// get_health_summary, get_recent_meals, get_body_composition,
// get_history_summary, get_user_goals, calculate_goal_progress, suggest_calorie_target and
// calculate_remaining_macros.
func (t *Tools) Health() *agent.Factory {
	return agent.NewFactory("health", "Health records", "The member's weigh-ins, meals, workouts, goals and the analyses over them.",
		t.weightTrend(), t.todayNutrition(), t.nutritionHistory(), t.recentWorkouts(),
		t.healthSummary(), t.recentMeals(), t.bodyComposition(), t.historySummary(), t.userGoals(),
		t.goalProgress(), t.calorieTarget(), t.remainingMacros())
}

// Fitness returns the content and program tools: get_fitness_content,
// get_program_state and update_program_state.
func (t *Tools) Fitness() *agent.Factory {
	return agent.NewFactory("fitness", "Fitness content", "The household's workout library and the member's program.",
		t.fitnessContent(), t.programState(), t.updateProgram())
}

// Coaching returns the tools around the member's dialogue with the coach:
// get_voice_memos, get_prompt_responses, write_dashboard, log_coaching_note
// and, with Deps.Messages, send_message.
func (t *Tools) Coaching() *agent.Factory {
	out := []agent.Tool{t.voiceMemos(), t.promptResponses(), t.writeDashboard(), t.logNote()}
	if t.c.msgs != nil {
		out = append(out, t.sendMessage())
	}
	return agent.NewFactory("coaching", "Coaching", "The member's dialogue with the coach: memos, answers, the dashboard, notes and messages.", out...)
}

// KioskTools are the tools a chat on the open household screen is offered
// (agent.Agent.SurfaceTools): the reads and analyses, and the coach's
// working memory of this member. Anyone on the network can type there, so
// nothing that reaches beyond the conversation: no scheduling or to-dos,
// no messages, notes, program changes or dashboard writes.
var KioskTools = []string{
	"get_weight_trend", "get_today_nutrition", "get_nutrition_history", "get_recent_workouts", "get_health_summary",
	"get_recent_meals", "get_body_composition", "get_history_summary", "get_user_goals", "calculate_goal_progress", "suggest_calorie_target",
	"calculate_remaining_macros", "get_fitness_content", "get_program_state", "get_voice_memos", "get_prompt_responses",
	"remember", "forget",
}

// KioskModelTools are the kiosk tools a chat model is offered
// (agent.Conversation.ModelTools): every definition is prompt a CPU server
// reads on each turn, so those whose answer another tool gives too are
// left to the heuristic reply — the day's summary (the weight, nutrition
// and workout tools), the remaining macros (get_today_nutrition has the
// targets), the calorie-target formula, the body scan and the dashboard's
// prompt answers.
var KioskModelTools = []string{
	"get_weight_trend", "get_today_nutrition", "get_nutrition_history", "get_recent_workouts",
	"get_recent_meals", "get_history_summary", "get_user_goals", "calculate_goal_progress",
	"get_fitness_content", "get_program_state", "get_voice_memos", "remember", "forget",
}

// All returns every coach tool factory.
func (t *Tools) All() []agent.ToolFactory {
	return []agent.ToolFactory{t.Health(), t.Fitness(), t.Coaching()}
}

// errNoMember refuses a tool call made outside a member's run.
var errNoMember = errors.New("this run is not for one member")

// member loads the scope's member.
func (c *core) member(ctx context.Context, scope agent.Scope) (health.Member, error) {
	if scope.MemberID == "" {
		return health.Member{}, errNoMember
	}
	m, err := c.rec.Member(ctx, scope.MemberID)
	if err != nil {
		return m, fmt.Errorf("coach: member %s: %w", scope.MemberID, err)
	}
	m.Unit = m.Unit.Normalize()
	return m, nil
}

// day resolves a date argument ("today", "yesterday", YYYY-MM-DD, nil =
// today) to an instant on that local day: now for today, the day's last
// instant for a past day.
func (c *core) day(arg *string, now time.Time) (time.Time, error) {
	today := health.LocalDay(now, c.loc)
	if arg == nil || *arg == "" || *arg == "today" {
		return now, nil
	}
	var d time.Time
	if *arg == "yesterday" {
		d = today.AddDate(0, 0, -1)
	} else {
		t, err := time.ParseInLocation(time.DateOnly, *arg, c.loc)
		if err != nil {
			return now, apperr.Invalidf("date %q must be YYYY-MM-DD", *arg)
		}
		d = t
	}
	if d.After(today) {
		return now, apperr.Invalidf("date %s is in the future", d.Format(time.DateOnly))
	}
	if d.Equal(today) {
		return now, nil
	}
	return d.AddDate(0, 0, 1).Add(-time.Nanosecond), nil
}
