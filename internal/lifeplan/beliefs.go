package lifeplan

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/text"
)

// BeliefState is how far a belief has been tested. A belief may move
// between any two states: it follows the member's judgement of the
// evidence, and nothing is final about a belief.
type BeliefState string

// The belief states.
const (
	Hypothesized BeliefState = "hypothesized" // held, not yet tested
	Testing      BeliefState = "testing"      // being tried out
	Confirmed    BeliefState = "confirmed"    // the evidence bears it out
	Uncertain    BeliefState = "uncertain"    // the evidence is mixed
	Refuted      BeliefState = "refuted"      // the evidence contradicts it
)

// BeliefStates lists every belief state.
var BeliefStates = []BeliefState{Hypothesized, Testing, Confirmed, Uncertain, Refuted}

// Valid reports whether s is a belief state.
func (s BeliefState) Valid() bool { return slices.Contains(BeliefStates, s) }

// DefaultConfidence is a new belief's confidence when none is given.
const DefaultConfidence = 0.5

// Belief is an if/then hypothesis the member holds about their life
// ("if I train in the morning, then I sleep better").
type Belief struct {
	ID         int64       `json:"id"`
	If         string      `json:"if"`
	Then       string      `json:"then"`
	State      BeliefState `json:"state"`
	Confidence float64     `json:"confidence"` // 0–1
	// Evidence is every note on the belief, oldest first, with its status:
	// only accepted notes count as evidence.
	Evidence  []Evidence `json:"evidence"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
}

// BeliefInput is a new belief.
type BeliefInput struct {
	If   string `json:"if"`
	Then string `json:"then"`
	// Confidence is 0–1; nil is DefaultConfidence.
	Confidence *float64 `json:"confidence,omitempty"`
}

// EvidenceSource says who wrote an evidence note.
type EvidenceSource string

// The evidence sources.
const (
	FromMember EvidenceSource = "member" // the member's own note: accepted as written
	FromCoach  EvidenceSource = "coach"  // a coach's suggestion: the member decides
	FromData   EvidenceSource = "data"   // drawn from logged data: the member decides
)

// EvidenceStatus is whether a note counts as evidence.
type EvidenceStatus string

// The evidence statuses.
const (
	Suggested EvidenceStatus = "suggested" // waiting for the member
	Accepted  EvidenceStatus = "accepted"  // counts as evidence
	Dismissed EvidenceStatus = "dismissed" // the member said no; kept so it is not suggested again
)

// Evidence is one note on a belief.
type Evidence struct {
	ID        int64          `json:"id"`
	BeliefID  int64          `json:"belief_id"`
	Text      string         `json:"text"`
	Source    EvidenceSource `json:"source"`
	Status    EvidenceStatus `json:"status"`
	CreatedAt time.Time      `json:"created_at"`
	DecidedAt *time.Time     `json:"decided_at,omitempty"`
}

// Beliefs returns the member's beliefs, oldest first, each with its notes.
func (s *Service) Beliefs(ctx context.Context, member string) ([]Belief, error) {
	var out []Belief
	err := s.read(ctx, member, func(q store.Queryer) error {
		var err error
		out, err = beliefs(ctx, q, member)
		return err
	})
	return out, err
}

func confidence(f map[string]string, c *float64) float64 {
	if c == nil {
		return DefaultConfidence
	}
	if math.IsNaN(*c) || *c < 0 || *c > 1 {
		f["confidence"] = "must be between 0 and 1"
		return 0
	}
	return *c
}

// AddBelief adds a hypothesized belief.
func (s *Service) AddBelief(ctx context.Context, member string, in BeliefInput) (Belief, error) {
	f := map[string]string{}
	ifText := text.Required(f, "if", text.Line, in.If, maxClause)
	thenText := text.Required(f, "then", text.Line, in.Then, maxClause)
	c := confidence(f, in.Confidence)
	if len(f) > 0 {
		return Belief{}, apperr.FieldErrors(f)
	}
	var b Belief
	err := s.write(ctx, member, func(tx *store.Tx) error {
		n, err := count(ctx, tx, "lifeplan_beliefs", member)
		if err != nil {
			return err
		}
		if n >= MaxBeliefs {
			return full("beliefs", MaxBeliefs)
		}
		now := s.stamp()
		res, err := tx.ExecContext(ctx, `INSERT INTO lifeplan_beliefs (member_id, if_text, then_text, state, confidence, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, member, ifText, thenText, Hypothesized, c, now, now)
		if err != nil {
			return fmt.Errorf("lifeplan: add belief: %w", err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("lifeplan: add belief: %w", err)
		}
		b, err = belief(ctx, tx, member, id)
		return err
	})
	return b, err
}

