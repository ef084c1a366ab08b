package schedule

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/text"
)

// TodoStatus is where a to-do item is.
type TodoStatus string

// To-do statuses.
const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoDone       TodoStatus = "done"
)

// Limits on the to-do list.
const (
	MaxTodoLen       = 2000 // characters
	MaxOpenTodos     = 50   // open items per agent and member
	todoNoteMaxChars = 500
)

// Todo is one item on an agent's to-do list, about one member.
type Todo struct {
	ID        int64      `json:"id"`
	AgentID   string     `json:"agent"`
	MemberID  string     `json:"member"`
	Text      string     `json:"text"`
	Status    TodoStatus `json:"status"`
	Note      string     `json:"note,omitempty"` // why it went back to pending, or a closing note
	Attempts  int        `json:"attempts"`       // failed heartbeat runs
	CreatedBy CreatedBy  `json:"created_by"`
	RunID     int64      `json:"run_id,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
	DoneAt    *time.Time `json:"done_at,omitempty"`
}

// TodoInput adds an item.
type TodoInput struct {
	AgentID   string    `json:"agent"`
	MemberID  string    `json:"member"`
	Text      string    `json:"text"`
	CreatedBy CreatedBy `json:"created_by"` // "" = user
}

// TodoFilter narrows List; zero fields match everything.
type TodoFilter struct {
	AgentID  string
	MemberID string
	Status   TodoStatus
	Open     bool // pending or in progress
}

// Todos is the agents' to-do list.
type Todos struct {
	db  *store.DB
	loc *time.Location
	now func() time.Time
	pub live.Publisher
}

const todoCols = `id, agent_id, member_id, text, status, note, attempts, created_by, run_id, created_at, updated_at, done_at`

func scanTodo(row store.Scanner, loc *time.Location) (Todo, error) {
	var (
		t                Todo
		status, by       string
		runID            sql.NullInt64
		created, updated string
		done             sql.NullString
		err              error
	)
	if err = row.Scan(&t.ID, &t.AgentID, &t.MemberID, &t.Text, &status, &t.Note, &t.Attempts, &by, &runID,
		&created, &updated, &done); err != nil {
		return t, err
	}
	t.Status, t.CreatedBy, t.RunID = TodoStatus(status), CreatedBy(by), runID.Int64
	if t.CreatedAt, err = store.ParseTime(created); err != nil {
		return t, err
	}
	if t.UpdatedAt, err = store.ParseTime(updated); err != nil {
		return t, err
	}
	if t.DoneAt, err = store.ParseNullTime(done); err != nil {
		return t, err
	}
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.In(loc), t.UpdatedAt.In(loc)
	if t.DoneAt != nil {
		*t.DoneAt = t.DoneAt.In(loc)
	}
	return t, nil
}

func getTodo(ctx context.Context, q store.Queryer, id int64, loc *time.Location) (Todo, error) {
	t, err := scanTodo(q.QueryRowContext(ctx, `SELECT `+todoCols+` FROM agent_todos WHERE id = ?`, id), loc)
	if errors.Is(err, sql.ErrNoRows) {
		return t, apperr.NotFoundf("no to-do %d", id)
	}
	if err != nil {
		return t, fmt.Errorf("schedule: to-do %d: %w", id, err)
	}
	return t, nil
}

// Add puts an item on the list. apperr.Invalid for empty or over-long text
// or an unknown member; apperr.Conflict when the member already has
// MaxOpenTodos open items for this agent.
func (l *Todos) Add(ctx context.Context, in TodoInput) (Todo, error) {
	in, err := checkTodo(in)
	if err != nil {
		return Todo{}, err
	}
	var id int64
	err = l.db.Tx(ctx, func(tx *store.Tx) error {
		var err error
		id, err = l.addTx(ctx, tx, in)
		return err
	})
	if err != nil {
		return Todo{}, err
	}
	return getTodo(ctx, l.db.Read, id, l.loc)
}

// checkTodo tidies and validates a new item.
func checkTodo(in TodoInput) (TodoInput, error) {
	in.Text, in.AgentID, in.MemberID = strings.TrimSpace(in.Text), strings.TrimSpace(in.AgentID), strings.TrimSpace(in.MemberID)
	clean, err := text.Check(text.Multi, in.Text)
	if err != nil {
		return in, invalidField("text", "to-do text "+err.Error())
	}
	in.Text = clean
	if in.CreatedBy == "" {
		in.CreatedBy = ByUser
	}
	switch n := utf8.RuneCountInString(in.Text); {
	case n == 0:
		return in, invalidField("text", "to-do text is required")
	case n > MaxTodoLen:
		return in, invalidField("text", fmt.Sprintf("to-do text is %d characters; the limit is %d", n, MaxTodoLen))
	case in.AgentID == "":
		return in, invalidField("agent", "a to-do belongs to an agent")
	case in.MemberID == "":
		return in, invalidField("member", "a to-do is about a member")
	case in.CreatedBy != ByUser && in.CreatedBy != ByAgent:
		return in, invalidField("created_by", fmt.Sprintf("unknown creator %q", string(in.CreatedBy)))
	}
	return in, nil
}

// checkOpenTodos refuses an item past the member's MaxOpenTodos for the agent.
func checkOpenTodos(ctx context.Context, q store.Queryer, in TodoInput) error {
	var open int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM agent_todos WHERE agent_id = ? AND member_id = ?
		AND status <> 'done'`, in.AgentID, in.MemberID).Scan(&open); err != nil {
		return err
	}
	if open >= MaxOpenTodos {
		return apperr.New(apperr.Conflict, "limit reached: %d open to-dos for %s; complete some first", open, in.MemberID)
	}
	return nil
}

