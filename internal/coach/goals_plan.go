package coach

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard"
)

// reStrengthGoal recognises a strength goal ("Get stronger", "build muscle").
var reStrengthGoal = regexp.MustCompile(`(?i)\b(strong|stronger|strength|muscle|muscles|lift|lifting)\b`)

// goalKind is the content kind the member's goals ask for ("" for none):
// a strength goal (active, or set by this run) brings strength content.
func (g *Gathered) goalKind() string {
	for _, u := range g.Updates {
		if u.Kind == UpdateGoal && u.Goal != nil && reStrengthGoal.MatchString(u.Goal.Description) {
			return content.KindStrength
		}
	}
	for _, x := range g.Goals.Goals {
		if x.Status == "active" && reStrengthGoal.MatchString(x.Description) {
			return content.KindStrength
		}
	}
	return ""
}

// goalProgramFirst offers the first session of a program of the goal's
// kind (the strength program for a strength goal), when the member is in
// no program.
func (p *planner) goalProgramFirst() []dashboard.ContentRef {
	k := p.g.goalKind()
	if k == "" || p.g.Program.HasProgram {
		return nil
	}
	for _, pr := range p.g.Programs {
		if pr.First != nil && pr.First.Kind == k && !p.used[pr.First.ID] && p.safe(*pr.First) {
			return []dashboard.ContentRef{p.ref(*pr.First, pr.Title+" · "+content.WeekLabel(1), ReasonDiscover)}
		}
	}
	return nil
}

// trainedLately reports a workout of the kind today or yesterday: the same
// kind again needs a day between (48 hours for the same muscle groups).
func (p *planner) trainedLately(kind string) bool {
	yesterday := p.g.civil.AddDate(0, 0, -1).Format(time.DateOnly)
	for _, w := range p.g.Training.Recent {
		if strings.EqualFold(w.Type, kind) && w.Date >= yesterday {
			return true
		}
	}
	for _, c := range p.g.Training.Completed {
		if e, ok := p.g.byID[c.ContentID]; ok && e.Kind == kind && c.At.Format(time.DateOnly) >= yesterday {
			return true
		}
	}
	return false
}

// goalPick is a standalone session of the goal's kind ("" kind: nil).
func (p *planner) goalPick() *content.MenuEntry {
	k := p.g.goalKind()
	if k == "" {
		return nil
	}
	c := p.candidates(func(e content.MenuEntry) bool { return e.Kind == k && e.Program == "" && !p.recentlyDone(e.ID) })
	if len(c) == 0 {
		return nil
	}
	return &c[0]
}

// hasGoalWeight reports a goal weight on the profile (set by an admin or
// an earlier goal): the goal question is not asked then.
func (g *Gathered) hasGoalWeight() bool {
	return g.Goals.GoalWeight != nil || g.Weight.Goal.Goal != nil
}

// missedGoal is an active goal whose target date has passed.
type missedGoal struct {
	GoalLine
	DaysAgo int
	said    bool // the briefing's weight line named it
}

// missedWeightGoal is the weight goal whose date passed (nil: none).
func (g *Gathered) missedWeightGoal() *missedGoal {
	for _, m := range g.missedGoals() {
		if m.Kind == "weight" {
			return &m
		}
	}
	return nil
}

// quoteGoal quotes a goal as the member wrote it ("Run 5 km").
func quoteGoal(s string) string { return "\u201c" + strings.TrimSpace(s) + "\u201d" }

// missedGoals are the active goals whose target date is before today.
func (g *Gathered) missedGoals() []missedGoal {
	if g.mutant == MutantIgnoreGoalDate {
		return nil
	}
	var out []missedGoal
	for _, x := range g.Goals.Goals {
		if x.Status != "active" || x.TargetDate == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, x.TargetDate)
		if err != nil || !t.Before(g.civil) {
			continue
		}
		out = append(out, missedGoal{GoalLine: x, DaysAgo: int(g.civil.Sub(t).Hours() / 24)})
	}
	return out
}

// Missed goal date prompt: its id carries the goal id, so a new date is a
// new question.
const (
	promptGoalDatePrefix = "goal-date-"
	optGoalDate8Weeks    = "A new date in 8 weeks"
	optGoalDate12Weeks   = "A new date in 12 weeks"
	optGoalDateNone      = "Keep going, no date"
)

func (g *Gathered) goalDatePrompt(m missedGoal) (id, question string) {
	return fmt.Sprintf("%s%d-%s", promptGoalDatePrefix, m.ID, m.TargetDate),
		fmt.Sprintf("Your goal \"%s\" had a date of %s, which has passed. Set a new one?", m.Description, g.dateText(m.TargetDate))
}

// goalDateAnswer interprets the answer to a missed goal date prompt
// (goal-date-<goal id>-<old date>): a new date 8 or 12 weeks from the
// answer's day, or none.
func goalDateAnswer(a AnswerLine, note string) (Update, bool) {
	rest, ok := strings.CutPrefix(a.PromptID, promptGoalDatePrefix)
	if !ok {
		return Update{}, false
	}
	idText, _, _ := strings.Cut(rest, "-")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return Update{}, false
	}
	u := Update{Kind: UpdateGoalDate, GoalID: id, Note: note}
	day, err := time.Parse(time.DateOnly, a.Day)
	if err != nil {
		return Update{}, false
	}
	switch strings.TrimSpace(a.Answer) {
	case optGoalDate8Weeks:
		u.TargetDate = day.AddDate(0, 0, 56).Format(time.DateOnly)
	case optGoalDate12Weeks:
		u.TargetDate = day.AddDate(0, 0, 84).Format(time.DateOnly)
	case optGoalDateNone:
	default:
		return Update{}, false
	}
	return u, true
}

// sessionDoneToday reports that this run advanced the program for a
// session finished today: the next day's session is not "today's".
func (p *planner) sessionDoneToday() bool {
	if !hasKind(p.g.Updates, UpdateAdvance) {
		return false
	}
	for _, c := range p.g.Training.Completed {
		if p.g.loc != nil && dateOf(c.At, p.g.loc) == p.g.Date {
			return true
		}
	}
	return false
}
