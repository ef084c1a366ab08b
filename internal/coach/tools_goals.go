package coach

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/internal/lifeplan"
	"hearth/internal/store"
)

// GoalLine is one goal.
type GoalLine struct {
	ID          int64    `json:"id"`
	Kind        string   `json:"kind"`
	Description string   `json:"description"`
	Target      *float64 `json:"target,omitempty"`
	Unit        string   `json:"unit,omitempty"`
	TargetDate  string   `json:"target_date,omitempty"`
	Status      string   `json:"status"`
	Since       string   `json:"since"`
	// Serves is the life-plan goal this goal is linked to ("Hike with my
	// kids"), when the member linked it.
	Serves string `json:"serves,omitempty"`
}

// GoalsView is get_user_goals's result: goals, goal weight and daily targets.
type GoalsView struct {
	Goals      []GoalLine     `json:"goals"`
	GoalWeight *float64       `json:"goal_weight,omitempty"`
	Targets    health.Targets `json:"targets"`
	Text       string         `json:"text"`
}

// goalsArgs are get_user_goals's arguments.
type goalsArgs struct {
	IncludeInactive *bool `json:"include_inactive" desc:"Also list achieved and dropped goals; null = false."`
}

func (t *Tools) userGoals() agent.Tool {
	return memberTool(t.c, "get_user_goals", "The member's goals, goal weight (member's unit) and daily nutrition targets.",
		func(ctx context.Context, m health.Member, _ time.Time, a goalsArgs) (GoalsView, error) {
			return t.c.goalsView(ctx, m, a.IncludeInactive != nil && *a.IncludeInactive)
		})
}

func (c *core) goalsView(ctx context.Context, m health.Member, all bool) (GoalsView, error) {
	gs, err := c.rec.Goals(ctx, m.ID, !all)
	if err != nil {
		return GoalsView{}, err
	}
	v := GoalsView{Goals: []GoalLine{}, GoalWeight: inUnit(m.Unit, m.GoalWeightKg), Targets: m.Targets}
	life, err := c.lifePlan(ctx, m.ID)
	if err != nil {
		return GoalsView{}, err
	}
	var descs []string
	for _, g := range gs {
		l := GoalLine{ID: g.ID, Kind: g.Kind, Description: g.Description, Target: g.Target, Unit: g.Unit,
			Status: g.Status, Since: dateOf(g.CreatedAt, c.loc), Serves: life.Serves[g.ID]}
		if g.TargetDate != nil {
			l.TargetDate = g.TargetDate.Format(time.DateOnly)
		}
		v.Goals = append(v.Goals, l)
		descs = append(descs, g.Description)
	}
	parts := []string{"no goals set"}
	if len(descs) > 0 {
		parts = []string{strings.Join(descs, "; ")}
	}
	if v.GoalWeight != nil {
		parts = append(parts, "goal weight "+m.Unit.Format(*m.GoalWeightKg))
	}
	var tg []string
	for _, x := range []struct {
		name string
		v    *float64
		unit string
	}{{"", m.Targets.Calories, " kcal"}, {"protein ", m.Targets.ProteinG, " g"}, {"carbs ", m.Targets.CarbsG, " g"}, {"fat ", m.Targets.FatG, " g"}} {
		if x.v != nil {
			tg = append(tg, x.name+strconv.FormatFloat(*x.v, 'f', -1, 64)+x.unit)
		}
	}
	if len(tg) > 0 {
		parts = append(parts, "daily targets "+strings.Join(tg, ", "))
	}
	v.Text = strings.Join(parts, "; ")
	return v, nil
}

// progressArgs are calculate_goal_progress's arguments.
type progressArgs struct {
	GoalWeight *float64 `json:"goal_weight" desc:"A goal weight in the member's unit; null = the member's goal weight." schema:"exclusiveMinimum=0,maximum=1000"`
}

func (t *Tools) goalProgress() agent.Tool {
	return memberTool(t.c, "calculate_goal_progress",
		"Progress toward a goal weight (default: the member's): trend now, amount to go, percent covered, weekly pace and ETA.",
		func(ctx context.Context, m health.Member, now time.Time, a progressArgs) (any, error) {
			goal := m.GoalWeightKg
			if a.GoalWeight != nil {
				kg := m.Unit.ToKg(*a.GoalWeight)
				goal = &kg
			}
			if goal == nil {
				return nil, errors.New("the member has no goal weight; pass goal_weight")
			}
			rs, err := t.c.rec.Weights(ctx, m.ID, store.Range{From: now.AddDate(0, 0, -weightWindowDays)})
			if err != nil {
				return nil, err
			}
			// The plausible readings only, as every weight figure (board.WeightOf).
			rs = health.PlausibleWeights(rs, t.c.loc)
			return goalView(health.GoalProgress(rs, *goal, nil, now, t.c.loc), m.Unit, t.c.loc), nil
		})
}

// calorieArgs are suggest_calorie_target's arguments.
type calorieArgs struct {
	Weight *float64 `json:"weight" desc:"Body weight in the member's unit; null = the latest weigh-in." schema:"exclusiveMinimum=0,maximum=1000"`
}

func (t *Tools) calorieTarget() agent.Tool {
	return memberTool(t.c, "suggest_calorie_target",
		"A daily calorie target: Mifflin-St Jeor BMR × the activity multiplier (TDEE), adjusted toward the goal "+
			"weight, never below a safe floor; with the reasoning.",
		func(ctx context.Context, m health.Member, now time.Time, a calorieArgs) (any, error) {
			var kg float64
			if a.Weight != nil {
				kg = m.Unit.ToKg(*a.Weight)
			} else {
				rs, err := t.c.rec.Weights(ctx, m.ID, store.Range{Limit: 1, Desc: true, To: now.Add(time.Nanosecond)})
				if err != nil {
					return nil, err
				}
				if len(rs) == 0 {
					return nil, errors.New("no weigh-in yet; pass weight")
				}
				kg = rs[0].WeightKg
			}
			s, err := health.SuggestCalorieTarget(m, kg, now.In(t.c.loc))
			if errors.Is(err, health.ErrIncompleteProfile) {
				return nil, fmt.Errorf("cannot compute a target: %v; the member's profile needs it (admin pages)", err)
			}
			return s, err
		})
}

func (t *Tools) remainingMacros() agent.Tool {
	return memberTool(t.c, "calculate_remaining_macros",
		"What is left of the daily calorie and macro targets on a day (default today), after the meals logged so far.",
		func(ctx context.Context, m health.Member, now time.Time, a dateArgs) (any, error) {
			day, err := t.c.day(a.Date, now)
			if err != nil {
				return nil, err
			}
			d, err := t.c.nutritionDay(ctx, m, day)
			if err != nil {
				return nil, err
			}
			return map[string]any{"date": d.Date, "remaining": d.VsTargets, "text": d.VsTargets.Text()}, nil
		})
}

// lifePlan is the coach's view of the member's life plan (empty without one).
func (c *core) lifePlan(ctx context.Context, member string) (lifeplan.ForCoach, error) {
	if c.life == nil {
		return lifeplan.ForCoach{}, nil
	}
	f, err := c.life.ForCoach(ctx, member)
	if err != nil {
		return f, fmt.Errorf("coach: life plan: %w", err)
	}
	return f, nil
}
