package coach

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
	"hearth/internal/store"
)

// dashboardParams wraps the dashboard schema as the "document" argument,
// hoisting its $defs to the root so its "#/$defs/…" references resolve.
func dashboardParams() map[string]any {
	doc := dashboard.SchemaMap()
	defs := doc["$defs"]
	delete(doc, "$defs")
	delete(doc, "$schema")
	p := object(map[string]any{"document": doc})
	p["$defs"] = defs
	return p
}

func (t *Tools) writeDashboard() agent.Tool {
	return agent.Tool{
		Name: "write_dashboard",
		Description: "Write (replace) the member's dashboard for today. Content ids must exist in the catalog with their " +
			"catalog durations; the document is refused with the problems otherwise.",
		Parameters: dashboardParams(),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct{ Document dashboard.Document }
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			if scope.MemberID == "" {
				return nil, errNoMember
			}
			problems, err := t.c.validateContent(ctx, a.Document)
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
			err = t.c.db.Tx(ctx, func(tx *store.Tx) error {
				return dashboard.PutTx(ctx, tx, now, scope.MemberID, day, scope.RunID, a.Document, "coach tool")
			})
			if err != nil {
				return nil, err
			}
			t.c.dash.Published(scope.MemberID)
			return map[string]any{"ok": true, "day": day}, nil
		},
	}
}

// validateContent runs the dashboard's domain checks against the catalog
// entries of the ids the document names.
func (c *core) validateContent(ctx context.Context, doc dashboard.Document) ([]agent.ValidationError, error) {
	found, err := c.cat.Lookup(ctx, doc.ContentIDs())
	if err != nil {
		return nil, fmt.Errorf("coach: catalog lookup: %w", err)
	}
	entries := make(map[string]dashboard.CatalogEntry, len(found))
	for id, it := range found {
		entries[id] = dashboard.CatalogEntry{Title: it.Title, Duration: it.DurationMin}
	}
	var out []agent.ValidationError
	for _, p := range dashboard.ValidateDomain(doc, entries) {
		out = append(out, agent.ValidationError{Path: p.Path, Message: p.Message})
	}
	return out, nil
}

func (t *Tools) logNote() agent.Tool {
	return agent.Tool{
		Name:        "log_coaching_note",
		Description: "Save a coaching note for the member's history: an insight, milestone or recommendation worth keeping.",
		Parameters: object(map[string]any{
			"note": map[string]any{"type": "string", "minLength": 1, "maxLength": MaxNoteLen},
		}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct{ Note string }
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			if scope.MemberID == "" {
				return nil, errNoMember
			}
			if strings.TrimSpace(a.Note) == "" {
				return nil, errors.New("the note is empty")
			}
			id, err := insertNote(ctx, t.c.db.Write, t.c.clock(scope), scope.MemberID, a.Note, scope.RunID)
			if err != nil {
				return nil, err
			}
			return map[string]any{"ok": true, "id": id}, nil
		},
	}
}
