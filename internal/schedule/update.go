package schedule

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// Update applies a partial change. A new kind or schedule recomputes
// next_run_at from now (and reactivates a completed or failed task); Status
// paused pauses (with PauseNote), active resumes a paused, failed or expired
// task or approves a pending one.
func (s *Service) Update(ctx context.Context, id int64, p TaskPatch) (Task, error) {
	return s.mutate(ctx, id, "updated", func(tx *store.Tx, t *Task, now time.Time) error {
		orig := *t
		applyPatch(t, p)
		targetChanged := t.AgentID != orig.AgentID || t.AssignmentID != orig.AssignmentID || t.MemberID != orig.MemberID
		spec, err := s.normalize(ctx, tx, t, targetChanged)
		if err != nil {
			return err
		}
		timing := t.Kind != orig.Kind || t.Schedule != orig.Schedule
		if timing {
			first, err := firstSlot(spec, now)
			if err != nil {
				return err
			}
			t.NextRunAt = &first
			if p.Status == nil && (t.Status == StatusCompleted || t.Status == StatusError) {
				t.Status, t.StatusReason = StatusActive, ""
			}
		}
		if p.Status == nil {
			return nil
		}
		switch *p.Status {
		case StatusPaused:
			return pause(t, derefOr(p.PauseNote, t.PauseNote), now)
		case StatusActive:
			switch t.Status {
			case StatusActive:
				return nil
			case StatusPendingApproval:
				return approve(t, spec, now)
			case StatusCompleted:
				if !timing {
					return apperr.New(apperr.Conflict, "task %d is completed; give it a new time to run it again", t.ID)
				}
				t.Status, t.StatusReason = StatusActive, ""
				return nil
			}
			return s.resume(ctx, tx, t, spec, now, timing)
		}
		return invalidField("status", fmt.Sprintf("status can be set to paused or active, not %q", string(*p.Status)))
	})
}

func applyPatch(t *Task, p TaskPatch) {
	orig := *t
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&t.Description, p.Description)
	set(&t.Schedule, p.Schedule)
	set(&t.AgentID, p.AgentID)
	set(&t.AssignmentID, p.AssignmentID)
	set(&t.MemberID, p.MemberID)
	set(&t.Prompt, p.Prompt)
	if p.Kind != nil {
		t.Kind = *p.Kind
	}
	if p.OverlapPolicy != nil {
		t.OverlapPolicy = *p.OverlapPolicy
	}
	if p.CatchupPolicy != nil {
		t.CatchupPolicy = *p.CatchupPolicy
	}
	if p.PauseNote != nil && (p.Status == nil || *p.Status != StatusActive) {
		t.PauseNote = *p.PauseNote
	}
	if p.Prompt == nil {
		switch {
		case p.AssignmentID != nil && *p.AssignmentID != "", p.Kind != nil && *p.Kind == KindHeartbeat:
			t.Prompt = "" // became an assignment or heartbeat: the old prompt no longer applies
		case p.Description != nil && orig.Prompt == orig.Description:
			t.Prompt = "" // the prompt followed the description; let it follow again
		}
	}
}

func derefOr(p *string, def string) string {
	if p != nil {
		return *p
	}
	return def
}

func pause(t *Task, note string, now time.Time) error {
	switch {
	case t.Status == StatusPaused:
		t.PauseNote = note
		return nil
	case !t.Status.schedulable():
		return apperr.New(apperr.Conflict, "task %d is %s; only active tasks (or tasks in error) can be paused", t.ID, t.Status)
	}
	t.Status, t.PauseNote, t.PausedAt = StatusPaused, note, &now
	return nil
}

func approve(t *Task, spec Spec, now time.Time) error {
	if t.Status != StatusPendingApproval {
		return apperr.New(apperr.Conflict, "task %d is %s, not waiting for approval", t.ID, t.Status)
	}
	first, err := firstSlot(spec, now)
	if err != nil {
		return err
	}
	t.Status, t.StatusReason, t.NextRunAt = StatusActive, "", &first
	return nil
}

// resume reactivates a paused, failed or expired task. A paused task keeps
// its cadence and its slots that passed while paused are recorded as
// skipped_paused; otherwise the schedule starts afresh from now.
func (s *Service) resume(ctx context.Context, tx *store.Tx, t *Task, spec Spec, now time.Time, fresh bool) error {
	switch t.Status {
	case StatusPaused, StatusError, StatusExpired:
	case StatusPendingApproval:
		return apperr.New(apperr.Conflict, "task %d waits for approval; approve it instead", t.ID)
	default:
		return apperr.New(apperr.Conflict, "task %d is %s and cannot be resumed", t.ID, t.Status)
	}
	if t.Status == StatusExpired && s.expiredAt(*t, now) {
		exp := now.Add(s.opt.AgentTaskTTL)
		t.ExpiresAt = &exp
	}
	wasPaused := t.Status == StatusPaused
	switch {
	case wasPaused && !fresh && t.NextRunAt != nil && t.Kind != KindOnce:
		sp := walk(spec, *t.NextRunAt, now)
		if sp.total > 0 && t.Kind != KindHeartbeat {
			if _, err := recordSpan(ctx, tx, t.ID, sp, time.Time{}, OutcomeSkippedPaused, "skipped: the task was paused", s.loc, now); err != nil {
				return err
			}
		}
		t.NextRunAt = timePtr(sp.next)
	case !fresh:
		first, err := firstSlot(spec, now)
		if err != nil {
			if t.Kind == KindOnce {
				return invalidField("schedule", "the task's time has passed: give it a new time, or run its slot from the ledger")
			}
			return err
		}
		t.NextRunAt = &first
	}
	t.Status, t.StatusReason, t.PauseNote, t.PausedAt = StatusActive, "", "", nil
	return nil
}