// SetBeliefState records the member's judgement of a belief: its state and,
// when not nil, its confidence (0–1).
func (s *Service) SetBeliefState(ctx context.Context, member string, id int64, state BeliefState, conf *float64) (Belief, error) {
	f := map[string]string{}
	if !state.Valid() {
		f["state"] = "must be one of " + joinStates(BeliefStates)
	}
	var c float64
	if conf != nil {
		c = confidence(f, conf)
	}
	if len(f) > 0 {
		return Belief{}, apperr.FieldErrors(f)
	}
	var b Belief
	err := s.write(ctx, member, func(tx *store.Tx) error {
		if _, err := belief(ctx, tx, member, id); err != nil {
			return err
		}
		q, args := `UPDATE lifeplan_beliefs SET state = ?, updated_at = ?`, []any{state, s.stamp()}
		if conf != nil {
			q, args = q+`, confidence = ?`, append(args, c)
		}
		if _, err := tx.ExecContext(ctx, q+` WHERE id = ? AND member_id = ?`, append(args, id, member)...); err != nil {
			return fmt.Errorf("lifeplan: belief %d: %w", id, err)
		}
		var err error
		b, err = belief(ctx, tx, member, id)
		return err
	})
	return b, err
}

// SuggestEvidence adds a note to one of the member's beliefs. The member's
// own note (FromMember) is accepted as written; a coach's or the data's is
// a suggestion that counts only once the member accepts it (DecideEvidence).
// A coach or the data suggesting a note already on the belief (the same
// text, whatever its status) is refused as a Conflict: a dismissed note is
// not suggested again.
func (s *Service) SuggestEvidence(ctx context.Context, member string, beliefID int64, source EvidenceSource, note string) (Evidence, error) {
	f := map[string]string{}
	note = text.Required(f, "text", text.Multi, note, maxNote)
	if !slices.Contains([]EvidenceSource{FromMember, FromCoach, FromData}, source) {
		f["source"] = "must be member, coach or data"
	}
	if len(f) > 0 {
		return Evidence{}, apperr.FieldErrors(f)
	}
	var e Evidence
	err := s.write(ctx, member, func(tx *store.Tx) error {
		b, err := belief(ctx, tx, member, beliefID)
		if err != nil {
			return err
		}
		if len(b.Evidence) >= MaxEvidence {
			return apperr.New(apperr.Conflict, "a belief holds at most %d evidence notes", MaxEvidence)
		}
		if source != FromMember {
			for _, old := range b.Evidence {
				if old.Text == note {
					return apperr.New(apperr.Conflict, "this note is already on the belief (%s)", old.Status)
				}
			}
		}
		now := s.stamp()
		status, decided := Suggested, sql.NullString{}
		if source == FromMember {
			status, decided = Accepted, sql.NullString{String: now, Valid: true}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO lifeplan_evidence (member_id, belief_id, text, source, status, created_at, decided_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, member, beliefID, note, source, status, now, decided)
		if err != nil {
			return fmt.Errorf("lifeplan: add evidence: %w", err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("lifeplan: add evidence: %w", err)
		}
		e, err = evidence(ctx, tx, member, id)
		return err
	})
	return e, err
}

// DecideEvidence is the member accepting (accept) or dismissing a suggested
// note. Only the member decides: the lead wires this to the member's own
// taps, never to a coach's tool. A note already decided is a Conflict.
func (s *Service) DecideEvidence(ctx context.Context, member string, evidenceID int64, accept bool) (Evidence, error) {
	var e Evidence
	err := s.write(ctx, member, func(tx *store.Tx) error {
		old, err := evidence(ctx, tx, member, evidenceID)
		if err != nil {
			return err
		}
		if old.Status != Suggested {
			return apperr.New(apperr.Conflict, "this note was already %s", old.Status)
		}
		status := Dismissed
		if accept {
			status = Accepted
		}
		now := s.stamp()
		if _, err := tx.ExecContext(ctx, `UPDATE lifeplan_evidence SET status = ?, decided_at = ? WHERE id = ? AND member_id = ?`,
			status, now, evidenceID, member); err != nil {
			return fmt.Errorf("lifeplan: decide evidence %d: %w", evidenceID, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE lifeplan_beliefs SET updated_at = ? WHERE id = ? AND member_id = ?`,
			now, old.BeliefID, member); err != nil {
			return fmt.Errorf("lifeplan: decide evidence %d: %w", evidenceID, err)
		}
		e, err = evidence(ctx, tx, member, evidenceID)
		return err
	})
	return e, err
}

const selectBelief = `SELECT id, if_text, then_text, state, confidence, created_at, updated_at FROM lifeplan_beliefs`

func scanBelief(r store.Scanner) (Belief, error) {
	var b Belief
	var created, updated string
	if err := r.Scan(&b.ID, &b.If, &b.Then, &b.State, &b.Confidence, &created, &updated); err != nil {
		return b, err
	}
	b.Evidence = []Evidence{}
	return b, parseTimes([]*time.Time{&b.CreatedAt, &b.UpdatedAt}, created, updated)
}

const selectEvidence = `SELECT id, belief_id, text, source, status, created_at, decided_at FROM lifeplan_evidence`

func scanEvidence(r store.Scanner) (Evidence, error) {
	var e Evidence
	var created string
	var decided sql.NullString
	if err := r.Scan(&e.ID, &e.BeliefID, &e.Text, &e.Source, &e.Status, &created, &decided); err != nil {
		return e, err
	}
	var err error
	if e.CreatedAt, err = store.ParseTime(created); err != nil {
		return e, err
	}
	e.DecidedAt, err = store.ParseNullTime(decided)
	return e, err
}

func beliefs(ctx context.Context, q store.Queryer, member string) ([]Belief, error) {
	bs, err := store.All(ctx, q, scanBelief, selectBelief+` WHERE member_id = ? ORDER BY id`, member)
	if err != nil {
		return nil, fmt.Errorf("lifeplan: beliefs: %w", err)
	}
	es, err := store.All(ctx, q, scanEvidence, selectEvidence+` WHERE member_id = ? ORDER BY id`, member)
	if err != nil {
		return nil, fmt.Errorf("lifeplan: evidence: %w", err)
	}
	at := map[int64]int{}
	for i, b := range bs {
		at[b.ID] = i
	}
	for _, e := range es {
		if i, ok := at[e.BeliefID]; ok {
			bs[i].Evidence = append(bs[i].Evidence, e)
		}
	}
	return bs, nil
}

// belief returns one of the member's beliefs with its notes; another
// member's is NotFound.
func belief(ctx context.Context, q store.Queryer, member string, id int64) (Belief, error) {
	b, err := store.One(ctx, q, scanBelief, selectBelief+` WHERE id = ? AND member_id = ?`, id, member)
	if err != nil {
		return b, notFound(err, "belief", id)
	}
	b.Evidence, err = store.All(ctx, q, scanEvidence, selectEvidence+` WHERE belief_id = ? AND member_id = ? ORDER BY id`, id, member)
	if err != nil {
		return b, fmt.Errorf("lifeplan: evidence of belief %d: %w", id, err)
	}
	return b, nil
}

func evidence(ctx context.Context, q store.Queryer, member string, id int64) (Evidence, error) {
	e, err := store.One(ctx, q, scanEvidence, selectEvidence+` WHERE id = ? AND member_id = ?`, id, member)
	if err != nil {
		return e, notFound(err, "evidence note", id)
	}
	return e, nil
}
