package coach

import (
	"context"
	"strings"

	"hearth/internal/agent"
)

// replier answers chat messages without a model, from the member's numbers.
type replier struct{ c *core }

func newReplier(c *core) *replier { return &replier{c: c} }

// replyNote ends every no-model reply, so the member knows what they got.
const replyNote = "(I'm answering from your numbers; the language model isn't available right now.)"

var replyTopics = []struct {
	words []string
	topic string
}{
	{[]string{"weigh", "weight", "scale", "kg", "lb", "pound"}, "weight"},
	{[]string{"eat", "meal", "calorie", "kcal", "protein", "food", "nutrition", "macro", "carb", "fat"}, "nutrition"},
	{[]string{"workout", "train", "program", "session", "exercise", "today", "rest"}, "training"},
	{[]string{"goal", "target"}, "goals"},
}

// Reply is agent.Agent.Reply: it picks the topics the message mentions
// (weight, nutrition, training, goals; all but goals when none) and
// answers with the tools' summaries.
func (r *replier) Reply(ctx context.Context, scope agent.Scope, message string) (string, error) {
	m, err := r.c.member(ctx, scope)
	if err != nil {
		return "", err
	}
	now := r.c.clock(scope)
	if reply, ok, err := r.request(ctx, m, now, message); ok {
		return reply, err
	}
	low := strings.ToLower(message)
	topics := map[string]bool{}
	for _, t := range replyTopics {
		for _, w := range t.words {
			if strings.Contains(low, w) {
				topics[t.topic] = true
			}
		}
	}
	if len(topics) == 0 {
		topics = map[string]bool{"weight": true, "nutrition": true, "training": true}
	}
	var lines []string
	if topics["weight"] {
		w, err := r.c.weightView(ctx, m, now)
		if err != nil {
			return "", err
		}
		lines = append(lines, "Weight: "+w.Text+".")
	}
	if topics["nutrition"] {
		d, err := r.c.nutritionDay(ctx, m, now)
		if err != nil {
			return "", err
		}
		lines = append(lines, "Today so far: "+d.Text+".")
	}
	if topics["training"] {
		p, err := r.c.programView(ctx, m.ID, now)
		if err != nil {
			return "", err
		}
		w, err := r.c.workoutsView(ctx, m, 3, now)
		if err != nil {
			return "", err
		}
		lines = append(lines, "Program: "+p.Text+".", "Training: "+w.Stats.Text+".")
	}
	if topics["goals"] {
		g, err := r.c.goalsView(ctx, m, false)
		if err != nil {
			return "", err
		}
		lines = append(lines, "Goals: "+g.Text+".")
	}
	return strings.Join(append(lines, replyNote), "\n"), nil
}
