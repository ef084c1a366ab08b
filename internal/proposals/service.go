package proposals

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Status is where a proposal is in its life.
type Status string

// A proposal is pending until an admin decides. Confirm moves it to
// applying, then applied or failed; Discard to discarded. A failed one can
// be confirmed again; so can one left applying by a crash (see Confirm).
const (
	StatusPending   Status = "pending"
	StatusApplying  Status = "applying"
	StatusApplied   Status = "applied"
	StatusFailed    Status = "failed"
	StatusDiscarded Status = "discarded"
)

// applyTimeout bounds one apply: the outside system (Plex) may be slow,
// but a confirmation must end and record its outcome.
const applyTimeout = 2 * time.Minute

// maxResult caps the recorded result text (an applier's error can be long).
const maxResult = 2000

// Record is a stored proposal and what became of it.
type Record struct {
	ID        int64
	RunID     int64
	AgentID   string
	Kind      string
	Summary   string
	Lines     []string
	Payload   json.RawMessage
	Status    Status
	Result    string // the applier's result, or why it failed
	CreatedAt time.Time
	DecidedAt *time.Time
	DecidedBy string
	AppliedAt *time.Time
}

// Service keeps proposals and applies the confirmed ones through the
// Applier registered for their kind.
type Service struct {
	db  *store.DB
	pub live.Publisher

	mu       sync.Mutex
	appliers map[string]Applier
	// inFlight are the proposals a confirmation in this process is
	// applying: a second confirmation meanwhile does not apply again.
	inFlight map[int64]bool
}

// NewService returns a Service over db that tells open admin pages of
// changes through pub (nil: nobody).
func NewService(db *store.DB, pub live.Publisher) *Service {
	return &Service{db: db, pub: pub, appliers: map[string]Applier{}, inFlight: map[int64]bool{}}
}

// Register makes a apply the proposals of kind (registering a kind again
// replaces its applier).
func (s *Service) Register(kind string, a Applier) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appliers[kind] = a
}

func (s *Service) applier(kind string) (Applier, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.appliers[kind]
	return a, ok
}

// claim marks id as being applied by this process; false if it already is.
func (s *Service) claim(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inFlight[id] {
		return false
	}
	s.inFlight[id] = true
	return true
}

func (s *Service) release(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.inFlight, id)
}

