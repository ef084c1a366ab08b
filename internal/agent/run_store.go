package agent

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// RunStore reads and writes agent_runs.
type RunStore struct {
	db  *store.DB
	now func() time.Time
}

// NewRunStore returns a store using now as its clock (db.Now if nil).
func NewRunStore(db *store.DB, now func() time.Time) *RunStore {
	if now == nil {
		now = db.Now
	}
	return &RunStore{db: db, now: now}
}

const runColumns = `id, agent_id, assignment_id, member_id, thread_id, triggered_by, status, phase, created_at,
	started_at, finished_at, timings, attempts, model, tokens_in, tokens_out, cost_usd, error, fallback_reason,
	output, prompt, tool_calls, validation_errors, input_hash, reused_from, effects, model_notes, workflow_run_id, origin, steps, prompt_tokens`

// create inserts a queued run and fills in its id and creation time.
func (s *RunStore) create(ctx context.Context, q store.Queryer, r *Run) error {
	r.Status = StatusQueued
	r.CreatedAt = s.now().UTC().Truncate(time.Millisecond)
	res, err := q.ExecContext(ctx, `INSERT INTO agent_runs (agent_id, assignment_id, member_id, thread_id,
		triggered_by, status, created_at, workflow_run_id, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Agent, r.Assignment, r.Member, nullID(r.ThreadID), string(r.Trigger), string(r.Status), store.FormatTime(r.CreatedAt),
		nullID(r.WorkflowRunID), r.Origin)
	if err != nil {
		if isForeignKey(err) {
			return apperr.NotFoundf("unknown member %q", r.Member)
		}
		return fmt.Errorf("agent: create run: %w", err)
	}
	r.ID, err = res.LastInsertId()
	return err
}

// save writes every mutable column of r.
func (s *RunStore) save(ctx context.Context, q store.Queryer, r *Run) error {
	js := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	var prompt, output, steps sql.NullString
	if len(r.Steps) > 0 {
		steps = sql.NullString{String: string(r.Steps), Valid: true}
	}
	if r.Prompt != nil {
		prompt = sql.NullString{String: js(r.Prompt), Valid: true}
	}
	if len(r.Output) > 0 {
		output = sql.NullString{String: string(r.Output), Valid: true}
	}
	timings, calls, verrs, effects := r.Timings, r.ToolCalls, r.ValidationErrors, r.Effects
	if timings == nil {
		timings = []PhaseTiming{}
	}
	if calls == nil {
		calls = []ToolCall{}
	}
	if verrs == nil {
		verrs = []AttemptErrors{}
	}
	if effects == nil {
		effects = []EffectOutcome{}
	}
	notes := r.ModelNotes
	if notes == nil {
		notes = []string{}
	}
	prompts := r.PromptTokens
	if prompts == nil {
		prompts = []PromptTokens{}
	}
	_, err := q.ExecContext(ctx, `UPDATE agent_runs SET status = ?, phase = ?, started_at = ?, finished_at = ?,
		timings = ?, attempts = ?, model = ?, tokens_in = ?, tokens_out = ?, cost_usd = ?, error = ?,
		fallback_reason = ?, output = ?, prompt = ?, tool_calls = ?, validation_errors = ?, input_hash = ?,
		reused_from = ?, thread_id = ?, effects = ?, model_notes = ?, steps = ?, prompt_tokens = ? WHERE id = ?`,
		string(r.Status), r.Phase, store.NullTime(r.StartedAt), store.NullTime(r.FinishedAt),
		js(timings), r.Attempts, r.Model, r.TokensIn, r.TokensOut, r.CostUSD, r.Error,
		r.FallbackReason, output, prompt, js(calls), js(verrs), r.InputHash,
		nullID(r.ReusedFrom), nullID(r.ThreadID), js(effects), js(notes), steps, js(prompts), r.ID)
	if err != nil {
		return fmt.Errorf("agent: save run %d: %w", r.ID, err)
	}
	return nil
}

func nullID(id *int64) sql.NullInt64 {
	if id == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *id, Valid: true}
}

// Get returns run id; NotFound if there is none.
func (s *RunStore) Get(ctx context.Context, id int64) (Run, error) {
	r, err := scanRun(s.db.Read.QueryRowContext(ctx, `SELECT `+runColumns+` FROM agent_runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, apperr.NotFoundf("run %d not found", id)
	}
	return r, err
}

