package schedule

import (
	"context"
	"fmt"
	"slices"
	"time"

	"hearth/internal/store"
)

const expiryReason = "expired: tasks the coach creates expire after a while (30 days by default) unless an admin keeps them"

func (s *Service) specOf(t Task) (Spec, error) { return ParseSchedule(t.Kind, t.Schedule, s.loc) }

// expiredAt reports whether a coach-created task has outlived its expiry.
func (s *Service) expiredAt(t Task, now time.Time) bool {
	return t.CreatedBy == ByAgent && !t.Keep && t.ExpiresAt != nil && !t.ExpiresAt.After(now)
}

// recover makes the state left by a crash truthful: fires still
// marked running become interrupted (and their tasks show the reason),
// queued fires become missed, to-dos in progress go back to pending.
func (s *Service) recover(ctx context.Context) error {
	now := s.now()
	ts := store.FormatTime(now)
	var ids []int64
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		running, err := runningTasks(ctx, tx)
		if err != nil {
			return err
		}
		for id := range running {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		if _, err := tx.ExecContext(ctx, `UPDATE task_fires SET outcome = 'interrupted',
			reason = 'interrupted: the server stopped during this run', finished_at = ?, at = ?
			WHERE outcome = 'running'`, ts, ts); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE task_fires SET outcome = 'missed',
			reason = 'was queued when the server stopped', at = ? WHERE outcome = 'queued'`, ts); err != nil {
			return err
		}
		reason := "last run interrupted: the server stopped during the run (see the ledger)"
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE scheduled_tasks SET
				status = CASE WHEN status IN ('active','error') THEN 'error' ELSE status END,
				status_reason = CASE WHEN status IN ('active','error') THEN ? ELSE status_reason END,
				updated_at = ? WHERE id = ?`, reason, ts, id); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE agent_todos SET status = 'pending',
			note = 'interrupted: the server stopped while the coach worked on it', updated_at = ?
			WHERE status = 'in_progress'`, ts)
		return err
	})
	if err != nil {
		return fmt.Errorf("schedule: recover interrupted runs: %w", err)
	}
	if len(ids) > 0 {
		s.log.Warn("schedule: runs interrupted by the last stop", "tasks", ids)
	}
	return nil
}

// load registers one active task at Start, catching up first if its slot
// passed while the server was down.
func (s *Service) load(ctx context.Context, t Task) error {
	now := s.now()
	spec, err := s.specOf(t)
	if err != nil {
		t.Status, t.StatusReason, t.UpdatedAt = StatusError, err.Error(), now
		return s.db.Tx(ctx, func(tx *store.Tx) error {
			s.syncAfter(tx, t, "")
			return saveTask(ctx, tx, t)
		})
	}
	switch {
	case t.NextRunAt == nil:
		if t.Kind == KindOnce {
			return nil // ran, or was interrupted: nothing left to fire
		}
		t.NextRunAt, t.UpdatedAt = timePtr(spec.Next(now.Truncate(time.Second))), now
		return s.db.Tx(ctx, func(tx *store.Tx) error {
			s.syncAfter(tx, t, "")
			return saveTask(ctx, tx, t)
		})
	case t.NextRunAt.After(now):
		s.locked(func() { s.armLocked(t.ID, *t.NextRunAt) })
		return nil
	}
	return s.catchUp(ctx, t, spec, now)
}

// catchUp handles a task whose slots passed while the server was
// down. With policy once and the latest missed slot within the window it
// runs once, for that slot; every other missed slot gets a ledger row saying
// so. Otherwise all of them are recorded as missed. Either way the next
// slot after now is stored and armed. Heartbeats just move on.
func (s *Service) catchUp(ctx context.Context, t Task, spec Spec, now time.Time) error {
	sp := walk(spec, *t.NextRunAt, now)
	latest := sp.recent[len(sp.recent)-1]
	t.NextRunAt, t.UpdatedAt = timePtr(sp.next), now
	if t.Kind == KindHeartbeat {
		return s.db.Tx(ctx, func(tx *store.Tx) error {
			s.syncAfter(tx, t, "")
			return saveTask(ctx, tx, t)
		})
	}
	window := s.opt.CatchUpWindow
	runIt := false
	var reason string
	switch {
	case t.CatchupPolicy == CatchupSkip:
		reason = "missed while the server was down; catch-up policy is skip"
	case window < 0:
		reason = "missed while the server was down; catch-up is turned off"
	case now.Sub(latest) > window:
		reason = fmt.Sprintf("missed while the server was down, more than %s ago (outside the catch-up window)", window)
	default:
		runIt = true
		reason = fmt.Sprintf("missed while the server was down; caught up by one run for %s", latest.In(s.loc).Format(time.RFC3339))
	}
	var fireID int64
	skip := time.Time{}
	if runIt {
		skip = latest
	}
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		if _, err := recordSpan(ctx, tx, t.ID, sp, skip, OutcomeMissed, reason, s.loc, now); err != nil {
			return err
		}
		if runIt {
			id, err := insertFire(ctx, tx, Fire{TaskID: t.ID, ScheduledFor: latest, Via: TriggerCatchup,
				Outcome: OutcomeRunning, Reason: "", Note: s.clockNote(t, latest), At: now})
			if store.IsUnique(err) { // this slot already has a story; do not run it twice
				runIt = false
				return saveTask(ctx, tx, t)
			}
			if err != nil {
				return err
			}
			fireID, t.LastRunAt = id, &now
			s.locked(func() { s.running[t.ID] = &runState{} })
		} else if t.Kind == KindOnce {
			t.Status, t.StatusReason = StatusError, reason+"; run the missed slot from the ledger or set a new time"
		}
		s.syncAfter(tx, t, "missed")
		return saveTask(ctx, tx, t)
	})
	if err != nil {
		if runIt {
			s.locked(func() { delete(s.running, t.ID) })
		}
		return fmt.Errorf("schedule: catch up task %d: %w", t.ID, err)
	}
	s.log.Warn("schedule: slots missed while down", "task", t.ID, "missed", sp.total, "latest", latest,
		"caught_up", runIt, "reason", reason, "next", sp.next)
	if runIt {
		s.locked(func() {
			ctx := s.runCtx
			s.spawnLocked(func() { s.execute(ctx, t, fireID, TriggerCatchup, nil) })
		})
	}
	return nil
}

// sweepJob is the periodic gocron job: expire old coach tasks, prune the ledger.
func (s *Service) sweepJob() {
	s.mu.Lock()
	running, ctx := s.runningLocked(), s.runCtx
	s.mu.Unlock()
	if !running {
		return
	}
	if err := s.sweep(ctx); err != nil {
		s.log.Error("schedule: sweep", "err", err)
	}
}

// Sweep expires coach-created tasks past their expiry (unless kept) and
// prunes finished ledger rows past the retention. It runs at Start and
// every Options.SweepEvery.
func (s *Service) Sweep(ctx context.Context) error { return s.sweep(ctx) }

func (s *Service) sweep(ctx context.Context) error {
	now := s.now()
	ts := store.FormatTime(now)
	var ids []int64
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		var err error
		ids, err = store.All(ctx, tx, store.Value[int64], `SELECT id FROM scheduled_tasks WHERE created_by = 'agent' AND keep = 0
			AND expires_at IS NOT NULL AND expires_at <= ? AND status NOT IN ('completed','expired')`, ts)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE scheduled_tasks SET status = 'expired', status_reason = ?,
				updated_at = ? WHERE id = ?`, expiryReason, ts, id); err != nil {
				return err
			}
			s.syncAfter(tx, Task{ID: id, Status: StatusExpired}, "expired")
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM task_fires WHERE at < ? AND outcome NOT IN ('running','queued')`,
			store.FormatTime(now.Add(-s.opt.LedgerRetention)))
		return err
	})
	if err != nil {
		return fmt.Errorf("schedule: sweep: %w", err)
	}
	if len(ids) > 0 {
		s.log.Info("schedule: coach tasks expired", "tasks", ids)
	}
	return nil
}
