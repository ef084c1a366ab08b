package schedule

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// execute runs the task for a fire row already marked running, records the
// outcome, and runs the queued fire if one waits.
func (s *Service) execute(ctx context.Context, t Task, fireID int64, via string, todo *Todo) {
	for {
		runID, err := s.call(ctx, t, via, todo)
		next, queuedID := s.finish(ctx, t, fireID, via, runID, err, todo)
		if queuedID == 0 {
			return
		}
		t, fireID, via, todo = next, queuedID, TriggerSchedule, nil
	}
}

func (s *Service) call(ctx context.Context, t Task, via string, todo *Todo) (runID int64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("run panicked: %v", r)
		}
	}()
	switch {
	case todo != nil:
		return s.runner.RunFreeform(ctx, t.AgentID, todo.MemberID, todoPrompt(*todo), TriggerHeartbeat)
	case t.AssignmentID != "":
		return s.runner.RunAssignment(ctx, t.AgentID, t.AssignmentID, t.MemberID, via)
	default:
		return s.runner.RunFreeform(ctx, t.AgentID, t.MemberID, t.Prompt, via)
	}
}

// outcomeOf classifies a run's result.
func outcomeOf(ctx context.Context, err error) (Outcome, string) {
	switch {
	case err == nil:
		return OutcomeRan, ""
	case errors.Is(err, ErrOverBudget):
		return OutcomeSkippedBudget, clip("skipped: "+err.Error(), 500)
	case ctx.Err() != nil:
		return OutcomeInterrupted, "interrupted: the server stopped during the run"
	default:
		return OutcomeFailed, clip(err.Error(), 500)
	}
}

// finish records a run's outcome and the task's new state. When a queued
// fire should run next its row is marked running and the fresh task and the
// row id are returned (0 = nothing more to run).
func (s *Service) finish(ctx context.Context, t Task, fireID int64, via string, runID int64, runErr error, todo *Todo) (Task, int64) {
	outcome, reason := outcomeOf(ctx, runErr)
	dbctx := context.WithoutCancel(ctx)
	s.mu.Lock()
	defer func() {
		s.mu.Unlock()
		s.publish(t.ID, "finished")
	}()
	st := s.running[t.ID]
	var (
		cur     Task
		exists  bool
		runNext bool
	)
	now := s.now()
	err := s.db.Tx(dbctx, func(tx *store.Tx) error {
		if err := finishFire(dbctx, tx, fireID, outcome, reason, runID, now); err != nil {
			return err
		}
		if todo != nil {
			if err := finishTodo(dbctx, tx, *todo, outcome, reason, runID, now); err != nil {
				return err
			}
		}
		var err error
		cur, err = getTask(dbctx, tx, t.ID, s.loc)
		if apperr.Is(err, apperr.NotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		exists = true
		applyOutcome(&cur, outcome, reason, runID, now)
		if st != nil && st.queued != nil {
			if cur.Status.schedulable() && ctx.Err() == nil {
				runNext = true
				cur.LastRunAt = &now
				if err := startFire(dbctx, tx, st.queued.fireID, TriggerSchedule, now); err != nil {
					return err
				}
			} else {
				o, why := OutcomeSkippedPaused, "skipped: the task was paused or stopped while this run was queued"
				if ctx.Err() != nil {
					o, why = OutcomeMissed, "was queued when the server stopped"
				}
				if err := finishFire(dbctx, tx, st.queued.fireID, o, why, 0, now); err != nil {
					return err
				}
				st.queued = nil
			}
		}
		return saveTask(dbctx, tx, cur)
	})
	if err != nil {
		s.log.Error("schedule: record run outcome", "task", t.ID, "fire", fireID, "err", err)
		runNext = false
	}
	s.logOutcome(t, via, outcome, reason, runID)
	if !runNext {
		delete(s.running, t.ID)
		if exists && !cur.Status.schedulable() {
			s.disarmLocked(t.ID)
		}
		return Task{}, 0
	}
	queuedID := st.queued.fireID
	st.queued = nil
	return cur, queuedID
}

// applyOutcome moves the task's status after a run. Status only changes for
// tasks that are active or in error: a task paused during its run stays paused.
func applyOutcome(t *Task, o Outcome, reason string, runID int64, now time.Time) {
	t.UpdatedAt = now
	if runID != 0 {
		t.LastRunID = runID
	}
	if o != OutcomeSkippedBudget {
		t.RunCount++
	}
	if !t.Status.schedulable() {
		return
	}
	switch o {
	case OutcomeRan:
		t.StatusReason = ""
		if t.Kind == KindOnce {
			t.Status, t.NextRunAt = StatusCompleted, nil
		} else {
			t.Status = StatusActive
		}
	case OutcomeFailed:
		t.Status, t.StatusReason = StatusError, "last run failed: "+reason
	case OutcomeInterrupted:
		t.Status, t.StatusReason = StatusError, reason
	case OutcomeSkippedBudget:
		if t.Kind == KindOnce {
			t.Status, t.StatusReason = StatusError, reason
		}
	}
}

func (s *Service) logOutcome(t Task, via string, o Outcome, reason string, runID int64) {
	attrs := []any{"task", t.ID, "kind", t.Kind, "via", via, "outcome", o, "run", runID}
	if o == OutcomeRan {
		s.log.Info("schedule: task ran", attrs...)
		return
	}
	s.log.Warn("schedule: task did not succeed", append(attrs, "reason", reason)...)
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