// Get returns one proposal; an unknown id is NotFound.
func (s *Service) Get(ctx context.Context, id int64) (Record, error) {
	r, err := store.One(ctx, s.db.Read, scanRecord, selectRecord+` WHERE id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, apperr.NotFoundf("no proposal %d", id)
	}
	if err != nil {
		return Record{}, fmt.Errorf("proposals: get %d: %w", id, err)
	}
	return r, nil
}

// Confirm applies proposal id through its kind's Applier, once, and
// returns what became of it. The result of the apply is recorded, not
// returned as an error: a failed apply comes back with Status failed and
// the reason in Result, and can be confirmed again.
//
// Once only: the proposal moves to applying in one guarded UPDATE (from
// the status it was read in), the Applier runs outside any transaction,
// and the outcome is recorded with applied_at. A confirmation repeated
// after it was applied (a double click, a retried POST, a second admin)
// returns the recorded outcome without calling the Applier; one made while
// this process is applying it returns it as applying. A proposal left
// applying by a crash (no confirmation in this process holds it) can be
// confirmed again: Appliers are idempotent by contract, so applying it a
// second time changes nothing the first did not.
//
// A discarded proposal is a Conflict; an unknown kind is Invalid and the
// proposal stays pending.
func (s *Service) Confirm(ctx context.Context, id int64, by string) (Record, error) {
	r, err := s.Get(ctx, id)
	if err != nil {
		return Record{}, err
	}
	switch r.Status {
	case StatusApplied:
		return r, nil
	case StatusDiscarded:
		return r, apperr.New(apperr.Conflict, "this change was discarded: nothing was applied")
	}
	apply, ok := s.applier(r.Kind)
	if !ok {
		return r, apperr.Invalidf("no applier is registered for %q changes: nothing was applied, the change is still waiting", r.Kind)
	}
	if !s.claim(id) {
		r.Status = StatusApplying
		return r, nil
	}
	defer s.release(id)
	// The apply and its record outlive the request: an admin who closes
	// the page mid-apply must not leave it unrecorded.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), applyTimeout)
	defer cancel()
	now := s.db.Now()
	res, err := s.db.Write.ExecContext(ctx, `UPDATE proposals SET status = 'applying', decided_at = ?, decided_by = ?
		WHERE id = ? AND status = ? AND status IN ('pending', 'failed', 'applying')`, store.FormatTime(now), by, id, string(r.Status))
	if err != nil {
		return r, fmt.Errorf("proposals: begin applying %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		// Decided since it was read (applied by a confirmation that has
		// just finished, or discarded): that outcome is the answer.
		return s.settled(ctx, id)
	}
	s.changed()
	result, aerr := apply(ctx, r.Payload)
	status := StatusApplied
	if aerr != nil {
		status, result = StatusFailed, aerr.Error()
	}
	result = clip(result)
	if _, err := s.db.Write.ExecContext(ctx, `UPDATE proposals SET status = ?, result = ?, applied_at = ?
		WHERE id = ? AND status = 'applying'`, string(status), result, store.FormatTime(s.db.Now()), id); err != nil {
		// Left applying: shown as such, and confirming again re-applies.
		return r, fmt.Errorf("proposals: record the outcome of %d (%s): %w", id, status, err)
	}
	s.changed()
	return s.Get(ctx, id)
}

// settled returns a proposal decided meanwhile, as Confirm would have.
func (s *Service) settled(ctx context.Context, id int64) (Record, error) {
	r, err := s.Get(ctx, id)
	if err == nil && r.Status == StatusDiscarded {
		return r, apperr.New(apperr.Conflict, "this change was discarded: nothing was applied")
	}
	return r, err
}

// Discard drops a pending proposal: it is never applied. Discarding one
// already discarded changes nothing; any other status is a Conflict.
func (s *Service) Discard(ctx context.Context, id int64, by string) (Record, error) {
	res, err := s.db.Write.ExecContext(ctx, `UPDATE proposals SET status = 'discarded', decided_at = ?, decided_by = ?
		WHERE id = ? AND status = 'pending'`, store.FormatTime(s.db.Now()), by, id)
	if err != nil {
		return Record{}, fmt.Errorf("proposals: discard %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	r, err := s.Get(ctx, id)
	if err != nil {
		return Record{}, err
	}
	if n == 0 && r.Status != StatusDiscarded {
		return r, apperr.New(apperr.Conflict, "only a waiting change can be discarded: this one is %s", r.Status)
	}
	if n > 0 {
		s.changed()
	}
	return r, nil
}

func (s *Service) changed() {
	if s.pub != nil {
		s.pub.Publish(live.TopicAdmin, live.KindProposal, nil)
	}
}

func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxResult {
		return s
	}
	return string([]rune(s)[:maxResult-1]) + "…"
}

const selectRecord = `SELECT id, run_id, agent_id, kind, summary, lines, payload, status, result, created_at,
	decided_at, decided_by, applied_at FROM proposals`

func scanRecord(row store.Scanner) (Record, error) {
	var r Record
	var lines, payload, status, created string
	var decided, applied sql.NullString
	if err := row.Scan(&r.ID, &r.RunID, &r.AgentID, &r.Kind, &r.Summary, &lines, &payload, &status, &r.Result, &created,
		&decided, &r.DecidedBy, &applied); err != nil {
		return r, err
	}
	r.Status, r.Payload = Status(status), json.RawMessage(payload)
	if err := json.Unmarshal([]byte(lines), &r.Lines); err != nil {
		return r, fmt.Errorf("proposals: lines of %d: %w", r.ID, err)
	}
	var err error
	if r.CreatedAt, err = store.ParseTime(created); err != nil {
		return r, err
	}
	if r.DecidedAt, err = store.ParseNullTime(decided); err != nil {
		return r, err
	}
	r.AppliedAt, err = store.ParseNullTime(applied)
	return r, err
}
