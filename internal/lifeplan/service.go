// Package lifeplan keeps each member's life plan (issue 40, the seed's
// "JOP" framework): a purpose statement, ranked values, beliefs held as
// if/then hypotheses with evidence, goals that move through guarded states
// (Transitions) with a kept history, and qualities to cultivate.
//
// A life plan is private to its member. Every method takes the member id
// first, and it must come from the server's scope (the signed-in member,
// the page's member, the agent run's member), never from a model's
// arguments or a request body. Every query filters by that member, so the
// id of another member's row reads as NotFound, exactly as an unknown one.
package lifeplan

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// Caps on how much one life plan holds: enough for a person, small enough
// that a model looping on a tool cannot fill the database.
const (
	MaxValues      = 20
	MaxBeliefs     = 100
	MaxEvidence    = 50 // per belief
	MaxGoals       = 200
	MaxQualities   = 30
	MaxFitnessLink = 20 // fitness goals under one life-plan goal
)

// Text sizes, in characters.
const (
	maxPurpose     = 1000
	maxName        = 80  // a value's, a goal's, a quality's name
	maxDescription = 300 // a value's description
	maxClause      = 300 // a belief's "if" and "then"
	maxNote        = 1000
	maxWhy         = 1000
	maxReason      = 500
	maxBy          = 80
)

// Service reads and writes members' life plans.
type Service struct {
	db  *store.DB
	now func() time.Time
	tx  *store.Tx // InTx: every read and write runs in it
}

// NewService returns a Service over db; now stamps the rows (nil: time.Now).
func NewService(db *store.DB, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, now: now}
}

// Plan is a member's whole life plan.
type Plan struct {
	Purpose   Purpose   `json:"purpose"`
	Values    []Value   `json:"values"`
	Beliefs   []Belief  `json:"beliefs"`
	Goals     []Goal    `json:"goals"`
	Qualities []Quality `json:"qualities"`
}

// Plan returns everything in the member's life plan, read at one instant.
func (s *Service) Plan(ctx context.Context, member string) (Plan, error) {
	var p Plan
	err := s.read(ctx, member, func(q store.Queryer) error {
		var err error
		if p.Purpose, err = purpose(ctx, q, member); err != nil {
			return err
		}
		if p.Values, err = values(ctx, q, member); err != nil {
			return err
		}
		if p.Beliefs, err = beliefs(ctx, q, member); err != nil {
			return err
		}
		if p.Goals, err = goals(ctx, q, member); err != nil {
			return err
		}
		p.Qualities, err = qualities(ctx, q, member)
		return err
	})
	return p, err
}

// InTx returns s bound to tx: its reads and writes run in tx instead of
// their own transactions. An agent tool stages a write as an Effect and the
// run's commit applies it: func(ctx, tx) { _, err := s.InTx(tx).SetPurpose(…) }.
func (s *Service) InTx(tx *store.Tx) *Service {
	c := *s
	c.tx = tx
	return &c
}

// errCheckOnly rolls back Check's transaction after a successful try.
var errCheckOnly = errors.New("lifeplan: check only")

// Check runs fn against s bound to a transaction that is rolled back: a
// tool tries a write now (an unknown goal, a refused transition, a full
// list) and tells the model at once, then stages it for the run's commit,
// which may still refuse it if the plan changed meanwhile.
func (s *Service) Check(ctx context.Context, fn func(s *Service) error) error {
	if s.tx != nil {
		return errors.New("lifeplan: Check inside a transaction")
	}
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		if err := fn(s.InTx(tx)); err != nil {
			return err
		}
		return errCheckOnly
	})
	if errors.Is(err, errCheckOnly) {
		return nil
	}
	return err
}

// read runs fn in one read-only transaction (a consistent view; s.tx when
// bound), after
// checking the member exists.
func (s *Service) read(ctx context.Context, member string, fn func(q store.Queryer) error) error {
	if s.tx != nil {
		if err := memberExists(ctx, s.tx, member); err != nil {
			return err
		}
		return fn(s.tx)
	}
	tx, err := s.db.Read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("lifeplan: read: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := memberExists(ctx, tx, member); err != nil {
		return err
	}
	return fn(tx)
}

// write runs fn in a write transaction (s.tx when bound) after checking the member exists.
func (s *Service) write(ctx context.Context, member string, fn func(tx *store.Tx) error) error {
	if s.tx != nil {
		if err := memberExists(ctx, s.tx, member); err != nil {
			return err
		}
		return fn(s.tx)
	}
	return s.db.Tx(ctx, func(tx *store.Tx) error {
		if err := memberExists(ctx, tx, member); err != nil {
			return err
		}
		return fn(tx)
	})
}

func memberExists(ctx context.Context, q store.Queryer, member string) error {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM members WHERE id = ?`, member).Scan(&n); err != nil {
		return fmt.Errorf("lifeplan: member %q: %w", member, err)
	}
	if n == 0 {
		return apperr.NotFoundf("no member %q", member)
	}
	return nil
}

// stamp is now as stored.
func (s *Service) stamp() string { return store.FormatTime(s.now()) }

// count returns the member's rows in table (a constant of this package).
func count(ctx context.Context, q store.Queryer, table, member string) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE member_id = ?`, member).Scan(&n); err != nil {
		return 0, fmt.Errorf("lifeplan: count %s: %w", table, err)
	}
	return n, nil
}

// full is the error for a life plan at one of its caps.
func full(what string, max int) error {
	return apperr.New(apperr.Conflict, "a life plan holds at most %d %s", max, what)
}

// notFound maps "no row" (the row is missing, or another member's) to
// NotFound; other errors are wrapped.
func notFound(err error, what string, id int64) error {
	if errors.Is(err, sql.ErrNoRows) {
		return apperr.NotFoundf("no %s %d", what, id)
	}
	return fmt.Errorf("lifeplan: %s %d: %w", what, id, err)
}

func parseTimes(dst []*time.Time, src ...string) error {
	for i, s := range src {
		t, err := store.ParseTime(s)
		if err != nil {
			return err
		}
		*dst[i] = t
	}
	return nil
}