// addTx inserts a checked item in tx and tells the admin once it commits.
func (l *Todos) addTx(ctx context.Context, tx *store.Tx, in TodoInput) (int64, error) {
	ok, err := memberExists(ctx, tx, in.MemberID)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, invalidField("member", fmt.Sprintf("unknown member %q", in.MemberID))
	}
	if err := checkOpenTodos(ctx, tx, in); err != nil {
		return 0, err
	}
	now := store.FormatTime(l.now())
	res, err := tx.ExecContext(ctx, `INSERT INTO agent_todos (agent_id, member_id, text, created_by, created_at,
		updated_at) VALUES (?,?,?,?,?,?)`, in.AgentID, in.MemberID, in.Text, string(in.CreatedBy), now, now)
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	tx.AfterCommit(func() { l.pub.Publish(topicAdmin, kindTodo, id) })
	return id, err
}

// List returns items matching f, oldest first.
func (l *Todos) List(ctx context.Context, f TodoFilter) ([]Todo, error) {
	var w store.Where
	w.Eq("agent_id", f.AgentID).Eq("member_id", f.MemberID).Eq("status", string(f.Status))
	if f.Open {
		w.And("status <> 'done'")
	}
	out, err := store.All(ctx, l.db.Read, inZone(scanTodo, l.loc), `SELECT `+todoCols+` FROM agent_todos`+w.String()+
		` ORDER BY created_at, id`, w.Args()...)
	if err != nil {
		return nil, fmt.Errorf("schedule: list to-dos: %w", err)
	}
	return out, nil
}

// Get returns one item (apperr.NotFound when there is none).
func (l *Todos) Get(ctx context.Context, id int64) (Todo, error) {
	return getTodo(ctx, l.db.Read, id, l.loc)
}

// Complete marks an item done (idempotent). memberID, when not "", must be
// the item's member: a coach completing another member's item gets NotFound.
func (l *Todos) Complete(ctx context.Context, id int64, memberID, note string) (Todo, error) {
	err := l.db.Tx(ctx, func(tx *store.Tx) error { return l.completeTx(ctx, tx, id, memberID, note) })
	if err != nil {
		return Todo{}, err
	}
	return getTodo(ctx, l.db.Read, id, l.loc)
}

// completeTx is Complete inside tx.
func (l *Todos) completeTx(ctx context.Context, tx *store.Tx, id int64, memberID, note string) error {
	t, err := getTodo(ctx, tx, id, l.loc)
	if err != nil {
		return err
	}
	if memberID != "" && t.MemberID != memberID {
		return apperr.NotFoundf("no to-do %d for %s", id, memberID)
	}
	if t.Status == TodoDone {
		return nil
	}
	now := store.FormatTime(l.now())
	if _, err := tx.ExecContext(ctx, `UPDATE agent_todos SET status = 'done', note = ?, done_at = ?, updated_at = ?
		WHERE id = ?`, clip(strings.TrimSpace(note), todoNoteMaxChars), now, now, id); err != nil {
		return err
	}
	tx.AfterCommit(func() { l.pub.Publish(topicAdmin, kindTodo, id) })
	return nil
}

// Delete removes an item.
func (l *Todos) Delete(ctx context.Context, id int64) error {
	res, err := l.db.Write.ExecContext(ctx, `DELETE FROM agent_todos WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("schedule: delete to-do %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("no to-do %d", id)
	}
	l.pub.Publish(topicAdmin, kindTodo, id)
	return nil
}
