package schedule

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/go-co-op/gocron/v2"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

func jobName(id int64) string { return "task-" + strconv.FormatInt(id, 10) }

// armLocked registers the task's one-time gocron job at slot, replacing any
// earlier job. A fresh job (new id) is used each time so a timer already in
// flight for the old slot finds no job; fire also ignores slots that no
// longer match next_run_at.
func (s *Service) armLocked(id int64, slot time.Time) {
	if s.sched == nil {
		return
	}
	s.disarmLocked(id)
	task := gocron.NewTask(s.fireJob, id, slot)
	opts := []gocron.JobOption{gocron.WithName(jobName(id)), gocron.WithTags("task")}
	def := gocron.OneTimeJob(gocron.OneTimeJobStartDateTime(slot))
	if !slot.After(s.clock.Now()) {
		def = gocron.OneTimeJob(gocron.OneTimeJobStartImmediately())
	}
	j, err := s.sched.NewJob(def, task, opts...)
	if errors.Is(err, gocron.ErrOneTimeJobStartDateTimePast) { // the slot passed while we registered it
		j, err = s.sched.NewJob(gocron.OneTimeJob(gocron.OneTimeJobStartImmediately()), task, opts...)
	}
	if err != nil || j == nil {
		s.log.Error("schedule: register task", "task", id, "slot", slot, "err", err)
		return
	}
	s.jobs[id] = j.ID()
}

// disarmLocked removes the task's gocron job, if any.
func (s *Service) disarmLocked(id int64) {
	jid, ok := s.jobs[id]
	if !ok {
		return
	}
	delete(s.jobs, id)
	if s.sched != nil {
		if err := s.sched.RemoveJob(jid); err != nil && !errors.Is(err, gocron.ErrJobNotFound) {
			s.log.Warn("schedule: remove job", "task", id, "err", err)
		}
	}
}

// syncLocked makes gocron match the stored task.
func (s *Service) syncLocked(t Task) {
	if t.Status.schedulable() && t.NextRunAt != nil {
		s.armLocked(t.ID, *t.NextRunAt)
		return
	}
	s.disarmLocked(t.ID)
}

