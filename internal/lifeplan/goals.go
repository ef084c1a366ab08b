package lifeplan

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/text"
)

// Goal is a life-plan goal: "be healthy enough to hike with my kids".
type Goal struct {
	ID    int64     `json:"id"`
	Name  string    `json:"name"`
	Why   string    `json:"why,omitempty"`
	State GoalState `json:"state"`
	// Next are the states it may move to now (Transitions).
	Next []GoalState `json:"next"`
	// ParentID is the life-plan goal this one serves, if any.
	ParentID *int64 `json:"parent_id,omitempty"`
	// FitnessGoalIDs are the Hearth fitness goals (the goals table) that
	// serve this one, oldest link first.
	FitnessGoalIDs []int64   `json:"fitness_goal_ids"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
}

// GoalInput is a new goal.
type GoalInput struct {
	Name string `json:"name"`
	Why  string `json:"why,omitempty"`
	// State is where it starts: dream (also when empty) or considered.
	State GoalState `json:"state,omitempty"`
	// ParentID is one of the member's life-plan goals this one serves.
	ParentID *int64 `json:"parent_id,omitempty"`
}

// Transition is one entry of a goal's history: its creation (From empty,
// Reason "added") or a move between states.
type Transition struct {
	From   GoalState `json:"from,omitempty"`
	To     GoalState `json:"to"`
	Reason string    `json:"reason"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// by validates who acted ("member", "admin", "agent:lifeplan-coach"); the
// caller says, empty is "member".
func by(f map[string]string, who string) string {
	who = text.Field(f, "by", text.Line, who, maxBy)
	if who == "" {
		return "member"
	}
	return who
}

// Goals returns the member's goals, oldest first.
func (s *Service) Goals(ctx context.Context, member string) ([]Goal, error) {
	var out []Goal
	err := s.read(ctx, member, func(q store.Queryer) error {
		var err error
		out, err = goals(ctx, q, member)
		return err
	})
	return out, err
}

// AddGoal adds a goal as a dream or a considered one, and starts its
// history; who is who added it.
func (s *Service) AddGoal(ctx context.Context, member string, in GoalInput, who string) (Goal, error) {
	f := map[string]string{}
	name := text.Required(f, "name", text.Line, in.Name, maxName)
	why := text.Field(f, "why", text.Multi, in.Why, maxWhy)
	state := in.State
	if state == "" {
		state = Dream
	}
	if state != Dream && state != Considered {
		f["state"] = "a new goal starts as dream or considered"
	}
	who = by(f, who)
	if len(f) > 0 {
		return Goal{}, apperr.FieldErrors(f)
	}
	var g Goal
	err := s.write(ctx, member, func(tx *store.Tx) error {
		n, err := count(ctx, tx, "lifeplan_goals", member)
		if err != nil {
			return err
		}
		if n >= MaxGoals {
			return full("goals", MaxGoals)
		}
		if in.ParentID != nil {
			if _, err := goal(ctx, tx, member, *in.ParentID); err != nil {
				return err
			}
		}
		now := s.stamp()
		res, err := tx.ExecContext(ctx, `INSERT INTO lifeplan_goals (member_id, name, why, state, parent_id, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, member, name, why, state, in.ParentID, now, now)
		if err != nil {
			return fmt.Errorf("lifeplan: add goal: %w", err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("lifeplan: add goal: %w", err)
		}
		if err := s.history(ctx, tx, member, id, "", state, "added", who, now); err != nil {
			return err
		}
		g, err = goal(ctx, tx, member, id)
		return err
	})
	return g, err
}

// TransitionGoal moves one of the member's goals to state to, if
// Transitions allows the move from its state, and records it in the
// goal's history with the reason (required) and who moved it. A move the
// graph does not allow is an apperr.Conflict naming the moves that are.
func (s *Service) TransitionGoal(ctx context.Context, member string, goalID int64, to GoalState, reason, who string) (Goal, error) {
	f := map[string]string{}
	if !to.Valid() {
		f["state"] = "must be one of " + joinStates(GoalStates)
	}
	reason = text.Required(f, "reason", text.Multi, reason, maxReason)
	who = by(f, who)
	if len(f) > 0 {
		return Goal{}, apperr.FieldErrors(f)
	}
	var g Goal
	err := s.write(ctx, member, func(tx *store.Tx) error {
		old, err := goal(ctx, tx, member, goalID)
		if err != nil {
			return err
		}
		if err := checkTransition(old.State, to); err != nil {
			return err
		}
		now := s.stamp()
		// The state it was read in: a move decided on a stale state writes nothing.
		res, err := tx.ExecContext(ctx, `UPDATE lifeplan_goals SET state = ?, updated_at = ? WHERE id = ? AND member_id = ? AND state = ?`,
			to, now, goalID, member, old.State)
		if err != nil {
			return fmt.Errorf("lifeplan: transition goal %d: %w", goalID, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return apperr.New(apperr.Conflict, "the goal changed meanwhile: try again")
		}
		if err := s.history(ctx, tx, member, goalID, old.State, to, reason, who, now); err != nil {
			return err
		}
		g, err = goal(ctx, tx, member, goalID)
		return err
	})
	return g, err
}

func (s *Service) history(ctx context.Context, tx *store.Tx, member string, goalID int64, from, to GoalState, reason, who, at string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO lifeplan_goal_history (member_id, goal_id, from_state, to_state, reason, at, by)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, member, goalID, from, to, reason, at, who); err != nil {
		return fmt.Errorf("lifeplan: goal %d history: %w", goalID, err)
	}
	return nil
}

// GoalHistory returns one of the member's goals' history, oldest first:
// its creation, then every transition.
func (s *Service) GoalHistory(ctx context.Context, member string, goalID int64) ([]Transition, error) {
	var out []Transition
	err := s.read(ctx, member, func(q store.Queryer) error {
		if _, err := goal(ctx, q, member, goalID); err != nil {
			return err
		}
		var err error
		out, err = store.All(ctx, q, func(r store.Scanner) (Transition, error) {
			var t Transition
			var at string
			if err := r.Scan(&t.From, &t.To, &t.Reason, &t.By, &at); err != nil {
				return t, err
			}
			t.At, err = store.ParseTime(at)
			return t, err
		}, `SELECT from_state, to_state, reason, by, at FROM lifeplan_goal_history WHERE goal_id = ? AND member_id = ? ORDER BY id`, goalID, member)
		if err != nil {
			return fmt.Errorf("lifeplan: goal %d history: %w", goalID, err)
		}
		return nil
	})
	return out, err
}

// LinkFitnessGoal records that the member's Hearth fitness goal
// fitnessGoalID (the goals table) serves their life-plan goal goalID. Both
// must be the member's: another member's fitness goal is NotFound, as an
// unknown one. A fitness goal serves one life-plan goal: linking it again
// moves the link.
func (s *Service) LinkFitnessGoal(ctx context.Context, member string, goalID, fitnessGoalID int64) (Goal, error) {
	var g Goal
	err := s.write(ctx, member, func(tx *store.Tx) error {
		if _, err := goal(ctx, tx, member, goalID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM goals WHERE id = ? AND member_id = ?`, fitnessGoalID, member).Scan(&n); err != nil {
			return fmt.Errorf("lifeplan: fitness goal %d: %w", fitnessGoalID, err)
		}
		if n == 0 {
			return apperr.NotFoundf("no fitness goal %d", fitnessGoalID)
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM lifeplan_fitness_links WHERE goal_id = ? AND member_id = ? AND fitness_goal_id <> ?`,
			goalID, member, fitnessGoalID).Scan(&n); err != nil {
			return fmt.Errorf("lifeplan: fitness goal %d: %w", fitnessGoalID, err)
		}
		if n >= MaxFitnessLink {
			return apperr.New(apperr.Conflict, "a life-plan goal holds at most %d fitness goals", MaxFitnessLink)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO lifeplan_fitness_links (fitness_goal_id, member_id, goal_id, linked_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (fitness_goal_id) DO UPDATE SET goal_id = excluded.goal_id, linked_at = excluded.linked_at
			WHERE member_id = excluded.member_id`, fitnessGoalID, member, goalID, s.stamp()); err != nil {
			return fmt.Errorf("lifeplan: link fitness goal %d: %w", fitnessGoalID, err)
		}
		var err error
		g, err = goal(ctx, tx, member, goalID)
		return err
	})
	return g, err
}

// UnlinkFitnessGoal removes the member's fitness goal from the life-plan
// goal it serves; one that serves none is NotFound.
func (s *Service) UnlinkFitnessGoal(ctx context.Context, member string, fitnessGoalID int64) error {
	return s.write(ctx, member, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM lifeplan_fitness_links WHERE fitness_goal_id = ? AND member_id = ?`, fitnessGoalID, member)
		if err != nil {
			return fmt.Errorf("lifeplan: unlink fitness goal %d: %w", fitnessGoalID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFoundf("fitness goal %d serves no life-plan goal", fitnessGoalID)
		}
		return nil
	})
}

const selectGoal = `SELECT id, name, why, state, parent_id, created_at, updated_at FROM lifeplan_goals`

func scanGoal(r store.Scanner) (Goal, error) {
	var g Goal
	var created, updated string
	if err := r.Scan(&g.ID, &g.Name, &g.Why, &g.State, &g.ParentID, &created, &updated); err != nil {
		return g, err
	}
	g.Next = Next(g.State)
	if g.Next == nil {
		g.Next = []GoalState{}
	}
	g.FitnessGoalIDs = []int64{}
	return g, parseTimes([]*time.Time{&g.CreatedAt, &g.UpdatedAt}, created, updated)
}

type link struct{ fitness, goal int64 }

func links(ctx context.Context, q store.Queryer, member string) ([]link, error) {
	out, err := store.All(ctx, q, func(r store.Scanner) (link, error) {
		var l link
		err := r.Scan(&l.fitness, &l.goal)
		return l, err
	}, `SELECT fitness_goal_id, goal_id FROM lifeplan_fitness_links WHERE member_id = ? ORDER BY linked_at, fitness_goal_id`, member)
	if err != nil {
		return nil, fmt.Errorf("lifeplan: fitness links: %w", err)
	}
	return out, nil
}

func goals(ctx context.Context, q store.Queryer, member string) ([]Goal, error) {
	gs, err := store.All(ctx, q, scanGoal, selectGoal+` WHERE member_id = ? ORDER BY id`, member)
	if err != nil {
		return nil, fmt.Errorf("lifeplan: goals: %w", err)
	}
	ls, err := links(ctx, q, member)
	if err != nil {
		return nil, err
	}
	at := map[int64]int{}
	for i, g := range gs {
		at[g.ID] = i
	}
	for _, l := range ls {
		if i, ok := at[l.goal]; ok {
			gs[i].FitnessGoalIDs = append(gs[i].FitnessGoalIDs, l.fitness)
		}
	}
	return gs, nil
}

// goal returns one of the member's goals; another member's is NotFound.
func goal(ctx context.Context, q store.Queryer, member string, id int64) (Goal, error) {
	g, err := store.One(ctx, q, scanGoal, selectGoal+` WHERE id = ? AND member_id = ?`, id, member)
	if err != nil {
		return g, notFound(err, "goal", id)
	}
	ls, err := links(ctx, q, member)
	if err != nil {
		return g, err
	}
	for _, l := range ls {
		if l.goal == id {
			g.FitnessGoalIDs = append(g.FitnessGoalIDs, l.fitness)
		}
	}
	return g, nil
}

func joinStates[S ~string](states []S) string {
	out := ""
	for i, s := range states {
		if i > 0 {
			out += ", "
		}
		out += string(s)
	}
	return out
}
