// Package messages delivers what an agent has to say to a member outside
// the daily plan: the output of a scheduled action or a to-do meant for
// them, a coach tool call, a definition's send_message hook. A message is
// shown as "From your coach" on the member's dashboard (live, over the
// stream) until they dismiss it, and listed in the admin.
//
// Send is the service API other parts call:
//
//	msgs := messages.New(db, hub)
//	msgs.Send(ctx, "maya", "health-coach", "Time for a glass of water.", messages.Via{Source: "schedule", RunID: run.ID})
//
// SendTx does the same inside a transaction the caller holds (an agent
// run's commit), telling screens once it commits.
package messages

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/text"
)

// MaxLen caps a message, in characters (longer text is cut with "…").
const MaxLen = 2000

// Message is one message to a member.
type Message struct {
	ID          int64      `json:"id"`
	MemberID    string     `json:"member"`
	AgentID     string     `json:"agent"`
	Source      string     `json:"source,omitempty"`
	RunID       int64      `json:"run_id,omitempty"`
	Text        string     `json:"text"`
	CreatedAt   time.Time  `json:"created_at"`
	DismissedAt *time.Time `json:"dismissed_at,omitempty"`
}

// Via says what sent a message: its source (schedule, heartbeat, tool,
// hook…) and the run that wrote it (0 = none).
type Via struct {
	Source string
	RunID  int64
}

// Service stores messages and tells screens.
type Service struct {
	db  *store.DB
	pub live.Publisher
}

// New returns a Service over db that notifies pub (nil: nobody).
func New(db *store.DB, pub live.Publisher) *Service { return &Service{db: db, pub: pub} }

// clean makes text fit for a screen: control characters dropped (model
// text is not typed input), surrounding space trimmed, cut at MaxLen.
func clean(s string) (string, error) {
	s, _ = text.Clean(text.Multi, s)
	s = strings.TrimSpace(s)
	if s == "" {
		return "", apperr.Invalidf("the message is empty")
	}
	if utf8.RuneCountInString(s) > MaxLen {
		s = string([]rune(s)[:MaxLen-1]) + "…"
	}
	return s, nil
}

// Send delivers a message from agent to member.
func (s *Service) Send(ctx context.Context, member, agent, msg string, via Via) (Message, error) {
	var m Message
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		var err error
		m, err = s.SendTx(ctx, tx, member, agent, msg, via)
		return err
	})
	return m, err
}

// SendTx delivers a message inside tx; screens are told once it commits.
// An unknown member is NotFound.
func (s *Service) SendTx(ctx context.Context, tx *store.Tx, member, agent, msg string, via Via) (Message, error) {
	body, err := clean(msg)
	if err != nil {
		return Message{}, err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM members WHERE id = ?`, member).Scan(&n); err != nil {
		return Message{}, fmt.Errorf("messages: member %q: %w", member, err)
	}
	if n == 0 {
		return Message{}, apperr.NotFoundf("no member %q", member)
	}
	m := Message{MemberID: member, AgentID: agent, Source: via.Source, RunID: via.RunID, Text: body,
		CreatedAt: s.db.Now().UTC().Truncate(time.Millisecond)}
	res, err := tx.ExecContext(ctx, `INSERT INTO coach_messages (member_id, agent_id, source, run_id, text, created_at)
		VALUES (?,?,?,?,?,?)`, member, agent, via.Source, sql.NullInt64{Int64: via.RunID, Valid: via.RunID != 0}, body,
		store.FormatTime(m.CreatedAt))
	if err != nil {
		return Message{}, fmt.Errorf("messages: send to %s: %w", member, err)
	}
	if m.ID, err = res.LastInsertId(); err != nil {
		return Message{}, err
	}
	s.changed(tx, member)
	return m, nil
}

func (s *Service) changed(tx *store.Tx, member string) {
	if s.pub == nil {
		return
	}
	tx.AfterCommit(func() {
		s.pub.Publish(live.MemberTopic(member), live.KindMessage, nil)
		s.pub.Publish(live.TopicAdmin, live.KindMessage, member)
	})
}

// Dismiss hides one of the member's messages from their dashboard (another
// member's id is NotFound; dismissing twice changes nothing).
func (s *Service) Dismiss(ctx context.Context, member string, id int64) error {
	return s.db.Tx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE coach_messages SET dismissed_at = coalesce(dismissed_at, ?)
			WHERE id = ? AND member_id = ?`, store.FormatTime(s.db.Now()), id, member)
		if err != nil {
			return fmt.Errorf("messages: dismiss %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFoundf("no message %d for %s", id, member)
		}
		s.changed(tx, member)
		return nil
	})
}

// Filter selects messages; zero fields match everything.
type Filter struct {
	Member string
	// Open leaves out dismissed messages.
	Open  bool
	Limit int // default 50
}

// List returns messages, newest first.
func (s *Service) List(ctx context.Context, f Filter) ([]Message, error) {
	q, args := `SELECT id, member_id, agent_id, source, run_id, text, created_at, dismissed_at FROM coach_messages WHERE 1=1`, []any{}
	if f.Member != "" {
		q += ` AND member_id = ?`
		args = append(args, f.Member)
	}
	if f.Open {
		q += ` AND dismissed_at IS NULL`
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	q += ` ORDER BY created_at DESC, id DESC LIMIT ?`
	args = append(args, f.Limit)
	out, err := store.All(ctx, s.db.Read, scan, q, args...)
	if err != nil {
		return nil, fmt.Errorf("messages: list: %w", err)
	}
	return out, nil
}

func scan(row store.Scanner) (Message, error) {
	var m Message
	var run sql.NullInt64
	var at string
	var dismissed sql.NullString
	if err := row.Scan(&m.ID, &m.MemberID, &m.AgentID, &m.Source, &run, &m.Text, &at, &dismissed); err != nil {
		return m, err
	}
	m.RunID = run.Int64
	var err error
	if m.CreatedAt, err = store.ParseTime(at); err != nil {
		return m, err
	}
	m.DismissedAt, err = store.ParseNullTime(dismissed)
	return m, err
}

// SentByRun counts the messages a run sent (a tool call in the run).
func (s *Service) SentByRun(ctx context.Context, runID int64) (int, error) {
	var n int
	if err := s.db.Read.QueryRowContext(ctx, `SELECT count(*) FROM coach_messages WHERE run_id = ?`, runID).Scan(&n); err != nil {
		return 0, fmt.Errorf("messages: sent by run %d: %w", runID, err)
	}
	return n, nil
}