// fireJob is what gocron calls at a slot.
func (s *Service) fireJob(taskID int64, slot time.Time) {
	s.mu.Lock()
	if !s.runningLocked() {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	ctx := s.runCtx
	s.mu.Unlock()
	defer s.wg.Done()
	s.fire(ctx, taskID, slot)
}

// plan is what a fire decided under the lock.
type plan struct {
	task   Task
	fireID int64
	todo   *Todo
	change string // published change; "" = nothing to tell
}

// fire handles one slot: it advances the task to its next slot (stored and
// armed before anything runs), applies the overlap policy, writes the
// running marker, then runs.
func (s *Service) fire(ctx context.Context, taskID int64, slot time.Time) {
	p, err := s.planFire(ctx, taskID, slot)
	if err != nil {
		s.log.Error("schedule: fire", "task", taskID, "slot", slot, "err", err)
		return
	}
	if p.change != "" {
		s.publish(taskID, p.change)
	}
	if p.fireID != 0 {
		via := TriggerSchedule
		if p.todo != nil {
			via = TriggerHeartbeat
		}
		s.execute(ctx, p.task, p.fireID, via, p.todo)
	}
}

func sameInstant(a, b time.Time) bool {
	return a.Truncate(time.Millisecond).Equal(b.Truncate(time.Millisecond))
}

// planFire decides, in one transaction, what the fire of slot does. The
// in-process guards (a run in progress, one queued fire) are read and set
// inside that transaction, so two fires of a task cannot both start a run.
func (s *Service) planFire(ctx context.Context, taskID int64, slot time.Time) (plan, error) {
	var (
		p        plan
		reserved bool // this fire marked the task running in memory
	)
	now := s.now()
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		reserved = false
		t, err := getTask(ctx, tx, taskID, s.loc)
		if apperr.Is(err, apperr.NotFound) {
			s.syncAfter(tx, Task{ID: taskID}, "") // deleted under us: drop the job
			return nil
		}
		if err != nil {
			return err
		}
		if t.NextRunAt == nil || !sameInstant(*t.NextRunAt, slot) {
			s.log.Debug("schedule: stale fire ignored", "task", taskID, "slot", slot)
			return nil
		}
		if !t.Status.schedulable() {
			s.syncAfter(tx, t, "")
			if t.Status == StatusPaused {
				p.change = "skipped"
				return recordSkipped(ctx, tx, t.ID, slot, TriggerSchedule, OutcomeSkippedPaused, "task is paused", now)
			}
			return nil
		}
		if s.expiredAt(t, now) {
			t.Status, t.StatusReason, t.UpdatedAt = StatusExpired, expiryReason, now
			s.syncAfter(tx, t, "")
			p.change = "expired"
			return saveTask(ctx, tx, t)
		}
		spec, err := s.specOf(t)
		if err != nil {
			t.Status, t.StatusReason, t.UpdatedAt = StatusError, err.Error(), now
			s.syncAfter(tx, t, "")
			p.change = "updated"
			return saveTask(ctx, tx, t)
		}
		// Advance first: the next slot is stored and armed whatever this fire does.
		sp := walk(spec, slot, now)
		if sp.total > 1 && t.Kind != KindHeartbeat {
			if _, err := recordSpan(ctx, tx, t.ID, sp, slot, OutcomeMissed, "missed: the server was busy or asleep at this time", s.loc, now); err != nil {
				return err
			}
		}
		t.NextRunAt = timePtr(sp.next)
		t.UpdatedAt = now
		s.syncAfter(tx, t, "")
		p.change = "fired"
		if t.Kind == KindHeartbeat {
			if reserved, err = s.planHeartbeat(ctx, tx, &t, slot, now, &p); err != nil {
				return err
			}
			return nil
		}
		var st *runState
		s.locked(func() { st = s.running[t.ID] })
		if st != nil {
			queued := false
			s.locked(func() { queued = st.queued != nil })
			if t.OverlapPolicy == OverlapQueue && !queued {
				id, err := insertFire(ctx, tx, Fire{TaskID: t.ID, ScheduledFor: slot, Via: TriggerSchedule,
					Outcome: OutcomeQueued, Reason: "waiting for the previous run to finish", Note: s.clockNote(t, slot), At: now})
				if err != nil {
					return fmt.Errorf("schedule: queue fire: %w", err)
				}
				if err := saveTask(ctx, tx, t); err != nil {
					return err
				}
				s.locked(func() { st.queued = &queuedFire{fireID: id, slot: slot} })
				return nil
			}
			reason := "skipped: the previous run was still in progress"
			if queued {
				reason = "skipped: the previous run was still in progress and one run was already queued"
			}
			if err := recordSkipped(ctx, tx, t.ID, slot, TriggerSchedule, OutcomeSkippedOverlap, reason, now); err != nil {
				return err
			}
			return saveTask(ctx, tx, t)
		}
		id, err := insertFire(ctx, tx, Fire{TaskID: t.ID, ScheduledFor: slot, Via: TriggerSchedule, Outcome: OutcomeRunning,
			Note: s.clockNote(t, slot), At: now})
		if store.IsUnique(err) {
			s.log.Warn("schedule: slot already in the ledger, not running it twice", "task", t.ID, "slot", slot)
			return saveTask(ctx, tx, t)
		}
		if err != nil {
			return fmt.Errorf("schedule: mark running: %w", err)
		}
		t.LastRunAt = &now
		p.task, p.fireID = t, id
		if err := saveTask(ctx, tx, t); err != nil {
			return err
		}
		s.locked(func() { s.running[taskID] = &runState{} })
		reserved = true
		return nil
	})
	if err != nil {
		if reserved {
			s.locked(func() { delete(s.running, taskID) })
		}
		return plan{}, err
	}
	return p, nil
}
