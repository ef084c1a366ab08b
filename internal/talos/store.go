package talos

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/store"
)

// PolicyName is the row the Talos policy is kept under.
const PolicyName = "talos"

// Record is a stored decision: a call the policy decided, who asked, and
// what became of it.
type Record struct {
	ID      int64           `json:"id"`
	At      time.Time       `json:"at"`
	Member  string          `json:"member"` // "" = a screen's guest
	Role    health.Role     `json:"role"`
	Tool    string          `json:"tool"`
	Target  string          `json:"target"`
	Action  string          `json:"action"` // what it would do, in words
	Args    json.RawMessage `json:"args"`
	Outcome Outcome         `json:"outcome"`
	Rule    string          `json:"rule"`
	Reason  string          `json:"reason,omitempty"`
	RunID   *int64          `json:"run_id,omitempty"`
	// Workflow is the confirmation's workflow run (a waiting decision).
	Workflow  *int64     `json:"workflow_run,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	DecidedBy string     `json:"decided_by,omitempty"`
	DecidedAt *time.Time `json:"decided_at,omitempty"`
	Result    string     `json:"result,omitempty"`
}

// Filter narrows Decisions; zero fields match everything.
type Filter struct {
	Member  string
	Role    health.Role
	Outcome Outcome
	Tool    string
	// Limit caps the rows, newest first (0: 100).
	Limit int
}

// Store keeps the policy and the decisions.
type Store struct {
	db  *store.DB
	now func() time.Time
}

// NewStore returns a Store over db on clock now (nil: time.Now).
func NewStore(db *store.DB, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{db: db, now: now}
}

// Policy is the policy in force: the saved one, or DefaultPolicy.
func (s *Store) Policy(ctx context.Context) (Policy, error) {
	var body string
	err := s.db.Read.QueryRowContext(ctx, `SELECT body FROM policies WHERE name = ?`, PolicyName).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultPolicy(), nil
	}
	if err != nil {
		return Policy{}, fmt.Errorf("talos: read policy: %w", err)
	}
	return Parse([]byte(body))
}

// SavePolicy validates p against tools and saves it.
func (s *Store) SavePolicy(ctx context.Context, p Policy, tools []string, by string) error {
	if err := p.Validate(tools); err != nil {
		return err
	}
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("talos: encode policy: %w", err)
	}
	_, err = s.db.Write.ExecContext(ctx, `INSERT INTO policies (name, body, updated_at, updated_by) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
		PolicyName, string(b), store.FormatTime(s.now()), by)
	if err != nil {
		return fmt.Errorf("talos: save policy: %w", err)
	}
	return nil
}

const recordCols = `id, at, member_id, role, tool, target, action, args, outcome, rule, reason, run_id, workflow_run,
	expires_at, decided_by, decided_at, result`

func scanRecord(row store.Scanner) (Record, error) {
	var (
		r                   Record
		at                  string
		role, outcome, args string
		run, wf             sql.NullInt64
		expires, decided    sql.NullString
	)
	if err := row.Scan(&r.ID, &at, &r.Member, &role, &r.Tool, &r.Target, &r.Action, &args, &outcome, &r.Rule, &r.Reason,
		&run, &wf, &expires, &r.DecidedBy, &decided, &r.Result); err != nil {
		return r, err
	}
	r.Role, r.Outcome, r.Args = health.Role(role), Outcome(outcome), json.RawMessage(args)
	var err error
	if r.At, err = store.ParseTime(at); err != nil {
		return r, err
	}
	if run.Valid {
		r.RunID = &run.Int64
	}
	if wf.Valid {
		r.Workflow = &wf.Int64
	}
	for _, t := range []struct {
		s   sql.NullString
		dst **time.Time
	}{{expires, &r.ExpiresAt}, {decided, &r.DecidedAt}} {
		if t.s.Valid {
			v, err := store.ParseTime(t.s.String)
			if err != nil {
				return r, err
			}
			*t.dst = &v
		}
	}
	return r, nil
}

// maxText caps stored texts (a reason, an adapter's error).
const maxText = 1000

func clipText(s string) string {
	if len(s) <= maxText {
		return s
	}
	return strings.ToValidUTF8(s[:maxText], "") + "…"
}

