// Package demo seeds an empty database with a plausible two-person household
// (~60 days of weights, meals, workouts, scans and goals ending today) so the
// first screen after `make run` is full. It never touches a database that
// already has members.
package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"hearth/internal/store"
)

// Seed fills a database that has no members with the demo household and
// reports whether it did. The member check and all inserts of members and
// records share one write transaction, so a concurrent start cannot seed
// twice and a failure leaves nothing behind. The household is
// deterministic for a given rng state, now and loc.
func Seed(ctx context.Context, db *store.DB, now time.Time, loc *time.Location, rng *rand.Rand) (seeded bool, err error) {
	if loc == nil {
		loc = time.UTC
	}
	h := plan(now, loc, rng)
	err = db.Tx(ctx, func(tx *store.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM members`).Scan(&n); err != nil {
			return fmt.Errorf("demo: count members: %w", err)
		}
		if n > 0 {
			return nil
		}
		if err := insert(ctx, tx, now, h); err != nil {
			return err
		}
		seeded = true
		return nil
	})
	if err != nil || !seeded {
		return false, err
	}
	return true, nil
}

func insert(ctx context.Context, tx *store.Tx, now time.Time, h household) error {
	for i := range h.members {
		if err := store.CreateMemberTx(ctx, tx, now, &h.members[i]); err != nil {
			return fmt.Errorf("demo: member %s: %w", h.members[i].ID, err)
		}
	}
	for i := range h.goals {
		if err := store.InsertGoal(ctx, tx, now, &h.goals[i]); err != nil {
			return fmt.Errorf("demo: goal for %s: %w", h.goals[i].MemberID, err)
		}
	}
	for i := range h.weights {
		if _, err := store.InsertWeight(ctx, tx, now, &h.weights[i]); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	for i := range h.meals {
		if _, err := store.InsertMeal(ctx, tx, now, &h.meals[i]); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	for i := range h.workouts {
		if _, err := store.InsertWorkout(ctx, tx, now, &h.workouts[i]); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	for i := range h.scans {
		if _, err := store.InsertBodyScan(ctx, tx, now, &h.scans[i]); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	return nil
}
