package views

import (
	"fmt"
	"strconv"

	"hearth/internal/health"
	"hearth/internal/lifeplan"
)

// PlanView is a member's life plan as the kiosk's and the admin's Life
// plan pages read it: the purpose, values in rank order, goals with the
// moves allowed now and the fitness goals under them, beliefs with their
// accepted and suggested evidence, qualities. All of it is the member's
// (or a coach's) text: element text and plain attributes only.
type PlanView struct {
	Purpose   string
	Values    []string
	Goals     []PlanGoal
	Beliefs   []PlanBelief
	Qualities []PlanQuality
}

// Empty reports whether nothing is in the plan yet.
func (p PlanView) Empty() bool {
	return p.Purpose == "" && len(p.Values) == 0 && len(p.Goals) == 0 && len(p.Beliefs) == 0 && len(p.Qualities) == 0
}

// PlanGoal is a life-plan goal.
type PlanGoal struct {
	ID    int64
	Name  string
	Why   string
	State string
	// Next are the states it may move to now (lifeplan.Transitions).
	Next []string
	// Serves is the name of the goal it serves ("" = none).
	Serves string
	// Fitness are the member's Hearth fitness goals linked under it.
	Fitness []PlanFitness
}

// PlanFitness is a fitness goal linked under a life-plan goal.
type PlanFitness struct {
	ID   int64
	Name string
}

// PlanBelief is an if/then belief with its evidence: Accepted count,
// Suggested wait for the member's tap.
type PlanBelief struct {
	ID         int64
	If, Then   string
	State      string
	Confidence string // "50%"
	Accepted   []string
	Suggested  []PlanEvidence
}

// PlanEvidence is a suggested evidence note.
type PlanEvidence struct {
	ID     int64
	Text   string
	Source string // "coach", "data"
}

// PlanQuality is a quality the member cultivates.
type PlanQuality struct {
	Name, Why string
}

// FitnessGoalName names a Hearth fitness goal in a life plan: its
// description, else its kind and target.
func FitnessGoalName(g health.Goal) string {
	if g.Description != "" {
		return g.Description
	}
	name := g.Kind
	if g.Target != nil {
		name += " " + strconv.FormatFloat(*g.Target, 'f', -1, 64) + " " + g.Unit
	}
	return name
}

// NewPlanView lays p out for a page; fitness are the member's fitness
// goals, to name the linked ones (one not among them shows by number).
func NewPlanView(p lifeplan.Plan, fitness []health.Goal) PlanView {
	v := PlanView{Purpose: p.Purpose.Statement}
	for _, x := range p.Values {
		v.Values = append(v.Values, x.Name)
	}
	names := map[int64]string{}
	for _, g := range p.Goals {
		names[g.ID] = g.Name
	}
	fit := map[int64]string{}
	for _, g := range fitness {
		fit[g.ID] = FitnessGoalName(g)
	}
	for _, g := range p.Goals {
		pg := PlanGoal{ID: g.ID, Name: g.Name, Why: g.Why, State: string(g.State)}
		for _, n := range g.Next {
			pg.Next = append(pg.Next, string(n))
		}
		if g.ParentID != nil {
			pg.Serves = names[*g.ParentID]
		}
		for _, id := range g.FitnessGoalIDs {
			name, ok := fit[id]
			if !ok {
				name = fmt.Sprintf("Fitness goal %d", id)
			}
			pg.Fitness = append(pg.Fitness, PlanFitness{ID: id, Name: name})
		}
		v.Goals = append(v.Goals, pg)
	}
	for _, b := range p.Beliefs {
		pb := PlanBelief{ID: b.ID, If: b.If, Then: b.Then, State: string(b.State),
			Confidence: strconv.Itoa(int(b.Confidence*100+0.5)) + "%"}
		for _, e := range b.Evidence {
			switch e.Status {
			case lifeplan.Accepted:
				pb.Accepted = append(pb.Accepted, e.Text)
			case lifeplan.Suggested:
				pb.Suggested = append(pb.Suggested, PlanEvidence{ID: e.ID, Text: e.Text, Source: string(e.Source)})
			}
		}
		v.Beliefs = append(v.Beliefs, pb)
	}
	for _, q := range p.Qualities {
		v.Qualities = append(v.Qualities, PlanQuality{Name: q.Name, Why: q.Why})
	}
	return v
}
