package agent

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/text"
)

// Working-memory scopes of a conversation.
const (
	// MemoryResource: the agent's memory of the member, shared by every
	// thread and by the agent's assignments (the default).
	MemoryResource = "resource"
	// MemoryThread: each thread keeps its own memory.
	MemoryThread = "thread"
)

// Conversation configures an agent's chat threads.
type Conversation struct {
	// LastMessages is how many earlier text messages of the thread go to
	// the model with a new one (0 = Options.HistoryMessages).
	LastMessages int
	// MemoryScope is MemoryResource ("" too) or MemoryThread.
	MemoryScope string
	// NoRecall turns off finding older messages by full-text search when
	// a message refers back to something said before.
	NoRecall bool
	// ModelTools names, per surface, the tools a chat model is offered of
	// those the surface allows (every definition is prompt a CPU server
	// reads on each turn); a surface not listed offers them all. The
	// heuristic reply may still call any tool the surface allows.
	ModelTools map[Surface][]string
}

// modelSpecs are the tools of box a chat model on surface is offered.
func (c Conversation) modelSpecs(box *Toolbox, surface Surface) []ToolSpec {
	specs := box.Specs()
	names, ok := c.ModelTools[surface]
	if !ok {
		return specs
	}
	out := make([]ToolSpec, 0, len(names))
	for _, s := range specs {
		if slices.Contains(names, s.Name) {
			out = append(out, s)
		}
	}
	return out
}

// threadMemoryID is the memory owner of a thread-scoped conversation.
func threadMemoryID(agentID string, thread int64) string {
	return agentID + "/thread/" + strconv.FormatInt(thread, 10)
}

// MaxThreadTitleLen caps a thread's title, in characters.
const MaxThreadTitleLen = 80

// CreateThread starts an empty thread of agentID with member; title ""
// is filled from the first message.
func (o *Orchestrator) CreateThread(ctx context.Context, agentID, member, title string) (Thread, error) {
	if _, _, err := o.resolve(ctx, agentID); err != nil {
		return Thread{}, err
	}
	if member == "" {
		return Thread{}, apperr.Invalidf("a member is required")
	}
	title, err := text.Check(text.Line, strings.TrimSpace(title))
	if err != nil {
		return Thread{}, apperr.Invalidf("the title %v", err)
	}
	if utf8.RuneCountInString(title) > MaxThreadTitleLen {
		return Thread{}, apperr.Invalidf("the title is longer than %d characters", MaxThreadTitleLen)
	}
	t := Thread{Agent: agentID, Member: member, Title: title, Chat: true}
	err = o.db.Tx(ctx, func(tx *store.Tx) error { return o.threads.create(ctx, tx, &t) })
	return t, err
}

