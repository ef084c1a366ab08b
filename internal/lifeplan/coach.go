package lifeplan

import (
	"context"

	"hearth/internal/store"
)

// ForCoach is what the health coach's daily run reads of a life plan: the
// life-plan goal each fitness goal serves, and the beliefs still open to
// evidence. It is the coach's limited view, read without a tool round.
type ForCoach struct {
	// Serves maps a Hearth fitness goal's id to the name of the live
	// life-plan goal it serves (a failed or abandoned one serves nothing).
	Serves map[int64]string
	// OpenBeliefs are the hypothesized and testing beliefs, oldest first,
	// at most MaxCoachBeliefs: the ones logged data may bear on.
	OpenBeliefs []Belief
}

// MaxCoachBeliefs caps the open beliefs the daily prompt carries.
const MaxCoachBeliefs = 3

// ForCoach reads the member's ForCoach. A member with no life plan gets
// an empty one.
func (s *Service) ForCoach(ctx context.Context, member string) (ForCoach, error) {
	out := ForCoach{Serves: map[int64]string{}}
	err := s.read(ctx, member, func(q store.Queryer) error {
		gs, err := goals(ctx, q, member)
		if err != nil {
			return err
		}
		for _, g := range gs {
			if g.State == Failed || g.State == Abandoned {
				continue
			}
			for _, f := range g.FitnessGoalIDs {
				out.Serves[f] = g.Name
			}
		}
		bs, err := beliefs(ctx, q, member)
		if err != nil {
			return err
		}
		for _, b := range bs {
			if (b.State == Hypothesized || b.State == Testing) && len(out.OpenBeliefs) < MaxCoachBeliefs {
				out.OpenBeliefs = append(out.OpenBeliefs, b)
			}
		}
		return nil
	})
	return out, err
}
