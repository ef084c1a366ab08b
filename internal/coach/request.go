package coach

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"hearth/internal/health"
	"hearth/internal/program"
	"hearth/internal/schedule"
)

// Requests: a scheduled action or a to-do often asks the coach to tell the
// member something ("Add a short hydration reminder", "Remind Maya to log
// dinner"). Without a model the coach answers such a request with a note on
// its topic and the facts that bear on it, not a summary of every number.

// reRequest matches text that asks for a message to the member.
var reRequest = regexp.MustCompile(`^(?:please\s+)?(?:add|send|write|give|post|share|remind|tell|nudge|encourage|congratulate|create|draft|compose|prepare|ask|check\s+in\s+with|message)\b`)

// MeantForMember reports whether a scheduled prompt or a to-do asks for a
// message to the member (its output is then delivered to them).
func MeantForMember(text string) bool {
	return reRequest.MatchString(strings.ToLower(strings.TrimSpace(text)))
}

// requestTopic is one kind of request the heuristic knows, with its note.
type requestTopic struct {
	words []string
	note  string
	// facts adds the facts that bear on the topic ("" = none).
	facts func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error)
}

var requestTopics = []requestTopic{
	{words: []string{"hydrat", "water", "drink"},
		note:  "Hydration reminder: keep a glass of water within reach and sip through the day; one with each meal is an easy rule.",
		facts: sessionFact("Take a bottle to today's session: %s."),
	},
	{words: []string{"protein"},
		note: "Protein check: a protein-rich meal or snack (yogurt, eggs, beans, fish) keeps you on track.",
		facts: func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
			d, err := r.c.nutritionDay(ctx, m, now)
			if err != nil || d.Meals == 0 {
				return "", err
			}
			p := d.VsTargets.Protein
			if p.Target == nil {
				return fmt.Sprintf("So far today: %s g of protein.", num(p.Consumed)), nil
			}
			return fmt.Sprintf("So far today: %s g of your %s g protein target.", num(p.Consumed), num(*p.Target)), nil
		},
	},
	{words: []string{"weigh", "scale"},
		note: "Weigh-in reminder: step on the scale, ideally at the same time each morning.",
		facts: func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
			w, err := r.c.weightView(ctx, m, now)
			if err != nil || w.DaysSinceWeighIn == nil {
				return "", err
			}
			switch d := *w.DaysSinceWeighIn; d {
			case 0:
				return fmt.Sprintf("You weighed in today: %s.", w.CurrentText), nil
			case 1:
				return fmt.Sprintf("Your last weigh-in was yesterday: %s.", w.CurrentText), nil
			default:
				return fmt.Sprintf("Your last weigh-in was %d days ago.", d), nil
			}
		},
	},
	{words: []string{"meal", "log", "food", "eat", "dinner", "lunch", "breakfast"},
		note: "Meal reminder: log what you eat as you go; it takes a few seconds on the kiosk.",
		facts: func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
			d, err := r.c.nutritionDay(ctx, m, now)
			if err != nil {
				return "", err
			}
			if d.Meals == 0 {
				return "Nothing logged today yet.", nil
			}
			return fmt.Sprintf("Logged today: %s (%s kcal).", plural(d.Meals, "meal"), kcal(d.Totals.Calories)), nil
		},
	},
	{words: []string{"sleep", "bed"},
		note: "Sleep reminder: aim to be in bed in time for seven to nine hours; a screen-free half hour before helps.",
	},
	{words: []string{"stretch", "mobility", "posture"},
		note: "Stretch break: a few minutes of gentle stretching loosens you up after sitting.",
	},
	{words: []string{"walk", "step", "move"},
		note:  "Movement reminder: a ten-minute walk counts; take one after your next meal.",
		facts: weekFact,
	},
	{words: []string{"workout", "session", "training", "program", "exercise"},
		note:  "Training reminder:",
		facts: sessionFact("Today's session: %s."),
	},
}

// sessionFact names today's program session in format (none on other days).
func sessionFact(format string) func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
	return func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
		p, err := r.c.programView(ctx, m.ID, now)
		if err != nil || !p.HasProgram || p.Today != string(program.DayTraining) || p.Item == nil {
			return "", err
		}
		return fmt.Sprintf(format, fmt.Sprintf("%s, %s (%d min)", p.Week, p.Item.Title, p.Item.DurationMin)), nil
	}
}

func weekFact(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
	w, err := r.c.workoutsView(ctx, m, 3, now)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("This week so far: %s.", plural(w.Stats.ThisWeek, "workout")), nil
}

// request answers a request for a message; ok is false for anything else.
func (r *replier) request(ctx context.Context, m health.Member, now time.Time, message string) (string, bool, error) {
	if todo, ok := schedule.TodoText(message); ok {
		message = todo
	}
	if !MeantForMember(message) {
		return "", false, nil
	}
	low := strings.ToLower(message)
	for _, t := range requestTopics {
		if !containsAny(low, t.words) {
			continue
		}
		lines := []string{t.note}
		if t.facts != nil {
			f, err := t.facts(ctx, r, m, now)
			if err != nil {
				return "", true, err
			}
			if f != "" {
				lines = append(lines, f)
			}
		}
		if len(lines) == 1 && strings.HasSuffix(t.note, ":") {
			lines[0] = strings.TrimSuffix(t.note, ":") + ": whatever you do today, a short session beats none."
		}
		return strings.Join(lines, " "), true, nil
	}
	// Not a topic it knows: the request itself, as a note from the coach.
	return fmt.Sprintf("A note from your coach, %s: %s", m.Name, requestBody(message)), true, nil
}

// requestBody turns "Send Maya a short note about rest days" into "a short
// note about rest days" (the verb and the addressee dropped).
func requestBody(message string) string {
	s := strings.TrimSpace(message)
	if loc := reRequest.FindStringIndex(strings.ToLower(s)); loc != nil {
		s = strings.TrimSpace(s[loc[1]:])
	}
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return "keep going!"
	}
	return s + "."
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
