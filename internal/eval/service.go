package eval

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/internal/coach"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Versions is where the service reads the coach's definition versions
// (*definition.Repo of the household).
type Versions interface {
	Active(ctx context.Context, agentID string) (definition.Version, error)
	Version(ctx context.Context, agentID string, number int) (definition.Version, error)
}

// ServiceOptions configure the admin's eval runs.
type ServiceOptions struct {
	// Factory builds each scenario's Hearth (app.EvalFactory with the
	// server's configuration and model-call slots).
	Factory Factory
	// Runtime names the configured runtime ("heuristic" or the model).
	Runtime string
	// Parallel is how many scenarios run at once (default 2).
	Parallel int
	// Publisher gets KindEval events on the admin topic (nil: none).
	Publisher live.Publisher
	Logger    *slog.Logger
}

// StoredRun is a suite run from Admin → Evals.
type StoredRun struct {
	ID                int64      `json:"id"`
	DefinitionVersion int        `json:"definition_version"`
	Definition        string     `json:"definition"`
	Runtime           string     `json:"runtime"`
	Status            string     `json:"status"` // running, done, failed, interrupted
	StartedAt         time.Time  `json:"started_at"`
	FinishedAt        *time.Time `json:"finished_at,omitempty"`
	Scenarios         int        `json:"scenarios"`
	// Filter is the scenario-id pattern the run was limited to ("" = all).
	Filter  string   `json:"filter,omitempty"`
	Summary *Summary `json:"summary,omitempty"`
	// Report is loaded by Get only.
	Report *Report `json:"report,omitempty"`
	Error  string  `json:"error,omitempty"`
}

// Progress is the running suite's progress.
type Progress struct {
	RunID        int64
	Definition   string
	Done, Total  int
	Failing      int
	LastScenario string
}

// Service runs the suite in the background for the admin, one run at a
// time, and keeps the reports in eval_runs.
type Service struct {
	db   *store.DB
	defs Versions
	opt  ServiceOptions
	log  *slog.Logger

	mu       sync.Mutex
	progress *Progress
	ctx      context.Context
	stop     context.CancelFunc
	wg       sync.WaitGroup
}

// NewService returns the service and marks runs a stopped server left
// running as interrupted.
func NewService(ctx context.Context, db *store.DB, defs Versions, opt ServiceOptions) (*Service, error) {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Parallel <= 0 {
		opt.Parallel = 2
	}
	if _, err := db.Write.ExecContext(ctx, `UPDATE eval_runs SET status = 'interrupted', finished_at = ?,
		error = 'the server stopped during the run' WHERE status = 'running'`, store.FormatTime(time.Now())); err != nil {
		return nil, fmt.Errorf("eval: mark interrupted runs: %w", err)
	}
	c, cancel := context.WithCancel(context.Background())
	return &Service{db: db, defs: defs, opt: opt, log: opt.Logger, ctx: c, stop: cancel}, nil
}

// Runtime names the runtime the suite runs with.
func (s *Service) Runtime() string { return s.opt.Runtime }

// Current is the running suite's progress; ok is false when none runs.
func (s *Service) Current() (Progress, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.progress == nil {
		return Progress{}, false
	}
	return *s.progress, true
}

// Start runs the suite in the background against the coach's definition
// version (0: the current one), only the scenarios whose id matches only
// (a regular expression; "" = all), and returns the run's id. Conflict
// while another run is going.
func (s *Service) Start(ctx context.Context, version int, only string) (int64, error) {
	scs, err := Scenarios()
	if err != nil {
		return 0, err
	}
	if scs, err = Select(scs, only); err != nil {
		return 0, err
	}
	var v definition.Version
	if version == 0 {
		v, err = s.defs.Active(ctx, coach.AgentID)
	} else {
		v, err = s.defs.Version(ctx, coach.AgentID, version)
	}
	if err != nil {
		return 0, err
	}
	label := definition.VersionLabel(v)
	s.mu.Lock()
	if s.progress != nil {
		s.mu.Unlock()
		return 0, apperr.New(apperr.Conflict, "an eval run is already going (%s, %d of %d scenarios)",
			s.progress.Definition, s.progress.Done, s.progress.Total)
	}
	s.progress = &Progress{Definition: label, Total: len(scs)}
	s.mu.Unlock()
	res, err := s.db.Write.ExecContext(ctx, `INSERT INTO eval_runs (agent_id, definition_version, definition_label, runtime,
		status, started_at, scenarios, filter) VALUES (?, ?, ?, ?, 'running', ?, ?, ?)`, coach.AgentID, v.Number, label, s.opt.Runtime,
		store.FormatTime(time.Now()), len(scs), only)
	var id int64
	if err == nil {
		id, err = res.LastInsertId()
	}
	if err != nil {
		s.mu.Lock()
		s.progress = nil
		s.mu.Unlock()
		return 0, fmt.Errorf("eval: record run: %w", err)
	}
	s.mu.Lock()
	s.progress.RunID = id
	s.mu.Unlock()
	def := v.Definition
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.run(id, scs, &def, label)
	}()
	s.publish()
	return id, nil
}

func (s *Service) publish() {
	if s.opt.Publisher != nil {
		s.opt.Publisher.Publish(live.TopicAdmin, live.KindEval, nil)
	}
}

