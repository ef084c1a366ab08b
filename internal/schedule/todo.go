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
	pub Publisher
}

const todoCols = `id, agent_id, member_id, text, status, note, attempts, created_by, run_id, created_at, updated_at, done_at`

func scanTodo(row interface{ Scan(...any) error }, loc *time.Location) (Todo, error) {
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
	in.Text, in.AgentID, in.MemberID = strings.TrimSpace(in.Text), strings.TrimSpace(in.AgentID), strings.TrimSpace(in.MemberID)
	clean, err := text.Check(text.Multi, in.Text)
	if err != nil {
		return Todo{}, invalidField("text", "to-do text "+err.Error())
	}
	in.Text = clean
	if in.CreatedBy == "" {
		in.CreatedBy = ByUser
	}
	switch n := utf8.RuneCountInString(in.Text); {
	case n == 0:
		return Todo{}, invalidField("text", "to-do text is required")
	case n > MaxTodoLen:
		return Todo{}, invalidField("text", fmt.Sprintf("to-do text is %d characters; the limit is %d", n, MaxTodoLen))
	case in.AgentID == "":
		return Todo{}, invalidField("agent", "a to-do belongs to an agent")
	case in.MemberID == "":
		return Todo{}, invalidField("member", "a to-do is about a member")
	case in.CreatedBy != ByUser && in.CreatedBy != ByAgent:
		return Todo{}, invalidField("created_by", fmt.Sprintf("unknown creator %q", string(in.CreatedBy)))
	}
	now := l.now()
	var id int64
	err = l.db.Tx(ctx, func(tx *sql.Tx) error {
		ok, err := memberExists(ctx, tx, in.MemberID)
		if err != nil {
			return err
		}
		if !ok {
			return invalidField("member", fmt.Sprintf("unknown member %q", in.MemberID))
		}
		var open int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM agent_todos WHERE agent_id = ? AND member_id = ?
			AND status <> 'done'`, in.AgentID, in.MemberID).Scan(&open); err != nil {
			return err
		}
		if open >= MaxOpenTodos {
			return apperr.New(apperr.Conflict, "limit reached: %d open to-dos for %s; complete some first", open, in.MemberID)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO agent_todos (agent_id, member_id, text, created_by, created_at,
			updated_at) VALUES (?,?,?,?,?,?)`, in.AgentID, in.MemberID, in.Text, string(in.CreatedBy),
			store.FormatTime(now), store.FormatTime(now))
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return Todo{}, err
	}
	l.pub.Publish(topicAdmin, kindTodo, id)
	return getTodo(ctx, l.db.Read, id, l.loc)
}

// List returns items matching f, oldest first.
func (l *Todos) List(ctx context.Context, f TodoFilter) ([]Todo, error) {
	var (
		where []string
		args  []any
	)
	add := func(cond string, arg any) { where = append(where, cond); args = append(args, arg) }
	if f.AgentID != "" {
		add("agent_id = ?", f.AgentID)
	}
	if f.MemberID != "" {
		add("member_id = ?", f.MemberID)
	}
	if f.Status != "" {
		add("status = ?", string(f.Status))
	}
	if f.Open {
		where = append(where, "status <> 'done'")
	}
	query := `SELECT ` + todoCols + ` FROM agent_todos`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, " AND ")
	}
	rows, err := l.db.Read.QueryContext(ctx, query+` ORDER BY created_at, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("schedule: list to-dos: %w", err)
	}
	defer rows.Close()
	out := []Todo{}
	for rows.Next() {
		t, err := scanTodo(rows, l.loc)
		if err != nil {
			return nil, fmt.Errorf("schedule: scan to-do: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Complete marks an item done (idempotent). memberID, when not "", must be
// the item's member: a coach completing another member's item gets NotFound.
func (l *Todos) Complete(ctx context.Context, id int64, memberID, note string) (Todo, error) {
	now := l.now()
	err := l.db.Tx(ctx, func(tx *sql.Tx) error {
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
		_, err = tx.ExecContext(ctx, `UPDATE agent_todos SET status = 'done', note = ?, done_at = ?, updated_at = ?
			WHERE id = ?`, clip(strings.TrimSpace(note), todoNoteMaxChars), store.FormatTime(now), store.FormatTime(now), id)
		return err
	})
	if err != nil {
		return Todo{}, err
	}
	l.pub.Publish(topicAdmin, kindTodo, id)
	return getTodo(ctx, l.db.Read, id, l.loc)
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
