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
		return s.runner.RunFreeform(ctx, t.AgentID, todo.MemberID, todoPrompt(*todo), TriggerHeartbeat, TodoOrigin(todo.ID))
	case t.AssignmentID != "":
		return s.runner.RunAssignment(ctx, t.AgentID, t.AssignmentID, t.MemberID, via, TaskOrigin(t.ID))
	default:
		return s.runner.RunFreeform(ctx, t.AgentID, t.MemberID, t.Prompt, via, TaskOrigin(t.ID))
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
	if outcome == OutcomeRan && runID != 0 && s.opt.RunNote != nil {
		reason = clip(s.opt.RunNote(dbctx, runID), 500)
	}
	defer s.publish(t.ID, "finished")
	var (
		cur      Task
		queuedID int64 // the queued fire to run next, marked running
	)
	now := s.now()
	err := s.db.Tx(dbctx, func(tx *store.Tx) error {
		queuedID = 0
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
		exists := err == nil
		if err != nil && !apperr.Is(err, apperr.NotFound) {
			return err
		}
		var queued *queuedFire
		s.locked(func() {
			if st := s.running[t.ID]; st != nil {
				queued = st.queued
			}
		})
		if exists {
			applyOutcome(&cur, outcome, reason, runID, now)
			if queued != nil {
				if cur.Status.schedulable() && ctx.Err() == nil {
					queuedID = queued.fireID
					cur.LastRunAt = &now
					if err := startFire(dbctx, tx, queued.fireID, TriggerSchedule, now); err != nil {
						return err
					}
				} else {
					o, why := OutcomeSkippedPaused, "skipped: the task was paused or stopped while this run was queued"
					if ctx.Err() != nil {
						o, why = OutcomeMissed, "was queued when the server stopped"
					}
					if err := finishFire(dbctx, tx, queued.fireID, o, why, 0, now); err != nil {
						return err
					}
				}
			}
			if !cur.Status.schedulable() {
				s.syncAfter(tx, cur, "")
			}
			if err := saveTask(dbctx, tx, cur); err != nil {
				return err
			}
		}
		// Still in the transaction: a fire planned after it sees this.
		s.locked(func() {
			if queuedID != 0 {
				s.running[t.ID].queued = nil
			} else {
				delete(s.running, t.ID)
			}
		})
		return nil
	})
	s.logOutcome(t, via, outcome, reason, runID)
	if err != nil {
		s.log.Error("schedule: record run outcome", "task", t.ID, "fire", fireID, "err", err)
		s.locked(func() { delete(s.running, t.ID) })
		return Task{}, 0
	}
	return cur, queuedID
}

// applyOutcome moves the task's status after a run. Status only changes for
// tasks that are active or in error: a task paused during its run stays paused.
func applyOutcome(t *Task, o Outcome, reason string, runID int64, now time.Time) {
	t.UpdatedAt = now
	if runID != 0 {
		t.LastRunID = runID
	}
	t.LastOutcome, t.LastNote = o, reason
	if o != OutcomeSkippedBudget {
		t.RunCount++
	}
	if !t.Status.schedulable() {
		return
	}
	switch o {
	case OutcomeRan:
		t.StatusReason = reason // a run that fell back says why
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
