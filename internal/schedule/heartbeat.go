package schedule

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/internal/store"
)

// planHeartbeat decides what a heartbeat fire does, in the fire's
// transaction: when no to-do of this heartbeat is still running and the
// agent is idle, it takes the oldest pending to-do (skipping ones that
// failed MaxTodoAttempts times), marks it in progress, records a running
// ledger row and marks the task running in memory (reserved). A heartbeat
// that finds the agent busy or nothing to do writes no ledger row.
func (s *Service) planHeartbeat(ctx context.Context, tx *store.Tx, t *Task, slot, now time.Time, p *plan) (reserved bool, err error) {
	busy := false
	s.locked(func() { busy = s.running[t.ID] != nil })
	if busy {
		return false, saveTask(ctx, tx, *t)
	}
	if !s.runner.Idle(t.AgentID) {
		s.log.Debug("schedule: heartbeat: agent busy", "agent", t.AgentID)
		return false, saveTask(ctx, tx, *t)
	}
	todo, err := nextTodo(ctx, tx, t.AgentID, s.opt.MaxTodoAttempts, s.loc)
	if err != nil || todo == nil {
		if err == nil {
			err = saveTask(ctx, tx, *t)
		}
		return false, err
	}
	if err := startTodo(ctx, tx, todo.ID, now); err != nil {
		return false, err
	}
	id, err := insertFire(ctx, tx, Fire{TaskID: t.ID, ScheduledFor: slot, Via: TriggerHeartbeat,
		Outcome: OutcomeRunning, TodoID: todo.ID, At: now})
	if err != nil {
		return false, fmt.Errorf("schedule: heartbeat fire: %w", err)
	}
	t.LastRunAt = &now
	p.task, p.fireID, p.todo = *t, id, todo
	if err := saveTask(ctx, tx, *t); err != nil {
		return false, err
	}
	s.locked(func() { s.running[t.ID] = &runState{} })
	return true, nil
}

// nextTodo returns the agent's oldest pending to-do still worth trying, or nil.
func nextTodo(ctx context.Context, q store.Queryer, agentID string, maxAttempts int, loc *time.Location) (*Todo, error) {
	t, err := scanTodo(q.QueryRowContext(ctx, `SELECT `+todoCols+` FROM agent_todos
		WHERE agent_id = ? AND status = 'pending' AND attempts < ? ORDER BY created_at, id LIMIT 1`,
		agentID, maxAttempts), loc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("schedule: next to-do: %w", err)
	}
	return &t, nil
}

func startTodo(ctx context.Context, q store.Queryer, id int64, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE agent_todos SET status = 'in_progress', updated_at = ? WHERE id = ?`,
		store.FormatTime(now), id)
	if err != nil {
		return fmt.Errorf("schedule: start to-do %d: %w", id, err)
	}
	return nil
}

// finishTodo records what the heartbeat's run did to the item: done on
// success, back to pending with a note otherwise. An item the coach
// completed itself during the run stays done.
func finishTodo(ctx context.Context, q store.Queryer, t Todo, o Outcome, reason string, runID int64, now time.Time) error {
	ts := store.FormatTime(now)
	var err error
	switch o {
	case OutcomeRan:
		_, err = q.ExecContext(ctx, `UPDATE agent_todos SET status = 'done', done_at = COALESCE(done_at, ?),
			run_id = COALESCE(?, run_id), updated_at = ? WHERE id = ?`, ts, nullID(runID), ts, t.ID)
	case OutcomeFailed:
		_, err = q.ExecContext(ctx, `UPDATE agent_todos SET status = 'pending', attempts = attempts + 1,
			note = ?, run_id = COALESCE(?, run_id), updated_at = ? WHERE id = ? AND status = 'in_progress'`,
			clip("last attempt failed: "+reason, todoNoteMaxChars), nullID(runID), ts, t.ID)
	default:
		_, err = q.ExecContext(ctx, `UPDATE agent_todos SET status = 'pending', note = ?, updated_at = ?
			WHERE id = ? AND status = 'in_progress'`, clip(reason, todoNoteMaxChars), ts, t.ID)
	}
	if err != nil {
		return fmt.Errorf("schedule: finish to-do %d: %w", t.ID, err)
	}
	return nil
}

// todoPrompt is what the coach is asked to do for a to-do item.
func todoPrompt(t Todo) string {
	return fmt.Sprintf(todoPromptHead+"%d): %s\n"+todoPromptTail+"%d.", t.ID, t.Text, t.ID)
}

const (
	todoPromptHead = "Work on this item from your to-do list (to-do "
	todoPromptTail = "When it is done, call complete_todo with todo_id "
)

// TodoText returns the to-do's own text from the prompt a heartbeat run
// gets for it (todoPrompt); ok is false for any other prompt.
func TodoText(prompt string) (string, bool) {
	rest, ok := strings.CutPrefix(prompt, todoPromptHead)
	if !ok {
		return "", false
	}
	_, rest, ok = strings.Cut(rest, "): ")
	if !ok {
		return "", false
	}
	i := strings.LastIndex(rest, "\n"+todoPromptTail)
	if i < 0 {
		return "", false
	}
	return rest[:i], true
}
