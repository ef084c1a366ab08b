package lifeplan

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

// SuggestedValues are the values the guided flow offers to pick from.
var SuggestedValues = []string{"Family", "Health", "Learning", "Adventure", "Creativity", "Community", "Security", "Freedom",
	"Kindness", "Faith"}

var (
	purposeHead = regexp.MustCompile(`(?i)^\s*(?:my purpose is|my purpose:|purpose:)\s*`)
	goalHead    = regexp.MustCompile(`(?i)^\s*(?:my goal is(?: to)?|goal:|i want to|i'd like to|i would like to)\s*`)
	listSplit   = regexp.MustCompile(`\s*(?:,|;|\band\b|\n)\s*`)
	// moveHead is "Move “Run a 10k” to considered because we found a
	// plan" (curly or straight quotes, or none): the goal, the state, the
	// reason after "because" (or a colon or a dash).
	moveHead = regexp.MustCompile(`(?is)^\s*move\s+(?:“([^”]+)”|"([^"]+)"|(.+?))\s+(?:to|into)\s+(dream|considered|ready|committed|paused|achieved|failed|abandoned)\b\s*(?:(?:because|as|since|:|-|–|,)\s*(.*))?$`)
)

// maxFlowValues is how many values the guided flow keeps.
const maxFlowValues = 5

// Reply walks a member through a short life plan without a language
// model, one step per turn, each written through the tools (call) so the
// run records and stages it: pick values from a list, write a purpose,
// add a goal. Where the member is decides the step: no values yet, no
// purpose yet, then goals.
func Reply(ctx context.Context, call agent.ToolCaller, message string) string {
	var values []Value
	if err := agent.CallInto(ctx, call, "lifeplan_get_values", struct{}{}, &values); err != nil {
		return "I couldn't read your life plan: " + err.Error()
	}
	msg := strings.TrimSpace(message)
	if m := moveHead.FindStringSubmatch(msg); m != nil {
		return moveGoal(ctx, call, m[1]+m[2]+m[3], GoalState(strings.ToLower(m[4])), m[5])
	}
	if len(values) == 0 {
		picked := pickValues(msg)
		if len(picked) == 0 {
			return "Let's start with what matters most to you. Pick up to five values, most important first, from these or in your own words: " +
				strings.Join(SuggestedValues, ", ") + ". For example: “Family, Health, Adventure”."
		}
		args := map[string]any{"values": valueArgs(picked)}
		var out Staged[[]ValueInput]
		if err := agent.CallInto(ctx, call, "lifeplan_set_values", args, &out); err != nil {
			return "I couldn't keep those values: " + err.Error()
		}
		return fmt.Sprintf("Your values: %s. Next, your purpose: in a sentence, what is your life about? Start with “My purpose is …”.",
			strings.Join(picked, ", "))
	}
	var purpose Purpose
	if err := agent.CallInto(ctx, call, "lifeplan_get_purpose", struct{}{}, &purpose); err != nil {
		return "I couldn't read your purpose: " + err.Error()
	}
	if purpose.Statement == "" {
		if !purposeHead.MatchString(msg) {
			return "Next, your purpose: in a sentence, what is your life about? Start with “My purpose is …”."
		}
		statement := strings.TrimSpace(purposeHead.ReplaceAllString(msg, ""))
		if statement == "" {
			return "Tell me the sentence after “My purpose is”."
		}
		var out Staged[string]
		if err := agent.CallInto(ctx, call, "lifeplan_set_purpose", map[string]any{"statement": capitalize(statement)}, &out); err != nil {
			return "I couldn't keep your purpose: " + err.Error()
		}
		return "Kept your purpose. Now a goal that serves it: start with “My goal is …”, e.g. “My goal is to hike with my kids”."
	}
	if !goalHead.MatchString(msg) {
		return "Your values and purpose are set. To add a goal, start with “My goal is …”; it starts as a dream, and you move it to " +
			"considered, ready and committed as it takes shape: “Move “Run a 10k” to considered because …”."
	}
	name := strings.TrimRight(strings.TrimSpace(goalHead.ReplaceAllString(msg, "")), ".!")
	if name == "" {
		return "Tell me the goal after “My goal is”."
	}
	var out Staged[GoalArgs]
	if err := agent.CallInto(ctx, call, "lifeplan_add_goal", map[string]any{"name": capitalize(name), "why": nil, "state": nil, "parent_id": nil}, &out); err != nil {
		return "I couldn't add that goal: " + err.Error()
	}
	return fmt.Sprintf("Added “%s” as a dream. When you have weighed what it takes, it moves to considered.", capitalize(name))
}

