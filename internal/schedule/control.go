package schedule

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// List returns tasks matching f, ordered by id.
func (s *Service) List(ctx context.Context, f TaskFilter) ([]Task, error) {
	tasks, err := listTasks(ctx, s.db.Read, f, s.loc)
	if err != nil {
		return nil, err
	}
	running, err := runningTasks(ctx, s.db.Read)
	if err != nil {
		return nil, err
	}
	for i := range tasks {
		tasks[i].Running = running[tasks[i].ID]
	}
	return tasks, nil
}

// runningTasks are the tasks with a run in progress: a "running" ledger
// row, written and finished in the same transactions as the task's state,
// so a task reads as idle only once its run's outcome is stored.
func runningTasks(ctx context.Context, q store.Queryer) (map[int64]bool, error) {
	ids, err := store.All(ctx, q, store.Value[int64], `SELECT DISTINCT task_id FROM task_fires WHERE outcome = 'running'`)
	if err != nil {
		return nil, fmt.Errorf("schedule: running tasks: %w", err)
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// Get returns one task; apperr.NotFound for an unknown id.
func (s *Service) Get(ctx context.Context, id int64) (Task, error) {
	t, err := getTask(ctx, s.db.Read, id, s.loc)
	if err != nil {
		return t, err
	}
	running, err := runningTasks(ctx, s.db.Read)
	t.Running = running[id]
	return t, err
}

// Ledger returns the task's ledger, newest slot first (limit ≤ 0: 100).
func (s *Service) Ledger(ctx context.Context, id int64, limit int) ([]Fire, error) {
	if _, err := getTask(ctx, s.db.Read, id, s.loc); err != nil {
		return nil, err
	}
	return listFires(ctx, s.db.Read, id, limit, s.loc)
}

// Create validates and stores a task and registers it when active. Invalid
// input (bad cron, interval, time in the past, type, target, description
// over 2,000 characters) is apperr.Invalid naming the problem. createdBy
// agent applies the coach guardrails (see AgentTools).
func (s *Service) Create(ctx context.Context, in TaskInput, createdBy CreatedBy) (Task, error) {
	return s.create(ctx, in, createdBy, 0, "")
}

// create inserts a task; runID is the run of a coach that made it, marker
// (when set) names a default created only once.
func (s *Service) create(ctx context.Context, in TaskInput, by CreatedBy, runID int64, marker string) (Task, error) {
	t, err := s.prepare(ctx, in, by, runID, marker == "")
	if err != nil {
		return Task{}, err
	}
	created := false
	err = s.db.Tx(ctx, func(tx *store.Tx) error {
		var err error
		created, err = s.insertTx(ctx, tx, &t, marker)
		return err
	})
	if err != nil || !created {
		return Task{}, err
	}
	return t, nil
}

// prepare validates a new task and fills in its first slot, status and
// expiry, without writing anything.
func (s *Service) prepare(ctx context.Context, in TaskInput, by CreatedBy, runID int64, checkTarget bool) (Task, error) {
	if by != ByUser && by != ByAgent {
		return Task{}, invalidField("created_by", fmt.Sprintf("unknown creator %q: want user or agent", string(by)))
	}
	now := s.now()
	t := Task{
		Description: in.Description, Kind: in.Kind, Schedule: in.Schedule, AgentID: in.AgentID,
		AssignmentID: in.AssignmentID, MemberID: in.MemberID, Prompt: in.Prompt,
		OverlapPolicy: in.OverlapPolicy, CatchupPolicy: in.CatchupPolicy, CreatedBy: by, CreatedByRun: runID,
		Status: StatusActive, CreatedAt: now, UpdatedAt: now,
	}
	spec, err := s.normalize(ctx, s.db.Read, &t, checkTarget)
	if err != nil {
		return Task{}, err
	}
	first, err := firstSlot(spec, now)
	if err != nil {
		return Task{}, err
	}
	t.NextRunAt = &first
	switch in.Status {
	case "", StatusActive:
	case StatusPaused:
		t.Status, t.PausedAt = StatusPaused, &now
	default:
		return Task{}, invalidField("status", fmt.Sprintf("a new task is active or paused, not %q", string(in.Status)))
	}
	if by == ByAgent {
		exp := now.Add(s.opt.AgentTaskTTL)
		t.ExpiresAt = &exp
		if t.Kind == KindRecurring || t.Kind == KindInterval || t.Kind == KindHeartbeat {
			t.Status, t.PausedAt = StatusPendingApproval, nil
			t.StatusReason = "created by the coach: waits for an admin to approve it"
		}
	}
	return t, nil
}

// insertTx stores a prepared task in tx, within the coach's per-member
// limit, and arms it once tx commits. With a marker it inserts nothing
// (created false) when that default was made before.
func (s *Service) insertTx(ctx context.Context, tx *store.Tx, t *Task, marker string) (created bool, err error) {
	if marker != "" {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schedule_defaults WHERE name = ?`, marker).Scan(&n); err != nil {
			return false, err
		}
		if n > 0 {
			return false, nil
		}
	}
	if t.CreatedBy == ByAgent {
		if err := s.checkAgentLimit(ctx, tx, t.MemberID); err != nil {
			return false, err
		}
	}
	id, err := insertTask(ctx, tx, *t)
	if err != nil {
		return false, err
	}
	t.ID = id
	if marker != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO schedule_defaults (name, task_id, created_at) VALUES (?,?,?)`,
			marker, id, store.FormatTime(s.now())); err != nil {
			return false, err
		}
	}
	s.syncAfter(tx, *t, "created")
	return true, nil
}

// checkAgentLimit refuses a task the coach would create past its
// per-member allowance.
func (s *Service) checkAgentLimit(ctx context.Context, q store.Queryer, member string) error {
	n, err := countAgentTasks(ctx, q, member)
	if err != nil {
		return err
	}
	if n >= s.opt.MaxAgentTasks {
		return s.liveLimit(member, n)
	}
	return nil
}

// liveLimit is the refusal of a task past the cap on live coach tasks, n
// live (or asked for in runs under way).
func (s *Service) liveLimit(member string, n int) error {
	return apperr.New(apperr.Conflict, "limit reached: %s already has %d live tasks created by the coach (at most %d); delete or stop one first",
		member, n, s.opt.MaxAgentTasks)
}

// mutate loads a task in a transaction, lets fn change it, saves it, and
// makes gocron match once it committed.
func (s *Service) mutate(ctx context.Context, id int64, change string, fn func(tx *store.Tx, t *Task, now time.Time) error) (Task, error) {
	var out Task
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		var err error
		out, err = s.mutateTx(ctx, tx, id, change, fn)
		return err
	})
	if err != nil {
		return Task{}, err
	}
	running, err := runningTasks(ctx, s.db.Read)
	out.Running = running[id]
	return out, err
}

