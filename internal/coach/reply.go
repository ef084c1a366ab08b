package coach

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/health"
)

// replier answers chat messages without a model, from the coach's tools.
type replier struct{ c *core }

func newReplier(c *core) *replier { return &replier{c: c} }

// replyNote ends every no-model reply, so the member knows what they got.
const replyNote = "(I'm answering from your numbers; the language model isn't available right now.)"

// cannotAnswer is the honest reply to a question the numbers do not answer.
const cannotAnswer = "I can't answer that without the language model. Without it I can tell you how your weight is going, " +
	"today's plan, what's next in your program, your streaks, your goals, and what you told me before."

// Chat topics the heuristic coach answers, each found by its words.
var replyTopics = []struct {
	topic string
	words *regexp.Regexp
}{
	{"recall", regexp.MustCompile(`(?i)\b(what|when)\s+did\s+i\s+(say|tell|mention)|\bi\s+(said|told you|mentioned)\b`)},
	{"week", regexp.MustCompile(`(?i)\b(plan|schedule|sessions|workouts)\b[^.?!]*\b(this|the|next|my|a|for\s+the)\s+week\b|\b(this|next)\s+week'?s?\s+(plan|schedule|sessions|workouts)\b|` +
		`\bweek(ly)?\s+(plan|schedule)\b|\bplan\s+(out\s+)?(my|the|this|next)\s+week\b`)},
	{"trained", regexp.MustCompile(`(?i)\bdid\s+i\s+(do|train|work\s*out|exercise|run|lift|swim|walk)\b|\b(trained|exercised|worked\s+out)\b|\bmy\s+workouts?\b`)},
	{"weight", regexp.MustCompile(`(?i)\b(weigh|weight|scale|kg|lbs?|pounds?|kilos?|trend)`)},
	{"plan", regexp.MustCompile(`(?i)\b(today|plan|up next|should i (do|train|work ?out)|workout for)`)},
	{"program", regexp.MustCompile(`(?i)\b(next|program|programme|session|tomorrow|day \d+)`)},
	{"streaks", regexp.MustCompile(`(?i)\b(streak|in a row|consisten|how many (workouts|days)|this week)`)},
	{"nutrition", regexp.MustCompile(`(?i)\b(eat|ate|meal|calorie|kcal|protein|food|nutrition|macro|carb|fat)`)},
	{"goals", regexp.MustCompile(`(?i)\b(goal|target)`)},
}

// toolLabels say what the coach's tools do, in the member's words, for the
// chips of a chat.
var toolLabels = map[string]string{
	"get_weight_trend":           "checked your weight trend",
	"get_today_nutrition":        "looked at today's meals",
	"get_nutrition_history":      "looked at your week of meals",
	"get_recent_meals":           "looked at your recent meals",
	"get_recent_workouts":        "checked your workouts",
	"get_health_summary":         "checked your numbers",
	"get_body_composition":       "checked your body composition",
	"get_history_summary":        "looked through your history",
	"get_fitness_content":        "looked through the workouts",
	"get_program_state":          "checked your program",
	"get_user_goals":             "checked your goals",
	"get_voice_memos":            "listened to your voice notes",
	"get_prompt_responses":       "read your answers",
	"calculate_goal_progress":    "worked out your goal progress",
	"suggest_calorie_target":     "worked out a calorie target",
	"calculate_remaining_macros": "worked out what's left for today",
	"send_message":               "sent a message",
	"remember":                   "made a note",
	"forget":                     "dropped a note",
}

// Reply is agent.Agent.Reply: it answers the topics the message asks
// about (weight trend, today's plan, what's next in the program, streaks,
// meals, goals, what the member said before) through the coach's tools,
// and says plainly when it cannot answer without a model.
func (r *replier) Reply(ctx context.Context, scope agent.Scope, turn agent.ChatTurn) (string, error) {
	// A scheduled action or a to-do asking for a message to the member
	// gets one written from its words and sent (request.go); a person
	// chatting does not.
	if !turn.Chat {
		m, err := r.c.member(ctx, scope)
		if err != nil {
			return "", err
		}
		if msg, ok, err := r.request(ctx, m, r.c.clock(scope), turn.Message); err != nil {
			return "", err
		} else if ok {
			return r.send(ctx, turn, msg)
		}
	}
	// What the member tells the coach (a sore knee, feeling sick, a goal)
	// is acknowledged first, from what Heard will keep of it.
	var heard Understood
	var heardUpdates []Update
	if turn.FromMember {
		u, us, err := r.c.heardInChat(ctx, scope, turn.Message)
		if err != nil {
			return "", err
		}
		heard, heardUpdates = u, us
	}
	topics := topicsOf(turn.Message)
	if len(topics) == 0 && len(turn.Recalled) > 0 && agent.RefersBack(turn.Message) {
		topics = []string{"recall"}
	}
	var lines []string
	if heard.Ack != "" {
		lines = append(lines, heard.Ack)
	}
	if len(topics) == 0 {
		if len(lines) > 0 {
			return strings.Join(lines, "\n"), nil
		}
		return cannotAnswer, nil
	}
	done := map[string]bool{}
	for _, topic := range topics {
		if done[topic] || topic == "plan" && done["program"] || topic == "program" && done["plan"] {
			continue
		}
		done[topic] = true
		if heard.Replan && (topic == "plan" || topic == "program") {
			// Today's plan is about to change: not the one before it.
			lines = append(lines, "Your dashboard shows today's new plan in a moment.")
			continue
		}
		ls, err := r.topic(ctx, scope, turn, topic, heardUpdates)
		if err != nil {
			return "", err
		}
		lines = append(lines, ls...)
	}
	return strings.Join(append(lines, replyNote), "\n"), nil
}