// MovePrompt is the guided flow's words for moving a goal ("Move “Run a
// 10k” to considered"), as the kiosk's tap prompts offer it; the reason
// follows after "because".
func MovePrompt(goal string, to GoalState) string {
	return fmt.Sprintf("Move “%s” to %s", goal, to)
}

// moveGoal moves the member's goal named name (ignoring case) to state
// to with the member's reason, through lifeplan_transition_goal: a move
// the goal's state does not allow answers the service's reason, and a
// move without a reason asks for one.
func moveGoal(ctx context.Context, call agent.ToolCaller, name string, to GoalState, reason string) string {
	name = strings.TrimSpace(name)
	var goals []Goal
	if err := agent.CallInto(ctx, call, "lifeplan_get_goals", struct{}{}, &goals); err != nil {
		return "I couldn't read your goals: " + err.Error()
	}
	var g *Goal
	for i := range goals {
		if strings.EqualFold(goals[i].Name, name) {
			g = &goals[i]
		}
	}
	if g == nil {
		if len(goals) == 0 {
			return fmt.Sprintf("I can't find a goal called “%s”: you have none yet. Start one with “My goal is …”.", name)
		}
		names := make([]string, len(goals))
		for i, x := range goals {
			names[i] = "“" + x.Name + "”"
		}
		return fmt.Sprintf("I can't find a goal called “%s”. Your goals: %s.", name, strings.Join(names, ", "))
	}
	reason = strings.TrimRight(strings.TrimSpace(reason), ".!")
	if reason == "" {
		return fmt.Sprintf("Why move “%s” to %s? Tell me in a few words: “%s because …”.", g.Name, to, MovePrompt(g.Name, to))
	}
	args := map[string]any{"goal_id": g.ID, "to": string(to), "reason": capitalize(reason)}
	var out Staged[TransitionArgs]
	if err := agent.CallInto(ctx, call, "lifeplan_transition_goal", args, &out); err != nil {
		if ae := apperr.As(err); ae != nil {
			return fmt.Sprintf("“%s” stays %s: %s.", g.Name, g.State, ae.Message)
		}
		return "I couldn't move that goal: " + err.Error()
	}
	return fmt.Sprintf("Moved “%s” from %s to %s: %s.", g.Name, g.State, to, capitalize(reason))
}

// pickValues reads a list of values ("Family, health and adventure"):
// the suggested ones in their spelling, others as written; nothing when
// the message is not a short list (a greeting, a sentence).
func pickValues(msg string) []string {
	var out []string
	known := 0
	for _, part := range listSplit.Split(strings.TrimRight(msg, ".!"), -1) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if len(strings.Fields(part)) > 3 {
			return nil
		}
		name := capitalize(part)
		for _, v := range SuggestedValues {
			if strings.EqualFold(v, part) {
				name = v
				known++
			}
		}
		if len(out) < maxFlowValues {
			out = append(out, name)
		}
	}
	if known == 0 && len(out) < 2 {
		return nil // one unknown word is a greeting, not a list
	}
	return out
}

func valueArgs(names []string) []map[string]any {
	out := make([]map[string]any, len(names))
	for i, n := range names {
		out[i] = map[string]any{"name": n, "description": nil}
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
