package schedule

import (
	"context"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// RunNow runs the task at once, outside its schedule (next_run_at is left
// alone). The run happens in the background; the returned fire is its
// ledger row, marked running. A heartbeat takes the next pending to-do.
// apperr.Conflict when the task is already running or the engine is not.
func (s *Service) RunNow(ctx context.Context, id int64) (Fire, error) {
	return s.runManual(ctx, id, func(tx *store.Tx, t *Task, now time.Time) (int64, *Todo, error) {
		var todo *Todo
		if t.Kind == KindHeartbeat {
			next, err := nextTodo(ctx, tx, t.AgentID, s.opt.MaxTodoAttempts, s.loc)
			if err != nil {
				return 0, nil, err
			}
			if next == nil {
				return 0, nil, apperr.New(apperr.Conflict, "no pending to-do for %s", t.AgentID)
			}
			if err := startTodo(ctx, tx, next.ID, now); err != nil {
				return 0, nil, err
			}
			todo = next
		}
		f := Fire{TaskID: t.ID, ScheduledFor: now.Truncate(time.Millisecond), Via: TriggerManual, Outcome: OutcomeRunning, At: now}
		if todo != nil {
			f.TodoID = todo.ID
		}
		fid, err := insertFire(ctx, tx, f)
		if store.IsUnique(err) {
			return 0, nil, apperr.New(apperr.Conflict, "task %d already has a run at this instant; try again", t.ID)
		}
		return fid, todo, err
	})
}

// RunSlot runs a slot that did not run (missed, skipped, failed or
// interrupted), recording the run against that ledger row. It runs in the
// background like RunNow. apperr.NotFound for a slot not in the ledger,
// apperr.Conflict for a slot that ran or is running.
func (s *Service) RunSlot(ctx context.Context, id int64, slot time.Time) (Fire, error) {
	return s.runManual(ctx, id, func(tx *store.Tx, t *Task, now time.Time) (int64, *Todo, error) {
		if t.Kind == KindHeartbeat {
			return 0, nil, invalidField("type", "heartbeat slots are not rerun; use run now to take the next to-do")
		}
		f, err := getFire(ctx, tx, t.ID, slot, s.loc)
		if err != nil {
			return 0, nil, err
		}
		if !f.Outcome.rerunnable() {
			return 0, nil, apperr.New(apperr.Conflict, "the slot %s of task %d is %s", f.ScheduledFor.Format(time.RFC3339), t.ID, f.Outcome)
		}
		return f.ID, nil, startFire(ctx, tx, f.ID, TriggerManual, now)
	})
}

func (s *Service) runManual(ctx context.Context, id int64, fn func(tx *store.Tx, t *Task, now time.Time) (int64, *Todo, error)) (Fire, error) {
	var (
		t        Task
		f        Fire
		todo     *Todo
		reserved bool
	)
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		reserved = false
		var err error
		if t, err = getTask(ctx, tx, id, s.loc); err != nil {
			return err
		}
		var conflict error
		s.locked(func() {
			switch {
			case !s.runningLocked():
				conflict = apperr.New(apperr.Conflict, "the scheduler is not running")
			case s.running[id] != nil:
				conflict = apperr.New(apperr.Conflict, "task %d is already running", id)
			}
		})
		if conflict != nil {
			return conflict
		}
		now := s.now()
		fid, td, err := fn(tx, &t, now)
		if err != nil {
			return err
		}
		todo = td
		t.LastRunAt, t.UpdatedAt = &now, now
		if err := saveTask(ctx, tx, t); err != nil {
			return err
		}
		if f, err = getFireByID(ctx, tx, fid, s.loc); err != nil {
			return err
		}
		s.locked(func() { s.running[id] = &runState{} })
		reserved = true
		return nil
	})
	if err != nil {
		if reserved {
			s.locked(func() { delete(s.running, id) })
		}
		return Fire{}, err
	}
	s.locked(func() {
		runCtx := s.runCtx
		s.spawnLocked(func() { s.execute(runCtx, t, f.ID, TriggerManual, todo) })
	})
	s.publish(id, "fired")
	return f, nil
}