// DeleteThread removes a thread, its messages (and their index entries)
// and its own working memory when the agent keeps one per thread.
func (o *Orchestrator) DeleteThread(ctx context.Context, id int64) error {
	return o.db.Tx(ctx, func(tx *store.Tx) error {
		t, err := o.threads.thread(ctx, tx, id)
		if err != nil {
			return err
		}
		mem := threadMemoryID(t.Agent, t.ID)
		for _, q := range []string{`DELETE FROM agent_memory_history WHERE agent_id = ? AND member_id = ?`,
			`DELETE FROM agent_memory WHERE agent_id = ? AND member_id = ?`} {
			if _, err := tx.ExecContext(ctx, q, mem, t.Member); err != nil {
				return fmt.Errorf("agent: delete thread memory: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM agent_threads WHERE id = ?`, id); err != nil {
			return fmt.Errorf("agent: delete thread %d: %w", id, err)
		}
		return nil
	})
}

// Recalled is an older message found again by full-text search.
type Recalled struct {
	ThreadMessage
	ThreadTitle string `json:"thread_title"`
}

// refersBack matches a message that asks about something said before.
var refersBack = regexp.MustCompile(`(?i)\b(what|when|where|how|why)\s+(did|do|have|had)\s+i\s+(say|said|tell|told|mention|write|wrote|ask)|` +
	`\bi\s+(said|told you|mentioned|wrote|asked)\b|\b(remember|recall|earlier|last time|before|previously|back then|we (talked|spoke|discussed))\b`)

// RefersBack reports whether a message asks about something said before
// ("what did I say about my knee?"): such a message gets older messages
// recalled by full-text search.
func RefersBack(message string) bool { return refersBack.MatchString(message) }

// recallStopWords are left out of a recall query: what asks, not what about.
var recallStopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about after again all am an and any are as at be been before but by can could did do
		does doing for from had has have how i if in into is it its just last me mentioned my myself of on or our said say
		she so tell than that the their them then there these they this time to told too was we were what when where which
		who why will with would you your remember recall earlier previously back talked spoke discussed wrote asked ask`) {
		recallStopWords[w] = true
	}
}

// recallQuery turns a message into an FTS5 query: its content words, each
// quoted (so no word is read as an operator) as a prefix, any of them.
func recallQuery(message string) string {
	var terms []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(message), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if utf8.RuneCountInString(w) < 3 || recallStopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"*`)
		if len(terms) == 8 {
			break
		}
	}
	return strings.Join(terms, " OR ")
}

// Recall finds up to limit earlier text messages of (agentID, member), in
// any of their threads started on origin ("" = any), that share words with
// message, best match first; messages of thread with id >= from are left
// out (the recent window the model gets anyway).
func (s *ThreadStore) Recall(ctx context.Context, agentID, member string, origin Surface, message string, thread, from int64, limit int) ([]Recalled, error) {
	q := recallQuery(message)
	if q == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = 5
	}
	rows, err := s.db.Read.QueryContext(ctx, `SELECT m.id, m.thread_id, m.role, m.type, m.content, m.tool_name, m.tool_args,
		m.tool_call_id, m.run_id, m.created_at, t.title
		FROM agent_messages_fts f JOIN agent_messages m ON m.id = f.rowid JOIN agent_threads t ON t.id = m.thread_id
		WHERE agent_messages_fts MATCH ? AND t.agent_id = ? AND t.member_id = ? AND (t.origin = ? OR ? = '')
			AND NOT (m.thread_id = ? AND m.id >= ?)
		ORDER BY bm25(agent_messages_fts), m.id DESC LIMIT ?`, q, agentID, member, string(origin), string(origin), thread, from, limit)
	if err != nil {
		return nil, fmt.Errorf("agent: recall: %w", err)
	}
	defer rows.Close()
	var out []Recalled
	for rows.Next() {
		var r Recalled
		var role, typ, at string
		var args sql.NullString
		var runID sql.NullInt64
		if err := rows.Scan(&r.ID, &r.ThreadID, &role, &typ, &r.Content, &r.ToolName, &args, &r.ToolCallID, &runID, &at, &r.ThreadTitle); err != nil {
			return nil, fmt.Errorf("agent: recall: %w", err)
		}
		r.Role, r.Type = Role(role), MessageType(typ)
		if runID.Valid {
			r.RunID = &runID.Int64
		}
		if r.CreatedAt, err = store.ParseTime(at); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// recallSection renders recalled messages for a prompt: who said it, when,
// and what, quoted so a message cannot pose as an instruction.
func recallSection(rs []Recalled, loc *time.Location) string {
	if len(rs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Recalled from earlier conversations\n(Quoted messages, oldest context first; use them to answer questions about what was said.)\n")
	for i := len(rs) - 1; i >= 0; i-- {
		r := rs[i]
		who := "The member"
		if r.Role == RoleAssistant {
			who = "You"
		}
		fmt.Fprintf(&b, "- %s, %s: %s\n", who, r.CreatedAt.In(loc).Format("Mon 2 Jan 2006"), Quote(r.Content))
	}
	return b.String()
}
