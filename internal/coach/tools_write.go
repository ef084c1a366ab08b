package coach

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/messages"
	"hearth/internal/schedule"
	"hearth/internal/store"
)

// dashboardArgs are write_dashboard's arguments: the document.
type dashboardArgs struct {
	Document dashboard.Document `json:"document"`
}

// JSONSchema implements agent.Schemer: the dashboard schema as the
// "document" argument, its $defs hoisted to the root so its "#/$defs/…"
// references resolve.
func (dashboardArgs) JSONSchema() map[string]any {
	doc := dashboard.SchemaMap()
	defs := doc["$defs"]
	delete(doc, "$defs")
	delete(doc, "$schema")
	return map[string]any{"type": "object", "properties": map[string]any{"document": doc},
		"required": []string{"document"}, "additionalProperties": false, "$defs": defs}
}

func (t *Tools) writeDashboard() agent.Tool {
	return scopedTool("write_dashboard",
		"Write (replace) the member's dashboard for today when your output is accepted. Content ids must exist in the "+
			"catalog with their catalog durations; the document is refused with the problems otherwise.",
		func(ctx context.Context, scope agent.Scope, a dashboardArgs) (map[string]any, error) {
			problems, _, err := t.c.validateContent(ctx, a.Document)
			if err != nil {
				return nil, err
			}
			if len(problems) > 0 {
				return nil, errors.New("document refused:\n" + agent.FormatValidationErrors(problems))
			}
			now := t.c.clock(scope)
			if a.Document.GeneratedAt.IsZero() {
				a.Document.GeneratedAt = now.UTC()
			}
			day := dateOf(now, t.c.loc)
			err = scope.Stage(func(ctx context.Context, tx *store.Tx) error {
				return t.c.dash.PutTx(ctx, tx, now, scope.MemberID, day, scope.RunID, a.Document, "coach tool")
			})
			return map[string]any{"staged": err == nil, "day": day, "note": stagedNote}, err
		})
}

// validateContent runs the dashboard's domain checks against the catalog
// entries of the ids the document names; it returns those items too.
func (c *core) validateContent(ctx context.Context, doc dashboard.Document) ([]agent.ValidationError, map[string]content.Item, error) {
	found, err := c.cat.Lookup(ctx, doc.ContentIDs())
	if err != nil {
		return nil, nil, fmt.Errorf("coach: catalog lookup: %w", err)
	}
	entries := make(map[string]dashboard.CatalogEntry, len(found))
	for id, it := range found {
		entries[id] = dashboard.CatalogEntry{Title: it.Title, Duration: it.DurationMin}
	}
	var out []agent.ValidationError
	for _, p := range dashboard.ValidateDomain(doc, entries) {
		out = append(out, agent.ValidationError{Path: p.Path, Message: p.Message})
	}
	return out, found, nil
}

// noteArgs are log_coaching_note's arguments.
type noteArgs struct {
	Note string `json:"note" schema:"minLength=1,maxLength=1000"`
}

func (t *Tools) logNote() agent.Tool {
	return scopedTool("log_coaching_note",
		"Save a coaching note for the member's history: an insight, milestone or recommendation worth keeping (saved when your output is accepted).",
		func(_ context.Context, scope agent.Scope, a noteArgs) (map[string]any, error) {
			if strings.TrimSpace(a.Note) == "" {
				return nil, errors.New("the note is empty")
			}
			now := t.c.clock(scope)
			err := scope.Stage(func(ctx context.Context, tx *store.Tx) error {
				_, err := insertNote(ctx, tx, now, scope.MemberID, a.Note, scope.RunID)
				return err
			})
			return map[string]any{"staged": err == nil, "note": stagedNote}, err
		})
}

// Messenger delivers a message to a member inside a transaction
// (*messages.Service).
type Messenger interface {
	SendTx(ctx context.Context, tx *store.Tx, member, agent, text string, via messages.Via) (messages.Message, error)
}

// messageArgs are send_message's arguments.
type messageArgs struct {
	Text string `json:"text" desc:"What to tell the member, in your voice: a reminder, a nudge, an answer to a to-do." schema:"minLength=1,maxLength=2000"`
}

func (t *Tools) sendMessage() agent.Tool {
	return scopedTool("send_message",
		"Send the member a short message, shown on their dashboard as \"From your coach\" until they dismiss it (sent when your output is accepted). "+
			"Use it for what a scheduled action or a to-do asks you to tell them.",
		func(_ context.Context, scope agent.Scope, a messageArgs) (map[string]any, error) {
			if strings.TrimSpace(a.Text) == "" {
				return nil, errors.New("the message is empty")
			}
			err := scope.Stage(func(ctx context.Context, tx *store.Tx) error {
				_, err := t.c.msgs.SendTx(ctx, tx, scope.MemberID, scope.AgentID, a.Text, messages.Via{Source: messageSource(scope.Origin), RunID: scope.RunID})
				return err
			})
			return map[string]any{"staged": err == nil, "note": stagedNote}, err
		})
}

// messageSource says what a message answers, for the admin's list: a
// scheduled task, a to-do the heartbeat took, or the coach on its own.
func messageSource(origin string) string {
	switch {
	case strings.HasPrefix(origin, "task:"):
		return schedule.TriggerSchedule
	case strings.HasPrefix(origin, "todo:"):
		return schedule.TriggerHeartbeat
	}
	return "tool"
}
