package lifeplan

import (
	"context"
	"fmt"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// UnlinkFitnessGoalFrom removes the link of the member's fitness goal
// fitnessGoalID to their life-plan goal goalID, as the JSON API names it
// (DELETE …/goals/:id/fitness-links/:fitness_goal): a fitness goal that
// serves another of the member's goals, or none, is NotFound and stays
// linked where it is, so a stale or mistyped goal id removes nothing.
func (s *Service) UnlinkFitnessGoalFrom(ctx context.Context, member string, goalID, fitnessGoalID int64) error {
	return s.write(ctx, member, func(tx *store.Tx) error {
		if _, err := goal(ctx, tx, member, goalID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM lifeplan_fitness_links WHERE fitness_goal_id = ? AND goal_id = ? AND member_id = ?`,
			fitnessGoalID, goalID, member)
		if err != nil {
			return fmt.Errorf("lifeplan: unlink fitness goal %d: %w", fitnessGoalID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFoundf("fitness goal %d does not serve goal %d", fitnessGoalID, goalID)
		}
		return nil
	})
}
