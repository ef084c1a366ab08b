package coach

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
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
}

// GoalsView is get_user_goals's result: goals, goal weight and daily targets.
type GoalsView struct {
	Goals      []GoalLine     `json:"goals"`
	GoalWeight *float64       `json:"goal_weight,omitempty"`
	Targets    health.Targets `json:"targets"`
	Text       string         `json:"text"`
}

func (t *Tools) userGoals() agent.Tool {
	return agent.Tool{
		Name:        "get_user_goals",
		Description: "The member's goals, goal weight (member's unit) and daily nutrition targets.",
		Parameters: object(map[string]any{
			"include_inactive": nullable("boolean", "Also list achieved and dropped goals; null = false.", nil),
		}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct {
				IncludeInactive *bool `json:"include_inactive"`
			}
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			return t.c.goalsView(ctx, m, a.IncludeInactive != nil && *a.IncludeInactive)
		},
	}
}

func (c *core) goalsView(ctx context.Context, m health.Member, all bool) (GoalsView, error) {
	gs, err := c.rec.Goals(ctx, m.ID, !all)
	if err != nil {
		return GoalsView{}, err
	}
	v := GoalsView{Goals: []GoalLine{}, GoalWeight: inUnit(m.Unit, m.GoalWeightKg), Targets: m.Targets}
	var descs []string
	for _, g := range gs {
		l := GoalLine{ID: g.ID, Kind: g.Kind, Description: g.Description, Target: g.Target, Unit: g.Unit,
			Status: g.Status, Since: dateOf(g.CreatedAt, c.loc)}
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

func (t *Tools) goalProgress() agent.Tool {
	return agent.Tool{
		Name:        "calculate_goal_progress",
		Description: "Progress toward a goal weight (default: the member's): trend now, amount to go, percent covered, weekly pace and ETA.",
		Parameters: object(map[string]any{
			"goal_weight": nullable("number", "A goal weight in the member's unit; null = the member's goal weight.",
				map[string]any{"exclusiveMinimum": 0, "maximum": 1000}),
		}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct {
				GoalWeight *float64 `json:"goal_weight"`
			}
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			goal := m.GoalWeightKg
			if a.GoalWeight != nil {
				kg := m.Unit.ToKg(*a.GoalWeight)
				goal = &kg
			}
			if goal == nil {
				return nil, errors.New("the member has no goal weight; pass goal_weight")
			}
			now := t.c.clock(scope)
			rs, err := t.c.rec.Weights(ctx, m.ID, store.Range{From: now.AddDate(0, 0, -weightWindowDays)})
			if err != nil {
				return nil, err
			}
			return goalView(health.GoalProgress(rs, *goal, nil, now, t.c.loc), m.Unit, t.c.loc), nil
		},
	}
}

func (t *Tools) calorieTarget() agent.Tool {
	return agent.Tool{
		Name: "suggest_calorie_target",
		Description: "A daily calorie target: Mifflin-St Jeor BMR × the activity multiplier (TDEE), adjusted toward the goal " +
			"weight, never below a safe floor; with the reasoning.",
		Parameters: object(map[string]any{
			"weight": nullable("number", "Body weight in the member's unit; null = the latest weigh-in.",
				map[string]any{"exclusiveMinimum": 0, "maximum": 1000}),
		}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct{ Weight *float64 }
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			now := t.c.clock(scope)
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
		},
	}
}

func (t *Tools) remainingMacros() agent.Tool {
	return agent.Tool{
		Name:        "calculate_remaining_macros",
		Description: "What is left of the daily calorie and macro targets on a day (default today), after the meals logged so far.",
		Parameters:  object(map[string]any{"date": dateParam("The day")}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct{ Date *string }
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			day, err := t.c.day(a.Date, t.c.clock(scope))
			if err != nil {
				return nil, err
			}
			d, err := t.c.nutritionDay(ctx, m, day)
			if err != nil {
				return nil, err
			}
			return map[string]any{"date": d.Date, "remaining": d.VsTargets, "text": d.VsTargets.Text()}, nil
		},
	}
}
