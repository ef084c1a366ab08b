package workflow

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// runStore reads and writes workflow_runs and workflow_steps.
type runStore struct {
	db  *store.DB
	now func() time.Time
}

func (s *runStore) stamp() string { return store.FormatTime(s.now()) }

func (s *runStore) create(ctx context.Context, q store.Queryer, r *Run) error {
	now := s.now().UTC().Truncate(time.Millisecond)
	r.CreatedAt, r.UpdatedAt, r.Status = now, now, StatusRunning
	if len(r.State) == 0 {
		r.State = json.RawMessage(`{}`)
	}
	res, err := q.ExecContext(ctx, `INSERT INTO workflow_runs (workflow_id, version, member_id, status, triggered_by,
		origin, input, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Workflow, r.Version, r.Member, string(r.Status), string(r.Trigger), r.Origin, string(r.Input), string(r.State),
		store.FormatTime(now), store.FormatTime(now))
	if err != nil {
		var se sqlite3.Error
		if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintForeignKey {
			return apperr.NotFoundf("unknown member %q", r.Member)
		}
		return fmt.Errorf("workflow: create run: %w", err)
	}
	r.ID, err = res.LastInsertId()
	return err
}

const runColumns = `id, workflow_id, version, member_id, status, triggered_by, origin, input, state, output, error,
	created_at, updated_at, finished_at`

func scanRun(row store.Scanner) (Run, error) {
	var r Run
	var status, trig, input, state, created, updated string
	var output, finished sql.NullString
	if err := row.Scan(&r.ID, &r.Workflow, &r.Version, &r.Member, &status, &trig, &r.Origin, &input, &state, &output, &r.Error,
		&created, &updated, &finished); err != nil {
		return r, err
	}
	r.Status, r.Trigger = Status(status), Trigger(trig)
	r.Input, r.State = json.RawMessage(input), json.RawMessage(state)
	if output.Valid {
		r.Output = json.RawMessage(output.String)
	}
	var err error
	if r.CreatedAt, err = store.ParseTime(created); err != nil {
		return r, err
	}
	if r.UpdatedAt, err = store.ParseTime(updated); err != nil {
		return r, err
	}
	r.FinishedAt, err = store.ParseNullTime(finished)
	return r, err
}

// get returns run id with its steps and engine runs; NotFound if none.
func (s *runStore) get(ctx context.Context, q store.Queryer, id int64) (Run, error) {
	r, err := scanRun(q.QueryRowContext(ctx, `SELECT `+runColumns+` FROM workflow_runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, apperr.NotFoundf("workflow run %d not found", id)
	}
	if err != nil {
		return Run{}, fmt.Errorf("workflow: run %d: %w", id, err)
	}
	if r.Steps, err = s.steps(ctx, q, id); err != nil {
		return Run{}, err
	}
	r.AgentRuns, err = store.All(ctx, q, store.Value[int64], `SELECT id FROM agent_runs WHERE workflow_run_id = ? ORDER BY id`, id)
	if err != nil {
		return Run{}, fmt.Errorf("workflow: run %d engine runs: %w", id, err)
	}
	if r.AgentRuns == nil {
		r.AgentRuns = []int64{}
	}
	return r, nil
}

func (s *runStore) steps(ctx context.Context, q store.Queryer, runID int64) ([]StepRecord, error) {
	out, err := store.All(ctx, q, scanStep, `SELECT path, step_id, seq, status, attempts, input, output, state_patch,
		suspend_payload, resume_data, error, agent_run_ids, started_at, finished_at
		FROM workflow_steps WHERE run_id = ? ORDER BY seq`, runID)
	if err != nil {
		return nil, fmt.Errorf("workflow: steps of run %d: %w", runID, err)
	}
	if out == nil {
		out = []StepRecord{}
	}
	return out, nil
}

func scanStep(row store.Scanner) (StepRecord, error) {
	var st StepRecord
	var status, input, runs, started string
	var output, patch, susp, resume, finished sql.NullString
	if err := row.Scan(&st.Path, &st.Step, &st.seq, &status, &st.Attempts, &input, &output, &patch, &susp, &resume,
		&st.Error, &runs, &started, &finished); err != nil {
		return st, err
	}
	st.Status, st.Input = StepStatus(status), json.RawMessage(input)
	for _, f := range []struct {
		src sql.NullString
		dst *json.RawMessage
	}{{output, &st.Output}, {patch, &st.StatePatch}, {susp, &st.Suspended}, {resume, &st.Resumed}} {
		if f.src.Valid {
			*f.dst = json.RawMessage(f.src.String)
		}
	}
	if err := json.Unmarshal([]byte(runs), &st.AgentRuns); err != nil {
		return st, fmt.Errorf("workflow: step %s agent runs: %w", st.Path, err)
	}
	var err error
	if st.StartedAt, err = store.ParseTime(started); err != nil {
		return st, err
	}
	st.FinishedAt, err = store.ParseNullTime(finished)
	return st, err
}

