package agent

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// Surface is where a person talks to an agent: the open household screen
// (anyone on the network, no login) or the admin (pages and APIs, behind
// the login). A thread keeps the surface it was started on; a chat turn
// gets the tools its surface allows (Agent.SurfaceTools).
type Surface string

// Surfaces.
const (
	SurfaceAdmin Surface = "admin"
	SurfaceKiosk Surface = "kiosk"
)

// Thread is a persisted chat conversation between an agent and a member.
type Thread struct {
	ID     int64  `json:"id"`
	Agent  string `json:"agent"`
	Member string `json:"member"`
	Title  string `json:"title"`
	// Chat: someone talks to the agent here (the kiosk's chat sheet, Admin
	// → Chat, the threads API), not the trace of a request made to it.
	Chat bool `json:"chat"`
	// Origin is where the thread was started: the kiosk sees only its
	// own threads, the admin every thread.
	Origin    Surface   `json:"origin"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// MessageType is what a thread message holds.
type MessageType string

// Message types: a member's or an agent's text, an agent's tool call (the
// tool's name and arguments), and the tool's result.
const (
	MessageText       MessageType = "text"
	MessageToolCall   MessageType = "tool-call"
	MessageToolResult MessageType = "tool-result"
)

// ThreadMessage is one message of a thread; RunID is the chat run it
// belongs to. A tool call has the assistant's role, its result the tool's;
// both name the tool, the call its arguments.
type ThreadMessage struct {
	ID         int64           `json:"id"`
	ThreadID   int64           `json:"thread_id"`
	Role       Role            `json:"role"`
	Type       MessageType     `json:"type"`
	Content    string          `json:"content"`
	ToolName   string          `json:"tool_name,omitempty"`
	ToolArgs   json.RawMessage `json:"tool_args,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	RunID      *int64          `json:"run_id,omitempty"`
	CreatedAt  time.Time       `json:"created_at"`
}

// ThreadStore reads and writes agent_threads and agent_messages.
type ThreadStore struct {
	db  *store.DB
	now func() time.Time
}

// NewThreadStore returns a store using now as its clock (db.Now if nil).
func NewThreadStore(db *store.DB, now func() time.Time) *ThreadStore {
	if now == nil {
		now = db.Now
	}
	return &ThreadStore{db: db, now: now}
}

func (s *ThreadStore) create(ctx context.Context, q store.Queryer, t *Thread) error {
	t.CreatedAt = s.now().UTC().Truncate(time.Millisecond)
	t.UpdatedAt = t.CreatedAt
	if t.Origin == "" {
		t.Origin = SurfaceAdmin
	}
	res, err := q.ExecContext(ctx, `INSERT INTO agent_threads (agent_id, member_id, title, chat, origin, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, t.Agent, t.Member, t.Title, t.Chat, string(t.Origin), store.FormatTime(t.CreatedAt), store.FormatTime(t.UpdatedAt))
	if err != nil {
		if isForeignKey(err) {
			return apperr.NotFoundf("unknown member %q", t.Member)
		}
		return fmt.Errorf("agent: create thread: %w", err)
	}
	t.ID, err = res.LastInsertId()
	return err
}

func (s *ThreadStore) addMessage(ctx context.Context, q store.Queryer, m *ThreadMessage) error {
	m.CreatedAt = s.now().UTC().Truncate(time.Millisecond)
	if m.Type == "" {
		m.Type = MessageText
	}
	var args sql.NullString
	if len(m.ToolArgs) > 0 {
		args = sql.NullString{String: string(m.ToolArgs), Valid: true}
	}
	res, err := q.ExecContext(ctx, `INSERT INTO agent_messages (thread_id, role, type, content, tool_name, tool_args,
		tool_call_id, run_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, m.ThreadID, string(m.Role), string(m.Type),
		m.Content, m.ToolName, args, m.ToolCallID, nullID(m.RunID), store.FormatTime(m.CreatedAt))
	if err != nil {
		return fmt.Errorf("agent: add message: %w", err)
	}
	if m.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `UPDATE agent_threads SET updated_at = ? WHERE id = ?`, store.FormatTime(m.CreatedAt), m.ThreadID)
	if err != nil {
		return fmt.Errorf("agent: touch thread: %w", err)
	}
	return nil
}

// Thread returns one thread; NotFound if there is none.
func (s *ThreadStore) Thread(ctx context.Context, id int64) (Thread, error) {
	return s.thread(ctx, s.db.Read, id)
}