// add stores a new decision; r.ID and r.At are set.
func (s *Store) add(ctx context.Context, r *Record) error {
	r.At = s.now().UTC().Truncate(time.Millisecond)
	if len(r.Args) == 0 {
		r.Args = json.RawMessage("{}")
	}
	var expires sql.NullString
	if r.ExpiresAt != nil {
		expires = sql.NullString{String: store.FormatTime(*r.ExpiresAt), Valid: true}
	}
	res, err := s.db.Write.ExecContext(ctx, `INSERT INTO policy_decisions (at, member_id, role, tool, target, action, args,
		outcome, rule, reason, run_id, expires_at, result) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		store.FormatTime(r.At), r.Member, string(r.Role), r.Tool, r.Target, clipText(r.Action), string(r.Args), string(r.Outcome),
		r.Rule, clipText(r.Reason), nullInt(r.RunID), expires, clipText(r.Result))
	if err != nil {
		return fmt.Errorf("talos: record decision: %w", err)
	}
	r.ID, err = res.LastInsertId()
	return err
}

func nullInt(p *int64) sql.NullInt64 {
	if p == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *p, Valid: true}
}

// setWorkflow links a waiting decision to its confirmation run.
func (s *Store) setWorkflow(ctx context.Context, id, run int64) error {
	_, err := s.db.Write.ExecContext(ctx, `UPDATE policy_decisions SET workflow_run = ? WHERE id = ?`, run, id)
	return err
}

// settle moves a waiting decision to its end (confirmed, refused or
// timed_out), once: false when it was no longer waiting.
func (s *Store) settle(ctx context.Context, id int64, o Outcome, by, result string) (bool, error) {
	res, err := s.db.Write.ExecContext(ctx, `UPDATE policy_decisions SET outcome = ?, decided_by = ?, decided_at = ?, result = ?
		WHERE id = ? AND outcome = 'waiting'`, string(o), by, store.FormatTime(s.now()), clipText(result), id)
	if err != nil {
		return false, fmt.Errorf("talos: settle decision %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// setResult records what an allowed or confirmed call did.
func (s *Store) setResult(ctx context.Context, id int64, result string) error {
	_, err := s.db.Write.ExecContext(ctx, `UPDATE policy_decisions SET result = ? WHERE id = ?`, clipText(result), id)
	return err
}

// Decision returns one decision.
func (s *Store) Decision(ctx context.Context, id int64) (Record, error) {
	r, err := store.One(ctx, s.db.Read, scanRecord, `SELECT `+recordCols+` FROM policy_decisions WHERE id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return r, apperr.NotFoundf("decision %d not found", id)
	}
	return r, err
}

// Decisions lists decisions, newest first.
func (s *Store) Decisions(ctx context.Context, f Filter) ([]Record, error) {
	var where []string
	var args []any
	for _, c := range []struct{ col, v string }{{"member_id", f.Member}, {"role", string(f.Role)}, {"outcome", string(f.Outcome)}, {"tool", f.Tool}} {
		if c.v != "" {
			where = append(where, c.col+" = ?")
			args = append(args, c.v)
		}
	}
	q := `SELECT ` + recordCols + ` FROM policy_decisions`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	args = append(args, f.Limit)
	rs, err := store.All(ctx, s.db.Read, scanRecord, q+` ORDER BY at DESC, id DESC LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("talos: list decisions: %w", err)
	}
	return rs, nil
}

// Waiting are member's decisions waiting for an adult, oldest first
// (member "" lists every member's).
func (s *Store) Waiting(ctx context.Context, member string) ([]Record, error) {
	q := `SELECT ` + recordCols + ` FROM policy_decisions WHERE outcome = 'waiting'`
	var args []any
	if member != "" {
		q += ` AND member_id = ?`
		args = append(args, member)
	}
	return store.All(ctx, s.db.Read, scanRecord, q+` ORDER BY id`, args...)
}

// recentActions counts member's actions (asked for, whatever became of
// them, except those the rate cap itself refused) since since.
func (s *Store) recentActions(ctx context.Context, member string, since time.Time) (int, error) {
	var n int
	err := s.db.Read.QueryRowContext(ctx, `SELECT count(*) FROM policy_decisions WHERE member_id = ? AND at > ?
		AND tool IN (?, ?) AND rule NOT LIKE '%.per_hour'`, member, store.FormatTime(since), ToolCallService, ToolPlay).Scan(&n)
	return n, err
}