func nullRaw(b json.RawMessage) sql.NullString {
	if len(b) == 0 {
		return sql.NullString{}
	}
	return sql.NullString{String: string(b), Valid: true}
}

// saveStep writes a step record (insert or replace by path).
func (s *runStore) saveStep(ctx context.Context, q store.Queryer, runID int64, st *StepRecord) error {
	runs, _ := json.Marshal(st.AgentRuns)
	if st.AgentRuns == nil {
		runs = []byte("[]")
	}
	_, err := q.ExecContext(ctx, `INSERT INTO workflow_steps (run_id, path, step_id, seq, status, attempts, input,
		output, state_patch, suspend_payload, resume_data, error, agent_run_ids, started_at, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (run_id, path) DO UPDATE SET status = excluded.status, attempts = excluded.attempts,
		input = excluded.input, output = excluded.output, state_patch = excluded.state_patch,
		suspend_payload = excluded.suspend_payload, resume_data = excluded.resume_data, error = excluded.error,
		agent_run_ids = excluded.agent_run_ids, started_at = excluded.started_at, finished_at = excluded.finished_at`,
		runID, st.Path, st.Step, st.seq, string(st.Status), st.Attempts, string(st.Input), nullRaw(st.Output),
		nullRaw(st.StatePatch), nullRaw(st.Suspended), nullRaw(st.Resumed), st.Error, string(runs),
		store.FormatTime(st.StartedAt), store.NullTime(st.FinishedAt))
	if err != nil {
		return fmt.Errorf("workflow: save step %s of run %d: %w", st.Path, runID, err)
	}
	_, err = q.ExecContext(ctx, `UPDATE workflow_runs SET updated_at = ? WHERE id = ?`, s.stamp(), runID)
	return err
}

// setState stores the run's current state.
func (s *runStore) setState(ctx context.Context, q store.Queryer, runID int64, state json.RawMessage) error {
	_, err := q.ExecContext(ctx, `UPDATE workflow_runs SET state = ?, updated_at = ? WHERE id = ?`, string(state), s.stamp(), runID)
	if err != nil {
		return fmt.Errorf("workflow: save state of run %d: %w", runID, err)
	}
	return nil
}

// transition moves run id to status to when it is in one of from, and
// reports whether it did. output and errMsg are stored with it; a final
// status stamps finished_at.
func (s *runStore) transition(ctx context.Context, q store.Queryer, id int64, from []Status, to Status, output json.RawMessage, errMsg string) (bool, error) {
	var finished sql.NullString
	if to == StatusSuccess || to == StatusFailed {
		finished = sql.NullString{String: s.stamp(), Valid: true}
	}
	args := []any{string(to), nullRaw(output), errMsg, finished, s.stamp(), id}
	cond := ""
	for i, f := range from {
		if i > 0 {
			cond += ","
		}
		cond += "?"
		args = append(args, string(f))
	}
	res, err := q.ExecContext(ctx, `UPDATE workflow_runs SET status = ?, output = COALESCE(?, output), error = ?,
		finished_at = ?, updated_at = ? WHERE id = ? AND status IN (`+cond+`)`, args...)
	if err != nil {
		return false, fmt.Errorf("workflow: run %d to %s: %w", id, to, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// list returns runs (without steps) matching f, newest first.
func (s *runStore) list(ctx context.Context, f Filter) ([]Run, error) {
	if f.Status != "" && !f.Status.Valid() {
		return nil, apperr.Invalidf("unknown workflow run status %q", f.Status)
	}
	var w store.Where
	w.Eq("workflow_id", f.Workflow).Eq("member_id", f.Member).Eq("status", string(f.Status))
	if f.BeforeID > 0 {
		w.And("id < ?", f.BeforeID)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	out, err := store.All(ctx, s.db.Read, scanRun, `SELECT `+runColumns+` FROM workflow_runs`+w.String()+
		` ORDER BY id DESC LIMIT ?`, w.Args(min(limit, 500))...)
	if err != nil {
		return nil, fmt.Errorf("workflow: list runs: %w", err)
	}
	return out, nil
}

// ids returns the ids of runs in status, oldest first.
func (s *runStore) ids(ctx context.Context, status Status) ([]int64, error) {
	return store.All(ctx, s.db.Read, store.Value[int64], `SELECT id FROM workflow_runs WHERE status = ? ORDER BY id`, string(status))
}

// unfinished returns the ids of a member's runs of a workflow that have not
// ended (running, suspended or paused).
func (s *runStore) unfinished(ctx context.Context, q store.Queryer, workflow, member string) ([]int64, error) {
	return store.All(ctx, q, store.Value[int64], `SELECT id FROM workflow_runs WHERE workflow_id = ? AND member_id = ?
		AND status IN ('running','suspended','paused') ORDER BY id`, workflow, member)
}
