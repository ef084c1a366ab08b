package definition

import (
	"context"
	"errors"
	"strings"

	"hearth/internal/agent"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Hook attachment points, as recorded in HookEvent.Point.
const (
	BeforeAgent   = "before_agent"
	AfterAgent    = "after_agent"
	BeforeTool    = "before_tool"
	AfterTool     = "after_tool"
	AfterSubAgent = "after_sub_agent"
)

// Built-in hook names (BuiltinHooks).
const (
	HookNotify      = "notify"
	HookLogNote     = "log_note"
	HookSendMessage = "send_message"
)

// NotifyKind is the live event kind the notify hook publishes.
const NotifyKind = live.KindNotify

// maxHookTextLen caps the text a hook passes on, in characters.
const maxHookTextLen = 2000

// HookEvent is what a hook receives: where it fired and the value its
// source selected.
type HookEvent struct {
	Point   string
	AgentID string
	// Tool is set for tool hooks, Key for sub-agent hooks.
	Tool   string
	Key    string
	Member string
	RunID  int64
	Value  any
	// Scope is the run's scope: a hook that writes stages the write with
	// Scope.Stage, so it happens only when the invoke succeeds.
	Scope agent.Scope
}

// HookFunc is a named side effect fired by definitions.
type HookFunc func(ctx context.Context, ev HookEvent) error

// NoteLogger records a coaching note about a member in a transaction.
type NoteLogger interface {
	LogNote(ctx context.Context, tx *store.Tx, member, agentID, note string, runID int64) error
}

// Notification is the data of a "notify" event on a member's topic.
type Notification struct {
	Agent   string `json:"agent"`
	Message string `json:"message"`
}

// NotifyHook publishes the value as text to the member's screens (topic
// "member:<id>", kind "notify") once the invoke has committed. An empty
// value publishes nothing.
func NotifyHook(pub live.Publisher) HookFunc {
	return func(_ context.Context, ev HookEvent) error {
		msg := hookText(ev.Value)
		if msg == "" {
			return nil
		}
		n := Notification{Agent: ev.AgentID, Message: msg}
		return ev.Scope.Stage(func(_ context.Context, tx *store.Tx) error {
			tx.AfterCommit(func() { pub.Publish(live.MemberTopic(ev.Member), NotifyKind, n) })
			return nil
		})
	}
}

// LogNoteHook records the value as text as a note about the member when
// the invoke commits.
func LogNoteHook(notes NoteLogger) HookFunc {
	return func(_ context.Context, ev HookEvent) error {
		note := hookText(ev.Value)
		if note == "" {
			return errors.New("log_note: nothing to log (the source is empty)")
		}
		return ev.Scope.Stage(func(ctx context.Context, tx *store.Tx) error {
			return notes.LogNote(ctx, tx, ev.Member, ev.AgentID, note, ev.RunID)
		})
	}
}

// MessageSender delivers text to a member's coach messages inside tx (the
// app adapts messages.Service.SendTx).
type MessageSender func(ctx context.Context, tx *store.Tx, member, agentID, text string, runID int64) error

// SendMessageHook delivers the value as text to the member's coach
// messages ("From your coach") when the run commits. An empty value is an
// error (noted on the step).
func SendMessageHook(send MessageSender) HookFunc {
	return func(_ context.Context, ev HookEvent) error {
		msg := hookText(ev.Value)
		if msg == "" {
			return errors.New("send_message: nothing to send (the source is empty)")
		}
		return ev.Scope.Stage(func(ctx context.Context, tx *store.Tx) error {
			return send(ctx, tx, ev.Member, ev.AgentID, msg, ev.RunID)
		})
	}
}

// BuiltinHooks returns notify (when pub is set) and log_note (when notes is
// set), to merge into Registry.Hooks.
func BuiltinHooks(pub live.Publisher, notes NoteLogger) map[string]HookFunc {
	out := map[string]HookFunc{}
	if pub != nil {
		out[HookNotify] = NotifyHook(pub)
	}
	if notes != nil {
		out[HookLogNote] = LogNoteHook(notes)
	}
	return out
}

func hookText(v any) string {
	s := strings.TrimSpace(text(v))
	if r := []rune(s); len(r) > maxHookTextLen {
		s = string(r[:maxHookTextLen-1]) + "…"
	}
	return s
}