func (s *ThreadStore) thread(ctx context.Context, q store.Queryer, id int64) (Thread, error) {
	t, err := scanThread(q.QueryRowContext(ctx, `SELECT `+threadColumns+` FROM agent_threads WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Thread{}, apperr.NotFoundf("thread %d not found", id)
	}
	return t, err
}

// threadColumns are scanThread's columns.
const threadColumns = `id, agent_id, member_id, title, chat, origin, created_at, updated_at`

// Threads lists the threads of (agent, member), most recently active first.
func (s *ThreadStore) Threads(ctx context.Context, agentID, memberID string, limit int) ([]Thread, error) {
	return s.list(ctx, agentID, memberID, false, "", limit)
}

// Chats lists the chat threads of (agent, member) started on origin,
// most recently active first: what the member's chat sheet shows.
func (s *ThreadStore) Chats(ctx context.Context, agentID, memberID string, origin Surface, limit int) ([]Thread, error) {
	return s.list(ctx, agentID, memberID, true, origin, limit)
}

// list lists threads; origin "" is any.
func (s *ThreadStore) list(ctx context.Context, agentID, memberID string, chats bool, origin Surface, limit int) ([]Thread, error) {
	if limit <= 0 {
		limit = 50
	}
	out, err := store.All(ctx, s.db.Read, scanThread, `SELECT `+threadColumns+`
		FROM agent_threads WHERE agent_id = ? AND member_id = ? AND (chat OR NOT ?) AND (origin = ? OR ? = '')
		ORDER BY updated_at DESC, id DESC LIMIT ?`, agentID, memberID, chats, string(origin), string(origin), limit)
	if err != nil {
		return nil, fmt.Errorf("agent: list threads: %w", err)
	}
	return out, nil
}

// Messages returns up to limit messages of a thread with id < beforeID
// (0 = newest), oldest first; limit <= 0 means 100.
func (s *ThreadStore) Messages(ctx context.Context, threadID, beforeID int64, limit int) ([]ThreadMessage, error) {
	if limit <= 0 {
		limit = 100
	}
	if beforeID <= 0 {
		beforeID = 1<<62 - 1
	}
	out, err := store.All(ctx, s.db.Read, scanMessage, `SELECT `+messageColumns+`
		FROM agent_messages WHERE thread_id = ? AND id < ? ORDER BY id DESC LIMIT ?`, threadID, beforeID, limit)
	if err != nil {
		return nil, fmt.Errorf("agent: list messages: %w", err)
	}
	slices.Reverse(out)
	return out, nil
}

const messageColumns = `id, thread_id, role, type, content, tool_name, tool_args, tool_call_id, run_id, created_at`

// textMessages returns up to limit text messages of a thread with id <
// beforeID, oldest first (the history a chat turn sends).
func (s *ThreadStore) textMessages(ctx context.Context, threadID, beforeID int64, limit int) ([]ThreadMessage, error) {
	out, err := store.All(ctx, s.db.Read, scanMessage, `SELECT `+messageColumns+`
		FROM agent_messages WHERE thread_id = ? AND id < ? AND type = 'text' ORDER BY id DESC LIMIT ?`, threadID, beforeID, limit)
	if err != nil {
		return nil, fmt.Errorf("agent: thread history: %w", err)
	}
	slices.Reverse(out)
	return out, nil
}

func scanMessage(row store.Scanner) (ThreadMessage, error) {
	var m ThreadMessage
	var role, typ, at string
	var args sql.NullString
	var runID sql.NullInt64
	if err := row.Scan(&m.ID, &m.ThreadID, &role, &typ, &m.Content, &m.ToolName, &args, &m.ToolCallID, &runID, &at); err != nil {
		return m, err
	}
	m.Role, m.Type = Role(role), MessageType(typ)
	if args.Valid {
		m.ToolArgs = json.RawMessage(args.String)
	}
	if runID.Valid {
		m.RunID = &runID.Int64
	}
	var err error
	m.CreatedAt, err = store.ParseTime(at)
	return m, err
}

func scanThread(row store.Scanner) (Thread, error) {
	var t Thread
	var created, updated, origin string
	if err := row.Scan(&t.ID, &t.Agent, &t.Member, &t.Title, &t.Chat, &origin, &created, &updated); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return t, err
		}
		return t, fmt.Errorf("agent: scan thread: %w", err)
	}
	t.Origin = Surface(origin)
	var err error
	if t.CreatedAt, err = store.ParseTime(created); err != nil {
		return t, err
	}
	t.UpdatedAt, err = store.ParseTime(updated)
	return t, err
}