// topicsOf are the topics a message asks about, in replyTopics order. A
// week's plan is its own answer (not today's plan or the week's streaks);
// a question about what the member did on a day is about that day.
func topicsOf(msg string) []string {
	var topics []string
	for _, t := range replyTopics {
		if t.words.MatchString(msg) {
			topics = append(topics, t.topic)
		}
	}
	if slices.Contains(topics, "week") {
		topics = slices.DeleteFunc(topics, func(t string) bool { return t == "plan" || t == "program" || t == "streaks" || t == "trained" })
	}
	if slices.Contains(topics, "trained") && (slices.Contains(topics, "nutrition") || slices.Contains(topics, "streaks")) {
		topics = slices.DeleteFunc(topics, func(t string) bool { return t == "trained" })
	}
	return topics
}

// send delivers msg to the member through send_message, staged in the
// turn's run and sent in its commit, and returns it as the turn's reply.
// A turn that does not offer the tool (a definition's "Try it") answers
// with the message it would send.
func (r *replier) send(ctx context.Context, turn agent.ChatTurn, msg string) (string, error) {
	if _, err := chatTool[map[string]any](ctx, turn, "send_message", map[string]string{"text": msg}); err != nil &&
		!apperr.Is(err, apperr.NotFound) {
		return "", err
	}
	return msg, nil
}

// chatTool runs a tool through the turn (so it shows and is recorded) and
// decodes its result.
func chatTool[T any](ctx context.Context, turn agent.ChatTurn, name string, args any) (T, error) {
	var zero T
	raw, err := json.Marshal(args)
	if err != nil {
		return zero, err
	}
	if args == nil {
		raw = nil
	}
	v, err := turn.Call(ctx, name, raw)
	if err != nil {
		return zero, fmt.Errorf("coach: %s: %w", name, err)
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("coach: %s: unexpected result %T", name, v)
	}
	return t, nil
}