// mutateTx is mutate inside tx.
func (s *Service) mutateTx(ctx context.Context, tx *store.Tx, id int64, change string, fn func(tx *store.Tx, t *Task, now time.Time) error) (Task, error) {
	t, err := getTask(ctx, tx, id, s.loc)
	if err != nil {
		return Task{}, err
	}
	now := s.now()
	if err := fn(tx, &t, now); err != nil {
		return Task{}, err
	}
	t.UpdatedAt = now
	if err := saveTask(ctx, tx, t); err != nil {
		return Task{}, err
	}
	s.syncAfter(tx, t, change)
	return t, nil
}

// Pause stops the task before its next fire; note is shown in the admin.
func (s *Service) Pause(ctx context.Context, id int64, note string) (Task, error) {
	return s.mutate(ctx, id, "updated", func(_ *store.Tx, t *Task, now time.Time) error {
		return pause(t, note, now)
	})
}

// Resume reactivates a paused, failed or expired task and recomputes its next run.
func (s *Service) Resume(ctx context.Context, id int64) (Task, error) {
	return s.mutate(ctx, id, "updated", func(tx *store.Tx, t *Task, now time.Time) error {
		spec, err := s.specOf(*t)
		if err != nil {
			return err
		}
		return s.resume(ctx, tx, t, spec, now, false)
	})
}

// Approve activates a task the coach created that waits for approval.
func (s *Service) Approve(ctx context.Context, id int64) (Task, error) {
	return s.mutate(ctx, id, "updated", func(_ *store.Tx, t *Task, now time.Time) error {
		spec, err := s.specOf(*t)
		if err != nil {
			return err
		}
		return approve(t, spec, now)
	})
}

// Keep sets whether a coach-created task is kept past its expiry.
func (s *Service) Keep(ctx context.Context, id int64, keep bool) (Task, error) {
	return s.mutate(ctx, id, "updated", func(_ *store.Tx, t *Task, _ time.Time) error {
		t.Keep = keep
		return nil
	})
}

// Delete removes the task and its ledger. A run in progress finishes but
// nothing more fires.
func (s *Service) Delete(ctx context.Context, id int64) error {
	return s.db.Tx(ctx, func(tx *store.Tx) error { return s.deleteTx(ctx, tx, id) })
}

// deleteTx is Delete inside tx.
func (s *Service) deleteTx(ctx context.Context, tx *store.Tx, id int64) error {
	res, err := tx.ExecContext(ctx, `DELETE FROM scheduled_tasks WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("schedule: delete task %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("no scheduled task %d", id)
	}
	tx.AfterCommit(func() {
		s.locked(func() {
			if st := s.running[id]; st != nil {
				st.queued = nil // its ledger row went with the task
			}
		})
	})
	s.syncAfter(tx, Task{ID: id}, "deleted") // not schedulable: disarms
	return nil
}

// NextFires previews the next n fire times (n ≤ 50) of a task, saved or not:
// from its next_run_at when it has one in the future, else from now. Only the
// Kind and Schedule of an unsaved task are needed.
func (s *Service) NextFires(t Task, n int) ([]time.Time, error) {
	n = min(max(n, 1), 50)
	spec, err := ParseSchedule(t.Kind, t.Schedule, s.loc)
	if err != nil {
		return nil, err
	}
	now := s.now()
	next := spec.Next(now.Truncate(time.Second))
	if t.NextRunAt != nil && t.NextRunAt.After(now) && spec.Normalized == t.Schedule {
		next = *t.NextRunAt
	}
	out := []time.Time{}
	for ; !next.IsZero() && len(out) < n; next = spec.Next(next) {
		out = append(out, next.In(s.loc))
	}
	return out, nil
}