// run executes one suite run and records its report.
func (s *Service) run(id int64, scs []*Scenario, def *definition.Definition, label string) {
	var last time.Time // under s.mu
	rep, err := Run(s.ctx, scs, Options{Factory: s.opt.Factory, Parallel: s.opt.Parallel, Definition: def, DefinitionLabel: label,
		Progress: func(done, total int, r ScenarioResult) {
			s.mu.Lock()
			s.progress.Done, s.progress.LastScenario = done, r.ID
			if !r.Passed {
				s.progress.Failing++
			}
			now := time.Now()
			tell := now.Sub(last) >= 200*time.Millisecond || done == total // a few updates a second
			if tell {
				last = now
			}
			s.mu.Unlock()
			if tell {
				s.publish()
			}
		}})
	status, msg := "done", ""
	switch {
	case err != nil && s.ctx.Err() != nil:
		status, msg = "interrupted", "the server stopped during the run"
	case err != nil:
		status, msg = "failed", err.Error()
	}
	var summary, report []byte
	if rep != nil {
		rep.Runtime = s.opt.Runtime
		summary, _ = json.Marshal(rep.Summary)
		report, _ = json.Marshal(rep)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.db.Write.ExecContext(ctx, `UPDATE eval_runs SET status = ?, finished_at = ?, summary = ?, report = ?, error = ?
		WHERE id = ?`, status, store.FormatTime(time.Now()), nullBytes(summary), nullBytes(report), msg, id); err != nil {
		s.log.Error("eval: record the report", "run", id, "err", err)
	}
	if rep != nil {
		s.log.Info("eval run finished", "run", id, "definition", label, "runtime", s.opt.Runtime, "status", status,
			"designed_pass_rate", rep.Summary.DesignedPassRate, "pass_rate", rep.Summary.PassRate)
	}
	s.mu.Lock()
	s.progress = nil
	s.mu.Unlock()
	s.publish()
}

func nullBytes(b []byte) sql.NullString { return sql.NullString{String: string(b), Valid: len(b) > 0} }

const runColumns = `id, definition_version, definition_label, runtime, status, started_at, finished_at, scenarios, filter, summary, error`

func scanRun(row store.Scanner) (StoredRun, error) {
	var r StoredRun
	var started string
	var finished, summary sql.NullString
	if err := row.Scan(&r.ID, &r.DefinitionVersion, &r.Definition, &r.Runtime, &r.Status, &started, &finished,
		&r.Scenarios, &r.Filter, &summary, &r.Error); err != nil {
		return r, err
	}
	var err error
	if r.StartedAt, err = store.ParseTime(started); err != nil {
		return r, err
	}
	if r.FinishedAt, err = store.ParseNullTime(finished); err != nil {
		return r, err
	}
	if summary.Valid {
		r.Summary = &Summary{}
		if err := json.Unmarshal([]byte(summary.String), r.Summary); err != nil {
			return r, fmt.Errorf("eval: run %d summary: %w", r.ID, err)
		}
	}
	return r, nil
}

// List returns the newest runs first (at most limit, default 20).
func (s *Service) List(ctx context.Context, limit int) ([]StoredRun, error) {
	if limit <= 0 {
		limit = 20
	}
	out, err := store.All(ctx, s.db.Read, scanRun, `SELECT `+runColumns+` FROM eval_runs ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("eval: list runs: %w", err)
	}
	return out, nil
}

// Get returns a run with its report; NotFound if there is none.
func (s *Service) Get(ctx context.Context, id int64) (StoredRun, error) {
	var report sql.NullString
	r, err := scanRun(scanner(s.db.Read.QueryRowContext(ctx, `SELECT `+runColumns+`, report FROM eval_runs WHERE id = ?`, id), &report))
	if errors.Is(err, sql.ErrNoRows) {
		return r, apperr.NotFoundf("no eval run %d", id)
	}
	if err != nil {
		return r, err
	}
	if report.Valid {
		r.Report = &Report{}
		if err := json.Unmarshal([]byte(report.String), r.Report); err != nil {
			return r, fmt.Errorf("eval: run %d report: %w", id, err)
		}
	}
	return r, nil
}

// Previous returns the newest finished run before id, with its report, to
// compare with; ok is false when there is none.
func (s *Service) Previous(ctx context.Context, id int64) (StoredRun, bool, error) {
	var prev int64
	err := s.db.Read.QueryRowContext(ctx, `SELECT id FROM eval_runs WHERE id < ? AND status = 'done' ORDER BY id DESC LIMIT 1`,
		id).Scan(&prev)
	if errors.Is(err, sql.ErrNoRows) {
		return StoredRun{}, false, nil
	}
	if err != nil {
		return StoredRun{}, false, fmt.Errorf("eval: previous run: %w", err)
	}
	r, err := s.Get(ctx, prev)
	return r, err == nil, err
}

// Close stops a running suite (recorded as interrupted) and waits for it.
func (s *Service) Close() {
	s.stop()
	s.wg.Wait()
}

// scanner appends dst to the columns a row scan fills.
type extraScanner struct {
	row   *sql.Row
	extra []any
}

func scanner(row *sql.Row, extra ...any) store.Scanner { return extraScanner{row: row, extra: extra} }

func (e extraScanner) Scan(dst ...any) error { return e.row.Scan(append(dst, e.extra...)...) }