func (r *replier) topic(ctx context.Context, scope agent.Scope, turn agent.ChatTurn, topic string, heard []Update) ([]string, error) {
	switch topic {
	case "recall":
		if len(turn.Recalled) == 0 {
			return []string{"I don't find anything you told me about that in our earlier chats."}, nil
		}
		out := []string{"Here is what you told me before:"}
		n := 0
		for _, m := range turn.Recalled {
			if m.Role != agent.RoleUser || n == 3 {
				continue
			}
			n++
			out = append(out, fmt.Sprintf("- %s: “%s”", health.DayText(m.CreatedAt, r.c.clock(scope), r.c.loc), clipText(m.Content, 200)))
		}
		if n == 0 {
			return []string{"I don't find anything you told me about that in our earlier chats."}, nil
		}
		return out, nil
	case "weight":
		w, err := chatTool[WeightView](ctx, turn, "get_weight_trend", nil)
		if err != nil {
			return nil, err
		}
		if w.Readings == 0 {
			return []string{"You haven't logged a weight yet: step on the scale and I'll start your trend."}, nil
		}
		// The coach's judgement holds in chat too: no progress toward a
		// lower goal for a member it must not push (a condition, their age,
		// a low body weight), said or known.
		if why, ok, err := r.noWeightLossPush(ctx, scope, w, heard); err != nil {
			return nil, err
		} else if ok && w.Goal.Goal != nil && w.Current != nil && *w.Goal.Goal < *w.Current {
			line := "Weight: " + w.CurrentText
			if w.Change7dText != "" {
				line += ", trend " + w.Change7dText + " over 7 days"
			}
			return []string{line + ".", why}, nil
		}
		out := []string{"Weight: " + w.Text + "."}
		if w.Goal.Text != "" && !strings.Contains(w.Text, w.Goal.Text) {
			out = append(out, "Goal: "+w.Goal.Text+".")
		}
		return out, nil
	case "plan", "program":
		p, err := chatTool[ProgramView](ctx, turn, "get_program_state", nil)
		if err != nil {
			return nil, err
		}
		var out []string
		if topic == "plan" {
			now := r.c.clock(scope)
			doc, err := r.c.dash.Latest(ctx, scope.MemberID, dateOf(now, r.c.loc))
			switch {
			case err == nil && doc.Day == dateOf(now, r.c.loc) && doc.Document.Curated.UpNext.Primary != nil:
				pr := doc.Document.Curated.UpNext.Primary
				out = append(out, fmt.Sprintf("Today's plan: %s (%d min).", pr.Title, pr.Duration))
			case err != nil && !apperr.Is(err, apperr.NotFound):
				return nil, err
			default:
				out = append(out, "Today's plan isn't written yet: tap “Prepare my day” and I'll put it together.")
			}
		}
		if !p.HasProgram {
			return append(out, "You're not following a program right now."), nil
		}
		out = append(out, "Program: "+p.Text+".")
		if len(p.Upcoming) > 0 {
			next := p.Upcoming[0]
			out = append(out, fmt.Sprintf("Next up: %s (%d min).", next.Title, next.DurationMin))
		}
		return out, nil
	case "streaks":
		d, err := chatTool[NutritionDayView](ctx, turn, "get_today_nutrition", map[string]any{"date": nil})
		if err != nil {
			return nil, err
		}
		w, err := chatTool[WorkoutsView](ctx, turn, "get_recent_workouts", map[string]any{"limit": 5})
		if err != nil {
			return nil, err
		}
		out := []string{"Training: " + w.Stats.Text + "."}
		switch n := d.LoggingStreak; {
		case n >= 2:
			out = append(out, fmt.Sprintf("Meals logged %d days in a row.", n))
		case n == 1:
			out = append(out, "Meals logged today; keep it going tomorrow for a streak.")
		default:
			out = append(out, "No meal-logging streak right now: log a meal to start one.")
		}
		return out, nil
	case "nutrition":
		if when, ok := r.dayAsked(scope, turn.Message); ok {
			return r.mealsOn(ctx, scope, turn, when)
		}
		d, err := chatTool[NutritionDayView](ctx, turn, "get_today_nutrition", map[string]any{"date": nil})
		if err != nil {
			return nil, err
		}
		return []string{"Today so far: " + d.Text + "."}, nil
	case "trained":
		when, ok := r.dayAsked(scope, turn.Message)
		if !ok {
			when = asked{from: civilDate(r.c.clock(scope), r.c.loc).AddDate(0, 0, -6), to: civilDate(r.c.clock(scope), r.c.loc),
				label: "in the last 7 days"}
		}
		return r.workoutsOn(ctx, turn, when)
	case "week":
		return r.weekPlan(ctx, scope, turn)
	case "goals":
		g, err := chatTool[GoalsView](ctx, turn, "get_user_goals", map[string]any{"include_inactive": nil})
		if err != nil {
			return nil, err
		}
		return []string{"Goals: " + g.Text + "."}, nil
	}
	return nil, nil
}

// Heard is agent.Agent.Heard: what the member said in their own chat
// (the engine calls it for FromMember turns only, never for an admin's
// words or a scheduled request) is interpreted like an
// answer or a voice memo, and what matters is kept as typed notes (an
// injury by body part, feeling sick or tired, a goal to confirm), each
// under its own key. A statement that changes today asks for a re-plan,
// after this turn commits its notes. The rest of the chat is in its
// thread, where later turns recall it.
func (r *replier) Heard(ctx context.Context, scope agent.Scope, message string) error {
	if scope.Memory == nil {
		return nil
	}
	u, keep, err := r.c.heardInChat(ctx, scope, message)
	if err != nil {
		return err
	}
	for _, x := range keep {
		switch x.Kind {
		case UpdateMemory:
			if err := scope.Memory.Set(x.Key, x.Value, time.Duration(x.TTLHours)*time.Hour); err != nil {
				return fmt.Errorf("coach: keep %s: %w", x.Key, err)
			}
		case UpdateForget:
			scope.Memory.Remove(x.Key)
		}
	}
	if u.Replan && r.c.replan != nil {
		r.c.replan(scope.MemberID, scope.RunID)
	}
	return nil
}

// noWeightLossPush says whether (and why, as a sentence) the member must
// not be pushed toward a lower weight: a condition memory or this message
// holds, their age, a BMI under UnderweightBMI.
func (r *replier) noWeightLossPush(ctx context.Context, scope agent.Scope, w WeightView, heard []Update) (string, bool, error) {
	m, err := r.c.member(ctx, scope)
	if err != nil {
		return "", false, err
	}
	age := m.AgeOn(civilDate(r.c.clock(scope), r.c.loc))
	s := Safety{}
	s.conditionLimits(conditionsHeld(memberSaid(scope.Memory, heard)), MemberInfo{Age: age, LifeStage: lifeStage(age)})
	switch {
	case s.ConditionPush:
		return fmt.Sprintf("With your %s I won't push for a lower weight; your %s advice comes first.", joinAnd(s.Conditions), s.Clinician), true, nil
	case s.LifeStage == lifeStageMinor:
		return fmt.Sprintf("At %d, what counts is being active, not a lower weight.", s.Age), true, nil
	case w.BMI != nil && *w.BMI < UnderweightBMI:
		return fmt.Sprintf("Your BMI is %s, under %s, so I won't push for a lower weight: eat enough to fuel your days.", num(*w.BMI), num(UnderweightBMI)), true, nil
	}
	return "", false, nil
}