// List returns runs matching f, newest first.
func (s *RunStore) List(ctx context.Context, f RunFilter) ([]Run, error) {
	if f.Status != "" && !f.Status.Valid() {
		return nil, apperr.Invalidf("unknown run status %q", f.Status)
	}
	var w store.Where
	w.Eq("agent_id", f.Agent).Eq("assignment_id", f.Assignment).Eq("member_id", f.Member).Eq("status", string(f.Status))
	if f.BeforeID > 0 {
		w.And("id < ?", f.BeforeID)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	out, err := store.All(ctx, s.db.Read, scanRun, `SELECT `+runColumns+` FROM agent_runs`+w.String()+
		` ORDER BY id DESC LIMIT ?`, w.Args(min(limit, 500))...)
	if err != nil {
		return nil, fmt.Errorf("agent: list runs: %w", err)
	}
	return out, nil
}

// MarkInterrupted turns runs left queued or running (by a crash or a
// shutdown) into interrupted; call it at start, before any run. It reports
// how many runs it changed.
func (s *RunStore) MarkInterrupted(ctx context.Context) (int64, error) {
	res, err := s.db.Write.ExecContext(ctx, `UPDATE agent_runs SET status = 'interrupted', finished_at = ?,
		error = CASE WHEN error = '' THEN 'interrupted: the server stopped during the run' ELSE error END
		WHERE status IN ('queued','running')`, store.FormatTime(s.now()))
	if err != nil {
		return 0, fmt.Errorf("agent: mark interrupted runs: %w", err)
	}
	return res.RowsAffected()
}

// spentSince sums tokens and cost of runs created at or after t.
func (s *RunStore) spentSince(ctx context.Context, t time.Time) (tokens int64, usd float64, err error) {
	err = s.db.Read.QueryRowContext(ctx, `SELECT COALESCE(SUM(tokens_in + tokens_out), 0), COALESCE(SUM(cost_usd), 0)
		FROM agent_runs WHERE created_at >= ?`, store.FormatTime(t)).Scan(&tokens, &usd)
	if err != nil {
		err = fmt.Errorf("agent: budget spent: %w", err)
	}
	return tokens, usd, err
}

// lastSucceeded returns the newest succeeded run of (agent, assignment,
// member) other than exclude; ok is false if there is none.
func (s *RunStore) lastSucceeded(ctx context.Context, agent, assignment, member string, exclude int64) (Run, bool, error) {
	r, err := scanRun(s.db.Read.QueryRowContext(ctx, `SELECT `+runColumns+` FROM agent_runs
		WHERE agent_id = ? AND assignment_id = ? AND member_id = ? AND status = 'succeeded' AND id <> ?
		ORDER BY id DESC LIMIT 1`, agent, assignment, member, exclude))
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, false, nil
	}
	if err != nil {
		return Run{}, false, err
	}
	return r, true, nil
}

// activeRun returns the queued or running run of (agent, assignment,
// member); NotFound when there is none.
func (s *RunStore) activeRun(ctx context.Context, agent, assignment, member string) (Run, error) {
	r, err := scanRun(s.db.Write.QueryRowContext(ctx, `SELECT `+runColumns+` FROM agent_runs
		WHERE agent_id = ? AND assignment_id = ? AND member_id = ? AND status IN ('queued','running')
		ORDER BY id DESC LIMIT 1`, agent, assignment, member))
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, apperr.NotFoundf("no active %s/%s run for %s", agent, assignment, member)
	}
	return r, err
}

func scanRun(row store.Scanner) (Run, error) {
	var r Run
	var threadID, reused, workflowRun sql.NullInt64
	var trig, status, created, timings, calls, verrs, effects, notes, prompts string
	var started, finished, output, prompt, steps sql.NullString
	err := row.Scan(&r.ID, &r.Agent, &r.Assignment, &r.Member, &threadID, &trig, &status, &r.Phase, &created,
		&started, &finished, &timings, &r.Attempts, &r.Model, &r.TokensIn, &r.TokensOut, &r.CostUSD, &r.Error,
		&r.FallbackReason, &output, &prompt, &calls, &verrs, &r.InputHash, &reused, &effects, &notes, &workflowRun, &r.Origin, &steps, &prompts)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return r, err
		}
		return r, fmt.Errorf("agent: scan run: %w", err)
	}
	r.Trigger, r.Status = Trigger(trig), Status(status)
	if threadID.Valid {
		r.ThreadID = &threadID.Int64
	}
	if reused.Valid {
		r.ReusedFrom = &reused.Int64
	}
	if workflowRun.Valid {
		r.WorkflowRunID = &workflowRun.Int64
	}
	if r.CreatedAt, err = store.ParseTime(created); err != nil {
		return r, err
	}
	if r.StartedAt, err = store.ParseNullTime(started); err != nil {
		return r, err
	}
	if r.FinishedAt, err = store.ParseNullTime(finished); err != nil {
		return r, err
	}
	if output.Valid {
		r.Output = json.RawMessage(output.String)
	}
	if steps.Valid {
		r.Steps = json.RawMessage(steps.String)
	}
	if prompt.Valid {
		r.Prompt = &Prompt{}
		if err := json.Unmarshal([]byte(prompt.String), r.Prompt); err != nil {
			return r, fmt.Errorf("agent: run %d prompt: %w", r.ID, err)
		}
	}
	for _, f := range []struct {
		src string
		dst any
	}{{timings, &r.Timings}, {calls, &r.ToolCalls}, {verrs, &r.ValidationErrors}, {effects, &r.Effects}, {notes, &r.ModelNotes}, {prompts, &r.PromptTokens}} {
		if err := json.Unmarshal([]byte(f.src), f.dst); err != nil {
			return r, fmt.Errorf("agent: run %d: %w", r.ID, err)
		}
	}
	return r, nil
}
